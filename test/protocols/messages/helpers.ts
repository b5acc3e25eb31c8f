/** Messages codec test fixtures, read relative to this folder. */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { namesIn } from '../shared/helpers.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixtureBytes(rel: string): Buffer {
  return readFileSync(join(FIXTURES, rel));
}

export function fixtureJson<T = unknown>(rel: string): T {
  return JSON.parse(readFileSync(join(FIXTURES, rel), 'utf8')) as T;
}

export function fixtureNames(dir: string, ext: string): string[] {
  return namesIn(join(FIXTURES, dir), ext);
}
