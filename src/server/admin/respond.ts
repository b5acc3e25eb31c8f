/** Shared helpers for admin handlers: JSON bodies in, `{error:{code,message}}` out. */
import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { ConfigFileError, OperationError } from '../../config/errors.js';
import { DanglingLinkError } from '../../config/link-target.js';
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
  if (err instanceof ConfigFileError || err instanceof DanglingLinkError) return c.json<AdminErrorBody>({ error: { code: err.code, message: err.message } }, 409);
  if (err instanceof LockTimeoutError) return c.json<AdminErrorBody>({ error: { code: 'config_locked', message: err.message } }, 503);
  const disk = diskProblem(err);
  if (disk) return c.json<AdminErrorBody>({ error: { code: 'state_dir_unwritable', message: disk } }, 507);
  report(err);
  return c.json<AdminErrorBody>({ error: { code: 'internal_error', message: 'Internal error; details are in the daemon log.' } }, 500);
}

const DISK_ERRORS: Readonly<Record<string, string>> = {
  ENOSPC: 'no space left on the device',
  EDQUOT: 'the disk quota is exhausted',
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

/**
 * A change that could not be written because the state directory is full or read-only: say so
 * plainly (the daemon keeps serving with what it has in memory; nothing was changed).
 */
function diskProblem(err: unknown): string | undefined {
  const e = err as { code?: unknown; path?: unknown } | null;
  const why = typeof e?.code === 'string' && Object.hasOwn(DISK_ERRORS, e.code) ? DISK_ERRORS[e.code] : undefined;
  if (!why) return undefined;
  const where = typeof e?.path === 'string' ? ` (${e.path})` : '';
  return `Cannot write to the state directory${where}: ${why} (${e!.code as string}). Nothing was changed; svc-proxy keeps serving with its current configuration. Free space or fix the permissions, then retry.`;
}
