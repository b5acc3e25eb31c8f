/**
 * Error objects a Chat upstream puts in a body or a stream chunk: OpenAI `{message,type,code}`
 * (string code), OpenRouter `{code:<HTTP status>, message, metadata}`, Google `{code, message, status}`.
 */
import type { HubError } from '../hub.js';
import { isRecord, num, str } from './guards.js';

export function upstreamError(err: unknown, fallbackMessage: string): HubError {
  if (!isRecord(err)) return { status: 502, code: 'upstream_error', message: typeof err === 'string' && err ? err : fallbackMessage };
  const numeric = num(err.code) ?? num(err.status);
  const status = numeric !== undefined && Number.isInteger(numeric) && numeric >= 400 && numeric <= 599 ? numeric : 502;
  return { status, code: 'upstream_error', message: str(err.message) || fallbackMessage };
}
