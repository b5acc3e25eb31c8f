/**
 * Small readers for untrusted JSON. Every failure is a ProtocolError naming the offending path,
 * so a malformed body becomes a clean 400 instead of a TypeError deep inside a codec.
 */
import { badRequest } from '../errors.js';

export type JsonObject = Record<string, unknown>;

export function isObject(v: unknown): v is JsonObject {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function expectObject(v: unknown, path: string, code = 'invalid_request'): JsonObject {
  if (!isObject(v)) throw badRequest(code, `${path} must be an object.`, path);
  return v;
}

export function expectArray(v: unknown, path: string, code = 'invalid_request'): unknown[] {
  if (!Array.isArray(v)) throw badRequest(code, `${path} must be an array.`, path);
  return v;
}

export function expectString(v: unknown, path: string, code = 'invalid_request'): string {
  if (typeof v !== 'string') throw badRequest(code, `${path} must be a string.`, path);
  return v;
}

/** Absent and null read as undefined (SDKs send null for "not set"). */
export function optString(v: unknown, path: string, code = 'invalid_request'): string | undefined {
  return v === undefined || v === null ? undefined : expectString(v, path, code);
}

export function optBoolean(v: unknown, path: string, code = 'invalid_request'): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badRequest(code, `${path} must be a boolean.`, path);
  return v;
}

export function optNumber(v: unknown, path: string, code = 'invalid_request'): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v)) throw badRequest(code, `${path} must be a number.`, path);
  return v;
}

/** A finite number from an upstream body, or undefined (upstream numbers are trusted loosely). */
export function numberOr(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** The value if it is a string, else undefined (for upstream bodies, which we read leniently). */
export function stringOr(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}
