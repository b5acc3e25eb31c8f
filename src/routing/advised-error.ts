/**
 * A refusal that carries the upstream's retry advice (Retry-After, retry-after-ms,
 * x-should-retry) to the client: thrown like any ProtocolError, answered with those headers.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { ProtocolError } from '../protocols/errors.js';

export class AdvisedError extends ProtocolError {
  constructor(
    status: number,
    code: string,
    message: string,
    readonly advice: OutgoingHttpHeaders,
    param?: string,
  ) {
    super(status, code, message, param);
  }
}
