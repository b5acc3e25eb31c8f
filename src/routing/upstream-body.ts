/** Reading a whole upstream body (non-streamed answers, error bodies) with a size bound. */
import type { Readable } from 'node:stream';
import { undecodableCoding } from '../providers/upstream-error.js';
import { invalidResponse, transportFailure, type UpstreamFailure } from './upstream-errors.js';

/** Larger non-streamed answers are refused (a runaway upstream must not exhaust memory). */
export const MAX_ANSWER_BYTES = 64 * 1024 * 1024;
/** Error bodies are read up to this much; the rest is dropped. */
export const MAX_ERROR_BYTES = 1024 * 1024;

export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the upstream answer is larger than ${limit} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

/**
 * Read a body to the end. Past `limit`: with `truncate` keep the first `limit` bytes, else
 * reject with AnswerTooLarge. Either way reading stops and the body is destroyed.
 */
export function readAll(body: Readable, limit: number, truncate = false): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      if (size + chunk.length > limit) {
        body.removeListener('data', onData);
        body.removeListener('end', onEnd);
        body.destroy();
        if (truncate) {
          chunks.push(chunk.subarray(0, limit - size));
          resolve(Buffer.concat(chunks));
        } else reject(new AnswerTooLarge(limit));
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', reject);
  });
}

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
