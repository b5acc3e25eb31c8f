/**
 * Responses content parts (client side) → hub content parts, with the checks that turn a bad part
 * into a 400 naming it. User content may hold text, images, files (and audio, which routing
 * delivers or rejects per target); assistant content only text and refusals; system and developer
 * content only text.
 */
import type { CacheControl, ContentPart, FilePart, ImagePart, MediaSource, TextPart } from '../hub.js';
import { badRequest } from '../errors.js';
import { fileMediaType, imageMediaType, isBase64, isDataUrl, isHttpUrl, parseDataUrl } from '../media.js';
import { isObject, optString, reqString, type JsonObject } from './json.js';

export type ContentRole = 'user' | 'assistant' | 'system' | 'developer' | 'tool_output';

const ALLOWED: Record<ContentRole, readonly string[]> = {
  user: ['input_text', 'input_image', 'input_file', 'input_audio'],
  tool_output: ['input_text', 'input_image', 'input_file'],
  assistant: ['output_text', 'refusal', 'input_text'],
  system: ['input_text'],
  developer: ['input_text'],
};

/** Content as a string or a list of parts; `param` locates it for error messages. */
export function decodeContent(content: unknown, role: ContentRole, param: string): ContentPart[] {
  if (typeof content === 'string') return [{ type: 'text', text: content }];
  if (!Array.isArray(content)) throw badRequest('invalid_content_part', `${param} must be a string or an array of content parts.`, param);
  return content.map((part, i) => decodePart(part, role, `${param}[${i}]`));
}

function decodePart(part: unknown, role: ContentRole, param: string): ContentPart {
  if (!isObject(part)) throw badRequest('invalid_content_part', `${param} must be an object.`, param);
  const type = part.type;
  const allowed = ALLOWED[role];
  // output_text from a user or system message is harmless text: accept it the way input_text is.
  const effective = type === 'output_text' && !allowed.includes('output_text') && allowed.includes('input_text') ? 'input_text' : type;
  if (typeof effective !== 'string' || !allowed.includes(effective)) {
    const who = role === 'tool_output' ? 'function_call_output output' : `${role} message content`;
    throw badRequest(
      'invalid_content_part',
      `${param}.type ${JSON.stringify(type)} is not allowed in ${who}; expected one of ${allowed.join(', ')}.`,
      `${param}.type`,
    );
  }
  switch (effective) {
    case 'input_text':
    case 'output_text':
      return withCache<TextPart>({ type: 'text', text: reqString(part, 'text', `${param}.text`, 'invalid_content_part') }, part);
    case 'refusal':
      return { type: 'refusal', text: reqString(part, 'refusal', `${param}.refusal`, 'invalid_content_part') };
    case 'input_image':
      return decodeImage(part, param);
    case 'input_file':
      return decodeFile(part, param);
    default:
      return decodeAudio(part, param);
  }
}

function decodeImage(part: JsonObject, param: string): ImagePart {
  const url = optString(part, 'image_url', `${param}.image_url`, 'invalid_image');
  const fileId = optString(part, 'file_id', `${param}.file_id`, 'invalid_image');
  let source: MediaSource;
  if (url !== undefined) {
    source = imageUrlSource(url, `${param}.image_url`);
  } else if (fileId) {
    source = { kind: 'file_id', fileId };
  } else {
    throw badRequest('invalid_image', `${param} needs image_url (an http(s) or data URL) or file_id.`, param);
  }
  const image: ImagePart = { type: 'image', source };
  const detail = optString(part, 'detail', `${param}.detail`, 'invalid_image');
  if (detail !== undefined) image.detail = detail;
  return withCache(image, part);
}

function imageUrlSource(url: string, param: string): MediaSource {
  if (isDataUrl(url)) {
    const parsed = parseDataUrl(url);
    if (!parsed) throw badRequest('invalid_image', `${param} is not a valid base64 data URL (data:<media type>;base64,<data>).`, param);
    return { kind: 'base64', mediaType: parsed.mediaType || imageMediaType(parsed.data), data: parsed.data };
  }
  if (isHttpUrl(url)) return { kind: 'url', url };
  throw badRequest('invalid_image', `${param} must be an http(s) URL or a base64 data URL.`, param);
}

function decodeFile(part: JsonObject, param: string): FilePart {
  const data = optString(part, 'file_data', `${param}.file_data`, 'invalid_content_part');
  const url = optString(part, 'file_url', `${param}.file_url`, 'invalid_content_part');
  const fileId = optString(part, 'file_id', `${param}.file_id`, 'invalid_content_part');
  const filename = optString(part, 'filename', `${param}.filename`, 'invalid_content_part');
  let source: MediaSource;
  if (data) {
    if (isDataUrl(data)) {
      const parsed = parseDataUrl(data);
      if (!parsed) throw badRequest('invalid_content_part', `${param}.file_data is not a valid base64 data URL.`, `${param}.file_data`);
      source = { kind: 'base64', mediaType: parsed.mediaType || fileMediaType(filename, parsed.data), data: parsed.data };
    } else {
      // Some clients send bare base64 with a filename: the name (or the bytes) say what it is.
      const bare = data.trim();
      if (!isBase64(bare)) throw badRequest('invalid_content_part', `${param}.file_data must be base64 data or a base64 data URL.`, `${param}.file_data`);
      source = { kind: 'base64', mediaType: fileMediaType(filename, bare), data: bare };
    }
  } else if (url) {
    if (!isHttpUrl(url)) throw badRequest('invalid_content_part', `${param}.file_url must be an http(s) URL.`, `${param}.file_url`);
    source = { kind: 'url', url };
  } else if (fileId) {
    source = { kind: 'file_id', fileId };
  } else {
    throw badRequest('invalid_content_part', `${param} needs file_data, file_url or file_id.`, param);
  }
  const file: FilePart = { type: 'file', source };
  if (filename) file.filename = filename;
  return withCache(file, part);
}

function decodeAudio(part: JsonObject, param: string): ContentPart {
  const audio = part.input_audio;
  if (!isObject(audio)) throw badRequest('invalid_content_part', `${param}.input_audio must be an object with data and format.`, `${param}.input_audio`);
  return {
    type: 'audio',
    data: reqString(audio, 'data', `${param}.input_audio.data`, 'invalid_content_part'),
    format: reqString(audio, 'format', `${param}.input_audio.format`, 'invalid_content_part'),
  };
}

/** OpenAI's explicit prompt-cache breakpoint is the same idea as Anthropic's cache_control. */
function withCache<T extends { cacheControl?: CacheControl }>(target: T, part: JsonObject): T {
  const breakpoint = part.prompt_cache_breakpoint;
  if (isObject(breakpoint) && breakpoint.mode === 'explicit') target.cacheControl = { type: 'ephemeral' };
  return target;
}
