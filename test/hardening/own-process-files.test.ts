/**
 * Unit files share worker processes (vitest.config.ts, isolate: false). A file that mocks a module
 * or sets the environment before its imports changes what later files in that process get — or,
 * run after one that imported the module, gets the real one itself and fails only in a full run.
 * Each such file must be on the config's own-process list.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = join(import.meta.dirname, '..', '..');

function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const path = join(dir, e.name);
    if (e.isDirectory()) return e.name === 'fixtures' || e.name === 'node_modules' ? [] : testFiles(path);
    return /\.test\.tsx?$/.test(e.name) ? [path] : [];
  });
}

describe('files that mock modules or set the environment at import run in a process of their own', () => {
  it('every such file is on the own-process list of vitest.config.ts', () => {
    const config = readFileSync(join(ROOT, 'vitest.config.ts'), 'utf8');
    const own = [...config.matchAll(/'(test\/[^']+\.test\.tsx?)'/g)].map((m) => m[1]);
    const needing = testFiles(join(ROOT, 'test'))
      .filter((f) => /\bvi\.(mock|doMock|hoisted)\(/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(ROOT, f).split('\\').join('/'));
    expect(needing.length).toBeGreaterThan(0);
    // e2e files are all on the list through its glob
    expect(needing.filter((f) => !f.startsWith('test/e2e/') && !own.includes(f))).toEqual([]);
  });
});
