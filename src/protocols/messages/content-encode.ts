/**
 * Hub content parts → Messages blocks for a Messages upstream. Anthropic takes images as
 * jpeg/png/gif/webp only, documents as PDF (base64/url/file) or plain text, and no audio.
 * Text holding only whitespace is dropped (null): Anthropic refuses such blocks.
 */
import type { DocumentBlockParam, ImageBlockParam, TextBlockParam } from '@anthropic-ai/sdk/resources/messages/messages';
import type { ContentPart, FilePart, ImagePart, MediaSource } from '../hub.js';
import { badRequest } from '../errors.js';
import { parseDataUrl, sniffMediaType } from '../media.js';
import { withCacheControl } from './cache-control.js';

export type EncodedPart = TextBlockParam | ImageBlockParam | DocumentBlockParam;

type ImageMediaType = 'image/jpeg' | 'image/png' | 'image/gif' | 'image/webp';
const IMAGE_TYPES: ReadonlySet<string> = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

/** `keepCache`: whether cache hints survive (Messages targets that accept them); `where`: "a user message", … for errors. */
/**
 * Empty or whitespace only. Only short texts are read: a long one is never blank in practice, and
 * reading it would flatten the rope a long prompt is decoded as (rope-decode.ts) into one large
 * allocation.
 */
export function isBlankText(text: string): boolean {
  return text.length < 256 && text.trim() === '';
}

export function encodePart(part: ContentPart, keepCache: boolean, where: string): EncodedPart | null {
  switch (part.type) {
    case 'text':
    case 'refusal':
      // Anthropic refuses empty and whitespace-only text blocks; other models write "\n\n" beside tool calls.
      if (isBlankText(part.text)) return null;
      return withCacheControl<TextBlockParam>({ type: 'text', text: part.text }, part.type === 'text' ? part.cacheControl : undefined, keepCache);
    case 'image':
      return encodeImage(part, keepCache, where);
    case 'file':
      return encodeFile(part, keepCache, where);
    case 'audio':
      throw badRequest('unsupported_modality', `In ${where}: audio input is not supported by this model (Anthropic Messages takes no audio).`);
  }
}

function encodeImage(part: ImagePart, keepCache: boolean, where: string): ImageBlockParam {
  const source = fromDataUrl(part.source);
  let block: ImageBlockParam;
  switch (source.kind) {
    case 'base64':
      block = { type: 'image', source: { type: 'base64', media_type: imageMediaType(source.mediaType, where), data: source.data } };
      break;
    case 'url':
      block = { type: 'image', source: { type: 'url', url: source.url } };
      break;
    case 'file_id':
      block = { type: 'image', source: { type: 'file', file_id: anthropicFileId(source.fileId, 'Images', where) } };
      break;
    case 'text':
      throw badRequest('unsupported_media_type', `In ${where}: an image part holds text, not image data.`);
  }
  return withCacheControl(block, part.cacheControl, keepCache);
}

function encodeFile(part: FilePart, keepCache: boolean, where: string): DocumentBlockParam | ImageBlockParam {
  const source = fromDataUrl(part.source);
  const title = part.title ?? part.filename;
  const doc = (src: DocumentBlockParam['source']): DocumentBlockParam =>
    withCacheControl({ type: 'document', source: src, ...(title ? { title } : {}) }, part.cacheControl, keepCache);
  switch (source.kind) {
    case 'base64': {
      const mediaType = source.mediaType.toLowerCase();
      if (mediaType === 'application/pdf') return doc({ type: 'base64', media_type: 'application/pdf', data: source.data });
      if (mediaType.startsWith('text/')) return doc({ type: 'text', media_type: 'text/plain', data: Buffer.from(source.data, 'base64').toString('utf8') });
      if (mediaType.startsWith('image/')) return encodeImage({ type: 'image', source, ...(part.cacheControl ? { cacheControl: part.cacheControl } : {}) }, keepCache, where);
      throw badRequest('unsupported_media_type', `In ${where}: files of type ${source.mediaType} are not supported by this model (PDF, plain text and images are).`);
    }
    case 'url':
      return doc({ type: 'url', url: source.url });
    case 'file_id':
      return doc({ type: 'file', file_id: anthropicFileId(source.fileId, 'Files', where) });
    case 'text':
      return doc({ type: 'text', media_type: 'text/plain', data: source.text });
  }
}

/**
 * A file id is only good with the provider it was uploaded to. OpenAI's (`file-…`) would reach
 * Anthropic (whose ids are `file_…`) and fail there after the round trip; it is refused here,
 * naming what to send instead.
 */
function anthropicFileId(fileId: string, what: string, where: string): string {
  if (fileId.startsWith('file-')) throw badRequest('unsupported_content', `In ${where}: ${what} given by an OpenAI file id (${fileId.slice(0, 40)}) cannot be read by this model; send the data (base64) or a URL.`);
  return fileId;
}

function imageMediaType(mediaType: string, where: string): ImageMediaType {
  const mt = mediaType.toLowerCase() === 'image/jpg' ? 'image/jpeg' : mediaType.toLowerCase();
  if (!IMAGE_TYPES.has(mt)) {
    throw badRequest('unsupported_media_type', `In ${where}: images of type ${mediaType} are not supported by this model (jpeg, png, gif and webp are).`);
  }
  return mt as ImageMediaType;
}

/** A `data:<type>;base64,<data>` URL is inline data, whatever field it arrived in. */
function fromDataUrl(source: MediaSource): MediaSource {
  if (source.kind !== 'url') return source;
  const inline = parseDataUrl(source.url);
  return inline ? { kind: 'base64', mediaType: inline.mediaType || sniffMediaType(inline.data) || 'application/octet-stream', data: inline.data } : source;
}
