/** Shared helpers for admin handlers: JSON bodies in, `{error:{code,message}}` out. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ConfigFileError, OperationError } from '../../config/errors.js';
import { LockTimeoutError } from '../../config/file-lock.js';

export interface AdminErrorBody {
  error: { code: string; message: string };
}

/** Parse a JSON object body; anything else is a 400 OperationError. */
export async function jsonBody(c: Context): Promise<Record<string, unknown>> {
  let body: unknown;
  try {
    body = await c.req.json();
  } catch {
    throw new OperationError(400, 'invalid_json', 'The request body must be JSON.');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) throw new OperationError(400, 'invalid_json', 'The request body must be a JSON object.');
  return body as Record<string, unknown>;
}

/** Map an error to the admin API's error response; unknown errors are reported and become 500. */
export function errorResponse(c: Context, err: unknown, report: (err: unknown) => void): Response {
  if (err instanceof OperationError) return c.json<AdminErrorBody>({ error: { code: err.code, message: err.message } }, err.status as ContentfulStatusCode);
  if (err instanceof ConfigFileError) return c.json<AdminErrorBody>({ error: { code: err.code, message: err.message } }, 409);
  if (err instanceof LockTimeoutError) return c.json<AdminErrorBody>({ error: { code: 'config_locked', message: err.message } }, 503);
  report(err);
  return c.json<AdminErrorBody>({ error: { code: 'internal_error', message: 'Internal error; details are in the daemon log.' } }, 500);
}
