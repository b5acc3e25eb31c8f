/**
 * The final error event of a stream, in the client's dialect, for a failure after the first byte
 * (HTTP status already 200): Chat `data: {"error":…}` (openai-node throws on it), Messages
 * `event: error`, Responses `event: error` with the next sequence number.
 */
import { anthropicErrorBody, openaiErrorType } from '../protocols/errors.js';
import type { Dialect, HubError } from '../protocols/hub.js';
import { sseData, sseNamed } from '../protocols/sse.js';

export function finalErrorEvent(dialect: Dialect, err: HubError, sequenceNumber = 0): string {
  if (dialect === 'chat') {
    return sseData({ error: { message: err.message, type: openaiErrorType(err.status), code: err.code, param: err.param ?? null } });
  }
  if (dialect === 'messages') {
    // anthropicErrorBody words a prompt over the context as Anthropic does, which Claude Code compacts on
    return sseNamed('error', anthropicErrorBody(err));
  }
  return sseNamed('error', { type: 'error', code: err.code, message: err.message, param: err.param ?? null, sequence_number: sequenceNumber });
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;
