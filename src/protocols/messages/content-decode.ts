/**
 * Messages content blocks from a client → hub content parts (text, image, document, and what a
 * tool_result holds). Empty text is dropped: Anthropic rejects it and no target needs it.
 */
import type { ContentPart, FilePart, ImagePart, MediaSource, TextPart } from '../hub.js';
import { badRequest } from '../errors.js';
import { fileMediaType, imageMediaType, isBase64, isDataUrl, isHttpUrl, parseDataUrl } from '../media.js';
import { decodeCacheControl } from './cache-control.js';
import { decodeToolReference, type ToolEvent } from './tool-availability.js';
import { expectArray, expectObject, expectString, isObject, optString, type JsonObject } from './json.js';


export function decodeTextBlock(block: JsonObject, path: string): TextPart | null {
  const text = expectString(block.text, `${path}.text`, 'invalid_content_part');
  if (text === '') return null;
  const cc = decodeCacheControl(block.cache_control, `${path}.cache_control`);
  return cc ? { type: 'text', text, cacheControl: cc } : { type: 'text', text };
}

export function decodeImageBlock(block: JsonObject, path: string): ImagePart {
  const src = expectObject(block.source, `${path}.source`, 'invalid_image');
  let source: MediaSource;
  switch (src.type) {
    case 'base64': {
      const mediaType = expectString(src.media_type, `${path}.source.media_type`, 'invalid_image');
      if (!mediaType.startsWith('image/')) {
        throw badRequest('invalid_image', `${path}.source.media_type must be an image type (got ${JSON.stringify(mediaType)}).`, `${path}.source.media_type`);
      }
      source = { kind: 'base64', mediaType, data: base64Data(src.data, `${path}.source.data`, 'invalid_image') };
      break;
    }
    case 'url':
      source = urlSource(src.url, `${path}.source.url`, 'invalid_image', imageMediaType);
      break;
    case 'file':
      source = { kind: 'file_id', fileId: nonEmpty(src.file_id, `${path}.source.file_id`, 'invalid_image') };
      break;
    default:
      throw badRequest('invalid_image', `${path}.source.type must be base64, url or file.`, `${path}.source.type`);
  }
  const part: ImagePart = { type: 'image', source };
  const cc = decodeCacheControl(block.cache_control, `${path}.cache_control`);
  if (cc) part.cacheControl = cc;
  return part;
}

/**
 * A `document` block. A `content` source (text and image blocks) becomes one plain-text document
 * followed by its images, which is what every other target can represent.
 */
export function decodeDocumentBlock(block: JsonObject, path: string): ContentPart[] {
  const src = expectObject(block.source, `${path}.source`, 'invalid_content_part');
  const title = optString(block.title, `${path}.title`, 'invalid_content_part');
  const cc = decodeCacheControl(block.cache_control, `${path}.cache_control`);
  const file = (source: MediaSource): FilePart => {
    const part: FilePart = { type: 'file', source };
    if (title) part.title = title;
    if (cc) part.cacheControl = cc;
    return part;
  };
  switch (src.type) {
    case 'base64': {
      const mediaType = expectString(src.media_type, `${path}.source.media_type`, 'invalid_content_part');
      return [file({ kind: 'base64', mediaType, data: base64Data(src.data, `${path}.source.data`, 'invalid_content_part') })];
    }
    case 'text': {
      const text = expectString(src.data, `${path}.source.data`, 'invalid_content_part');
      const mediaType = optString(src.media_type, `${path}.source.media_type`, 'invalid_content_part') ?? 'text/plain';
      return [file({ kind: 'text', text, mediaType })];
    }
    case 'url':
      return [file(urlSource(src.url, `${path}.source.url`, 'invalid_content_part', (data) => fileMediaType(title, data)))];
    case 'file':
      return [file({ kind: 'file_id', fileId: nonEmpty(src.file_id, `${path}.source.file_id`, 'invalid_content_part') })];
    case 'content': {
      if (typeof src.content === 'string') return [file({ kind: 'text', text: src.content, mediaType: 'text/plain' })];
      const blocks = expectArray(src.content, `${path}.source.content`, 'invalid_content_part');
      const texts: string[] = [];
      const images: ImagePart[] = [];
      blocks.forEach((b, i) => {
        const p = `${path}.source.content[${i}]`;
        const o = expectObject(b, p, 'invalid_content_part');
        if (o.type === 'text') texts.push(expectString(o.text, `${p}.text`, 'invalid_content_part'));
        else if (o.type === 'image') images.push(decodeImageBlock(o, p));
        else throw badRequest('invalid_content_part', `${p}.type must be text or image.`, `${p}.type`);
      });
      return [...(texts.length > 0 ? [file({ kind: 'text', text: texts.join('\n'), mediaType: 'text/plain' })] : []), ...images];
    }
    default:
      throw badRequest('invalid_content_part', `${path}.source.type must be base64, text, url, file or content.`, `${path}.source.type`);
  }
}

/** A `search_result` block, kept as text (source, title, then its text) since only Anthropic has the type. */
export function decodeSearchResultBlock(block: JsonObject, path: string): TextPart | null {
  const source = optString(block.source, `${path}.source`, 'invalid_content_part') ?? '';
  const title = optString(block.title, `${path}.title`, 'invalid_content_part') ?? '';
  const content = expectArray(block.content, `${path}.content`, 'invalid_content_part');
  const texts = content.map((b, i) => {
    const o = expectObject(b, `${path}.content[${i}]`, 'invalid_content_part');
    return expectString(o.text, `${path}.content[${i}].text`, 'invalid_content_part');
  });
  const text = [title, source, ...texts].filter((s) => s !== '').join('\n');
  if (text === '') return null;
  const cc = decodeCacheControl(block.cache_control, `${path}.cache_control`);
  return cc ? { type: 'text', text, cacheControl: cc } : { type: 'text', text };
}

/** A media/text block that may appear in a user turn or inside a tool_result. */
export function decodeMediaOrText(block: JsonObject, path: string): ContentPart[] | undefined {
  switch (block.type) {
    case 'text': {
      const t = decodeTextBlock(block, path);
      return t ? [t] : [];
    }
    case 'image':
      return [decodeImageBlock(block, path)];
    case 'document':
      return decodeDocumentBlock(block, path);
    case 'search_result': {
      const t = decodeSearchResultBlock(block, path);
      return t ? [t] : [];
    }
    default:
      return undefined;
  }
}

/**
 * `tool_result.content`: a string stays a string; blocks become parts. A `tool_reference` (a
 * client-side tool search loading a deferred tool, see tool-availability.ts) is noted in `events`
 * and becomes a line saying so: the tool itself joins the converted request's tools.
 */
export function decodeToolResultContent(content: unknown, path: string, events: ToolEvent[]): string | ContentPart[] {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  const blocks = expectArray(content, path, 'invalid_content_part');
  const parts: ContentPart[] = [];
  blocks.forEach((b, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(b)) throw badRequest('invalid_content_part', `${p} must be a content block object.`, p);
    if (b.type === 'tool_reference') {
      parts.push(decodeToolReference(b, p, events));
      return;
    }
    const decoded = decodeMediaOrText(b, p);
    if (decoded === undefined) {
      throw badRequest('unsupported_feature', `${p}: tool_result content of type ${JSON.stringify(b.type)} cannot be converted for this model; use text, image, document, search_result or tool_reference.`, `${p}.type`);
    }
    parts.push(...decoded);
  });
  return parts;
}

/** Base64 payload of a `base64` source (standard or URL-safe, no data: prefix), checked so a broken one is a clean 400. */
function base64Data(v: unknown, path: string, code: string): string {
  const data = nonEmpty(v, path, code);
  if (!isBase64(data)) throw badRequest(code, `${path} is not base64 (standard or URL-safe, no data: prefix).`, path);
  return data;
}

/** A `url` source: an http(s) URL, or a data URL some clients put there (kept as the inline data it is). */
function urlSource(v: unknown, path: string, code: string, unlabelled: (data: string) => string): MediaSource {
  const url = nonEmpty(v, path, code);
  if (isDataUrl(url)) {
    const inline = parseDataUrl(url);
    if (!inline) throw badRequest(code, `${path} is not a valid base64 data URL.`, path);
    return { kind: 'base64', mediaType: inline.mediaType || unlabelled(inline.data), data: inline.data };
  }
  if (!isHttpUrl(url)) throw badRequest(code, `${path} must be an http(s) URL.`, path);
  return { kind: 'url', url };
}

function nonEmpty(v: unknown, path: string, code: string): string {
  const s = expectString(v, path, code);
  if (s === '') throw badRequest(code, `${path} is empty.`, path);
  return s;
}
