/**
 * Content of a Chat client's messages → hub content parts, validated. Paths in errors point at
 * the offending field (messages[2].content[1].image_url.url) so the client can find it.
 */
import type { CacheControl, ContentPart, FilePart, ImagePart, MediaSource, TextPart } from '../hub.js';
import { badRequest } from '../errors.js';
import { fileMediaType, imageMediaType, isBase64, isDataUrl, isHttpUrl, parseDataUrl } from '../media.js';
import { expectArray, expectNonEmptyString, expectRecord, expectString, isRecord, jsonType, optString, type Json } from './guards.js';

const PART = 'invalid_content_part';

/**
 * Anthropic-style `cache_control` (sent by OpenRouter/LiteLLM-aware clients) or OpenAI's
 * `prompt_cache_breakpoint` on a part → hub cache hint.
 */
function readCacheControl(p: Json, path: string): CacheControl | undefined {
  const cc = p.cache_control;
  if (cc !== undefined && cc !== null) {
    if (!isRecord(cc) || cc.type !== 'ephemeral') {
      throw badRequest(PART, `${path}.cache_control must be {"type":"ephemeral"}.`, `${path}.cache_control`);
    }
    if (cc.ttl === undefined || cc.ttl === null) return { type: 'ephemeral' };
    if (cc.ttl !== '5m' && cc.ttl !== '1h') throw badRequest(PART, `${path}.cache_control.ttl must be "5m" or "1h".`, `${path}.cache_control.ttl`);
    return { type: 'ephemeral', ttl: cc.ttl };
  }
  if (isRecord(p.prompt_cache_breakpoint)) return { type: 'ephemeral' };
  return undefined;
}

function textPart(p: Json, path: string): TextPart {
  const part: TextPart = { type: 'text', text: expectString(p.text, PART, `${path}.text`) };
  const cc = readCacheControl(p, path);
  if (cc) part.cacheControl = cc;
  return part;
}

function imagePart(p: Json, path: string): ImagePart {
  // The official shape is {image_url:{url,detail}}; a bare string is common enough to accept.
  const raw = p.image_url;
  const obj = typeof raw === 'string' ? { url: raw } : expectRecord(raw, 'invalid_image', `${path}.image_url`);
  const urlPath = `${path}.image_url.url`;
  const url = expectNonEmptyString(obj.url, 'invalid_image', urlPath);
  let source: MediaSource;
  if (isDataUrl(url)) {
    const parsed = parseDataUrl(url);
    if (!parsed) throw badRequest('invalid_image', `${urlPath} is not a valid base64 data URL (expected data:<media type>;base64,<data>).`, urlPath);
    source = { kind: 'base64', mediaType: parsed.mediaType || imageMediaType(parsed.data), data: parsed.data };
  } else if (isHttpUrl(url)) {
    source = { kind: 'url', url };
  } else {
    throw badRequest('invalid_image', `${urlPath} must be an http(s) URL or a base64 data URL.`, urlPath);
  }
  const part: ImagePart = { type: 'image', source };
  const detail = optString(obj.detail, 'invalid_image', `${path}.image_url.detail`);
  if (detail) part.detail = detail;
  const cc = readCacheControl(p, path);
  if (cc) part.cacheControl = cc;
  return part;
}

function audioPart(p: Json, path: string): ContentPart {
  const audio = expectRecord(p.input_audio, PART, `${path}.input_audio`);
  return {
    type: 'audio',
    data: expectNonEmptyString(audio.data, PART, `${path}.input_audio.data`),
    format: expectNonEmptyString(audio.format, PART, `${path}.input_audio.format`),
  };
}

function filePart(p: Json, path: string): FilePart {
  const file = expectRecord(p.file, PART, `${path}.file`);
  const filename = optString(file.filename, PART, `${path}.file.filename`);
  const fileId = optString(file.file_id, PART, `${path}.file.file_id`);
  const fileData = optString(file.file_data, PART, `${path}.file.file_data`);
  let source: MediaSource;
  if (fileData) {
    const dataPath = `${path}.file.file_data`;
    if (isDataUrl(fileData)) {
      const parsed = parseDataUrl(fileData);
      if (!parsed) throw badRequest(PART, `${dataPath} is not a valid base64 data URL.`, dataPath);
      source = { kind: 'base64', mediaType: parsed.mediaType || fileMediaType(filename, parsed.data), data: parsed.data };
    } else if (isHttpUrl(fileData)) {
      source = { kind: 'url', url: fileData };
    } else {
      // Bare base64 (what the type describes): the file name or the bytes say what it is.
      const data = fileData.trim();
      if (!isBase64(data)) throw badRequest(PART, `${dataPath} must be base64 data, a base64 data URL or an http(s) URL.`, dataPath);
      source = { kind: 'base64', mediaType: fileMediaType(filename, data), data };
    }
  } else if (fileId) {
    source = { kind: 'file_id', fileId };
  } else {
    throw badRequest(PART, `${path}.file needs file_data or file_id.`, `${path}.file`);
  }
  const part: FilePart = { type: 'file', source };
  if (filename) part.filename = filename;
  const cc = readCacheControl(p, path);
  if (cc) part.cacheControl = cc;
  return part;
}

export type PartKind = 'text' | 'image_url' | 'input_audio' | 'file' | 'refusal';

/** One content part of a type in `allowed`. */
export function decodePart(raw: unknown, path: string, allowed: ReadonlyArray<PartKind>): ContentPart {
  const p = expectRecord(raw, PART, path);
  const type = p.type;
  if (typeof type !== 'string' || !(allowed as ReadonlyArray<string>).includes(type)) {
    const shown = typeof type === 'string' ? `"${type.slice(0, 40)}"` : jsonType(type);
    throw badRequest(PART, `${path}.type ${shown} is not allowed here (allowed: ${allowed.join(', ')}).`, `${path}.type`);
  }
  switch (type as PartKind) {
    case 'text':
      return textPart(p, path);
    case 'image_url':
      return imagePart(p, path);
    case 'input_audio':
      return audioPart(p, path);
    case 'file':
      return filePart(p, path);
    case 'refusal':
      return { type: 'refusal', text: expectString(p.refusal, PART, `${path}.refusal`) };
  }
}

/** `content` as a string or a list of parts of the allowed kinds. */
export function decodeContent(raw: unknown, path: string, allowed: ReadonlyArray<PartKind>): ContentPart[] {
  if (typeof raw === 'string') return [{ type: 'text', text: raw }];
  return expectArray(raw, 'invalid_messages', path).map((p, i) => decodePart(p, `${path}[${i}]`, allowed));
}

/** Content that may only hold text (system, developer): the text parts with their cache hints. */
export function decodeTextContent(raw: unknown, path: string): TextPart[] {
  return decodeContent(raw, path, ['text']) as TextPart[];
}
