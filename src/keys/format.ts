/**
 * Service keys: `sk-svc-proxy-` + 43 base62 characters (256 bits of randomness). Only the SHA-256
 * hash and a short display prefix are ever stored.
 */
import { createHash, randomBytes } from 'node:crypto';
import { SERVICE_KEY_PREFIX } from '../util/key-shapes.js';

export const KEY_PREFIX = SERVICE_KEY_PREFIX;
const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
/** 62^43 > 2^256. */
const RANDOM_CHARS = 43;
/** Visible characters after the fixed prefix in listings. */
const DISPLAY_CHARS = 4;

/** Uniform base62 string: bytes >= 248 are rejected so every character is equally likely. */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte >= 248) continue;
      out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

export function generateServiceKey(): string {
  return KEY_PREFIX + randomBase62(RANDOM_CHARS);
}

/** Hex SHA-256 of the full key, as stored in config.json. */
export function hashServiceKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex');
}

export function displayPrefix(key: string): string {
  return key.slice(0, KEY_PREFIX.length + DISPLAY_CHARS);
}

export function newKeyId(): string {
  return `key_${randomBase62(10)}`;
}
