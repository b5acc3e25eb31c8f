/**
 * The wait Google states in an error: its `details[]` may hold a `google.rpc.RetryInfo` whose
 * `retryDelay` is a protobuf Duration in its JSON form, seconds with an `s` (`"37s"`,
 * `"1.500s"`). Gemini sends it with a 429 in the body only, as no `Retry-After` header, on its
 * native and its OpenAI-compatible endpoint alike. Pure: an error object in, milliseconds out.
 */
import { isRecord } from './chat/guards.js';

const RETRY_INFO = 'type.googleapis.com/google.rpc.RetryInfo';
const DURATION = /^(\d+(?:\.\d+)?)s$/;

/** The wait a Google error object (`error` of its body) states, in whole milliseconds; undefined when it states none, or none ahead. */
export function googleRetryDelayMs(err: Readonly<Record<string, unknown>>): number | undefined {
  if (!Array.isArray(err.details)) return undefined;
  for (const detail of err.details) {
    if (!isRecord(detail) || detail['@type'] !== RETRY_INFO || typeof detail.retryDelay !== 'string') continue;
    const m = DURATION.exec(detail.retryDelay.trim());
    const ms = m ? Math.ceil(Number(m[1]) * 1000) : 0;
    return ms > 0 ? ms : undefined;
  }
  return undefined;
}
