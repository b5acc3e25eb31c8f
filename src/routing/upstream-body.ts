/** The limits of reading a whole upstream body (non-streamed answers, error bodies), and its failures. */
import { AnswerTooLarge } from '../providers/read-all.js';
import type { AnswerLimits } from '../providers/upstream-answer.js';
import { undecodableCoding } from '../providers/upstream-error.js';
import { invalidResponse, transportFailure, type UpstreamFailure } from './upstream-errors.js';

/** Larger non-streamed answers are refused (a runaway upstream must not exhaust memory). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Error bodies are read up to this much; the rest is dropped. */
export const MAX_ERROR_BYTES = 1024 * 1024;

/** How much of a whole answer is read: a 2xx up to MAX_ANSWER_BYTES, an error's body cut at MAX_ERROR_BYTES. */
export const WHOLE_LIMITS: AnswerLimits = { answerBytes: MAX_ANSWER_BYTES, errorBytes: MAX_ERROR_BYTES };

/** Our code for an error while reading an upstream body (streamed or whole). */
export function bodyErrorCode(err: unknown): string {
  if (undecodableCoding(err) !== undefined) return 'upstream_invalid_response';
  const code = (err as { code?: unknown } | null)?.code;
  return code === 'UND_ERR_BODY_TIMEOUT' || code === 'upstream_timeout' ? 'upstream_timeout' : 'upstream_reset';
}

/** What went wrong with a compressed answer's data, when that is what `err` says. */
export function undecodableMessage(err: unknown): string | undefined {
  const coding = undecodableCoding(err);
  if (coding === undefined) return undefined;
  const reason = (err as { message?: unknown }).message;
  return `the upstream's ${coding}-compressed answer could not be decoded${typeof reason === 'string' ? ` (${reason.slice(0, 120)})` : ''}`;
}

/** Why reading a whole answer failed, as the failure the client gets. */
export function answerReadFailure(slug: string, err: unknown, credential: string | undefined): UpstreamFailure {
  if (err instanceof AnswerTooLarge) return invalidResponse(slug, err.message);
  const undecodable = undecodableMessage(err);
  if (undecodable !== undefined) return invalidResponse(slug, undecodable);
  const code = bodyErrorCode(err);
  return transportFailure(slug, code, code === 'upstream_timeout' ? 'the upstream went silent mid-answer' : 'the upstream connection broke mid-answer', credential);
}
