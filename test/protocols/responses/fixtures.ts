/** Loads the golden fixtures of this folder. */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export function fixtureNames(dir: string, ext = '.json'): string[] {
  return readdirSync(join(root, dir))
    .filter((f) => f.endsWith(ext) && !f.endsWith('.events.json'))
    .map((f) => f.slice(0, -ext.length))
    .sort();
}

export function readFixture(dir: string, file: string): string {
  return readFileSync(join(root, dir, file), 'utf8');
}

export function jsonFixture<T = Record<string, unknown>>(dir: string, file: string): T {
  return JSON.parse(readFixture(dir, file)) as T;
}
