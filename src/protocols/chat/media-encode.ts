/**
 * Hub images and documents → Chat content parts, for a Chat upstream the client's ids and URLs
 * may mean nothing to.
 *
 * File ids are scoped to the provider that issued them (OpenAI's `file-…`, Anthropic's
 * `file_…`), and svc-proxy uploads nothing, so no Chat upstream can resolve one: refused, never
 * passed on. Chat's `file.file_data` is the file's bytes as a base64 data URL; a document URL
 * goes there only for a target that fetches it (`fileUrls`, decided by the provider adapter).
 */
import type { FilePart, ImagePart } from '../hub.js';
import { badRequest } from '../errors.js';
import { toDataUrl } from '../media.js';
import type { Json } from './guards.js';

export function encodeImage(part: ImagePart): Json {
  const s = part.source;
  let url: string;
  if (s.kind === 'url') url = s.url;
  else if (s.kind === 'base64') url = toDataUrl(s.mediaType, s.data);
  else if (s.kind === 'text') return { type: 'text', text: s.text };
  else throw fileIdRefused('Images', s.fileId, 'send the image data (base64) or a URL');
  const imageUrl: Json = { url };
  if (part.detail === 'auto' || part.detail === 'low' || part.detail === 'high') imageUrl.detail = part.detail;
  return { type: 'image_url', image_url: imageUrl };
}

/** A document as a Chat `file` part (a plain-text one as text). */
export function encodeFile(part: FilePart, fileUrls: boolean): Json {
  const s = part.source;
  if (s.kind === 'text') return { type: 'text', text: part.title ? `${part.title}\n\n${s.text}` : s.text };
  const send = fileUrls ? "send the file's data (base64 file_data) or a URL" : "send the file's data (base64 file_data)";
  if (s.kind === 'file_id') throw fileIdRefused('Files', s.fileId, send);
  const file: Json = {};
  let filename = part.filename ?? part.title;
  if (s.kind === 'base64') file.file_data = toDataUrl(s.mediaType, s.data);
  else if (fileUrls) {
    file.file_data = s.url;
    filename ??= urlFilename(s.url);
  } else {
    throw badRequest('unsupported_content', `Files given by URL (${s.url.slice(0, 80)}) cannot be read by this model, which takes a file's data only; ${send} instead.`);
  }
  if (filename) file.filename = filename;
  return { type: 'file', file };
}

function fileIdRefused(what: string, fileId: string, send: string) {
  const whose = fileId.startsWith('file-') ? 'an OpenAI file id' : 'a file id';
  return badRequest('unsupported_content', `${what} given by ${whose} (${fileId.slice(0, 40)}) cannot be read by this model: file ids belong to the provider that issued them. ${send.charAt(0).toUpperCase()}${send.slice(1)} instead.`);
}

/** The URL's last path segment, which names the file for the upstream's parser ("paper.pdf"). */
function urlFilename(url: string): string | undefined {
  try {
    const last = new URL(url).pathname.split('/').filter(Boolean).pop();
    return last ? decodeURIComponent(last) : undefined;
  } catch {
    return undefined;
  }
}
