/**
 * The final error event of a stream, in the client's dialect, for a failure after the first byte
 * (HTTP status already 200): Chat `data: {"error":…}` (openai-node throws on it), Messages
 * `event: error`, Responses `event: error` with the next sequence number — and, when the stream
 * announced its response (`response`, from its response.created), `response.failed` after it, as
 * OpenAI ends a failed stream and as the converted Responses encoder does: the SDK's accumulator
 * takes that response as the final one (status "failed", its `error` set). The failed response is
 * the announced one with status, error and usage changed; its output stays as announced (empty):
 * a passthrough stream does not rebuild the output its deltas carried.
 */
import { anthropicErrorBody, openaiErrorType, responseFailedCode } from '../protocols/errors.js';
import type { Dialect, HubError } from '../protocols/hub.js';
import { sseData, sseNamed } from '../protocols/sse.js';

export function finalErrorEvent(dialect: Dialect, err: HubError, sequenceNumber = 0, response?: Record<string, unknown>): string {
  if (dialect === 'chat') {
    return sseData({ error: { message: err.message, type: openaiErrorType(err.status), code: err.code, param: err.param ?? null } });
  }
  if (dialect === 'messages') {
    // anthropicErrorBody words a prompt over the context as Anthropic does, which Claude Code compacts on
    return sseNamed('error', anthropicErrorBody(err));
  }
  const error = sseNamed('error', { type: 'error', code: err.code, message: err.message, param: err.param ?? null, sequence_number: sequenceNumber });
  if (response === undefined) return error;
  const failed = { ...response, status: 'failed', error: { code: responseFailedCode(err), message: err.message }, incomplete_details: null, usage: null };
  return error + sseNamed('response.failed', { type: 'response.failed', sequence_number: sequenceNumber + 1, response: failed });
}

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache',
  'x-accel-buffering': 'no',
} as const;
