/**
 * Hub content parts → Responses input parts for an OpenAI upstream. Audio has no place in the
 * Responses input union (400 unsupported_modality); assistant turns hold only text and refusals.
 */
import type {
  ResponseInputContent,
  ResponseInputFile,
  ResponseInputImage,
  ResponseOutputRefusal,
  ResponseOutputText,
} from 'openai/resources/responses/responses';
import type { ContentPart, FilePart, ImagePart } from '../hub.js';
import { badRequest } from '../errors.js';
import { extensionFor, toDataUrl } from '../media.js';

const DETAILS = new Set(['low', 'high', 'auto', 'original']);

export function userPart(part: ContentPart): ResponseInputContent {
  switch (part.type) {
    case 'text':
      return { type: 'input_text', text: part.text };
    case 'refusal':
      return { type: 'input_text', text: part.text };
    case 'image':
      return imagePart(part);
    case 'file':
      return filePart(part);
    case 'audio':
      throw badRequest('unsupported_modality', 'Audio input cannot be sent to this model (the Responses API takes no input_audio).');
  }
}

export function assistantPart(part: ContentPart): ResponseOutputText | ResponseOutputRefusal {
  if (part.type === 'text') return { type: 'output_text', text: part.text, annotations: [] };
  if (part.type === 'refusal') return { type: 'refusal', refusal: part.text };
  if (part.type === 'audio') throw badRequest('unsupported_modality', 'Audio cannot be sent to this model.');
  throw badRequest('invalid_content_part', `An assistant message cannot hold ${part.type} content for this model; only text.`);
}

function imagePart(part: ImagePart): ResponseInputImage {
  const detail = (part.detail && DETAILS.has(part.detail) ? part.detail : 'auto') as ResponseInputImage['detail'];
  const source = part.source;
  switch (source.kind) {
    case 'url':
      return { type: 'input_image', image_url: source.url, detail };
    case 'base64':
      return { type: 'input_image', image_url: toDataUrl(source.mediaType, source.data), detail };
    case 'file_id':
      return { type: 'input_image', file_id: openaiFileId(source.fileId, 'An image'), detail };
    case 'text':
      throw badRequest('invalid_image', 'An image must be a URL, base64 data or a file id, not text.');
  }
}

function filePart(part: FilePart): ResponseInputContent {
  const source = part.source;
  switch (source.kind) {
    case 'base64': {
      // OpenAI wants a filename with inline file data; invent a plain one when the client gave none.
      const filename = part.filename ?? part.title ?? defaultFilename(source.mediaType);
      return { type: 'input_file', file_data: toDataUrl(source.mediaType, source.data), filename };
    }
    case 'url':
      return withName({ type: 'input_file', file_url: source.url }, part);
    case 'file_id':
      return withName({ type: 'input_file', file_id: openaiFileId(source.fileId, 'A file') }, part);
    case 'text':
      // A plain-text document is just text to a Responses model.
      return { type: 'input_text', text: part.title ? `${part.title}\n\n${source.text}` : source.text };
  }
}

/**
 * A file id is only good with the provider it was uploaded to. Anthropic's (`file_…`; OpenAI's
 * are `file-…`) would make OpenAI answer 404 after the round trip, naming an id the client never
 * sent there; it is refused here, naming what to send instead.
 */
function openaiFileId(fileId: string, what: string): string {
  if (fileId.startsWith('file_')) {
    throw badRequest('unsupported_content', `${what} given by an Anthropic file id (${fileId.slice(0, 40)}) cannot be read by this model; send the data (base64) or a URL.`);
  }
  return fileId;
}

function withName(file: ResponseInputFile, part: FilePart): ResponseInputFile {
  if (part.filename) file.filename = part.filename;
  return file;
}

/** OpenAI reads a file's type from its name's extension: text/plain must be `.txt`, not `.plain`. */
function defaultFilename(mediaType: string): string {
  return `document.${extensionFor(mediaType)}`;
}
