/**
 * Small readers for untrusted JSON. Client input is checked field by field so that a wrong type
 * becomes a clean 400 naming the exact parameter (`input[2].content[0].image_url`), never a crash.
 */
import { badRequest } from '../errors.js';

export type JsonObject = Record<string, unknown>;

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field that may be absent or null. */
export function optString(obj: JsonObject, key: string, param: string, code = 'invalid_request'): string | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string') throw badRequest(code, `${param} must be a string.`, param);
  return value;
}

export function reqString(obj: JsonObject, key: string, param: string, code = 'invalid_request'): string {
  const value = obj[key];
  if (typeof value !== 'string') {
    throw badRequest(code, value === undefined || value === null ? `${param} is required.` : `${param} must be a string.`, param);
  }
  return value;
}

export function optBoolean(obj: JsonObject, key: string, param: string): boolean | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'boolean') throw badRequest('invalid_request', `${param} must be a boolean.`, param);
  return value;
}

/** A finite number within [min, max], absent or null allowed. */
export function optNumber(obj: JsonObject, key: string, param: string, min: number, max: number): number | undefined {
  const value = obj[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) {
    throw badRequest('invalid_request', `${param} must be a number between ${min} and ${max}.`, param);
  }
  return value;
}

/** Lenient read of an upstream field: the string or undefined. */
export function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** Lenient read of an upstream count: a non-negative finite number or undefined. */
export function count(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : undefined;
}

/** The `namespace` an upstream function call names, as a field to spread (lenient read). */
export function namespaceField(value: unknown): { namespace?: string } {
  return typeof value === 'string' && value !== '' ? { namespace: value } : {};
}
