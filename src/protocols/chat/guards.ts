/**
 * Small readers for untrusted JSON. Every failure becomes a 400 ProtocolError with a stable code
 * and the JSON path of the offending field, so no client input can make a codec throw anything else.
 */
import { badRequest } from '../errors.js';

export type Json = Record<string, unknown>;

export function isRecord(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A short, safe description of a value's JSON type for error messages (never the value itself). */
export function jsonType(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'array';
  return typeof v;
}

export function expectRecord(v: unknown, code: string, param: string): Json {
  if (!isRecord(v)) throw badRequest(code, `${param} must be an object, got ${jsonType(v)}.`, param);
  return v;
}

export function expectString(v: unknown, code: string, param: string): string {
  if (typeof v !== 'string') throw badRequest(code, `${param} must be a string, got ${jsonType(v)}.`, param);
  return v;
}

export function expectNonEmptyString(v: unknown, code: string, param: string): string {
  const s = expectString(v, code, param);
  if (s.length === 0) throw badRequest(code, `${param} must not be empty.`, param);
  return s;
}

/** undefined and null both mean "not given" in OpenAI request bodies. */
export function optString(v: unknown, code: string, param: string): string | undefined {
  return v === undefined || v === null ? undefined : expectString(v, code, param);
}

export function optBoolean(v: unknown, code: string, param: string): boolean | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'boolean') throw badRequest(code, `${param} must be a boolean, got ${jsonType(v)}.`, param);
  return v;
}

export function optNumberInRange(v: unknown, min: number, max: number, code: string, param: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isFinite(v) || v < min || v > max) {
    throw badRequest(code, `${param} must be a number between ${min} and ${max}.`, param);
  }
  return v;
}

export function optIntegerInRange(v: unknown, min: number, max: number, code: string, param: string): number | undefined {
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > max) {
    throw badRequest(code, `${param} must be an integer between ${min} and ${max}.`, param);
  }
  return v;
}

export function expectArray(v: unknown, code: string, param: string): unknown[] {
  if (!Array.isArray(v)) throw badRequest(code, `${param} must be an array, got ${jsonType(v)}.`, param);
  return v;
}

/** A string field of an upstream/loose object, or undefined when absent or of another type. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** A finite number field, or undefined. */
export function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/**
 * Sets an own property even for keys like `__proto__` (JSON.parse creates them as plain own keys;
 * plain assignment would instead try to change the prototype and lose the value).
 */
export function setOwn(obj: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(obj, key, { value, enumerable: true, writable: true, configurable: true });
}
