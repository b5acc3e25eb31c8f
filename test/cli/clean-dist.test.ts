/**
 * `npm run build` starts from an empty dist/ (scripts/clean-dist.cjs, its prebuild): tsc never
 * removes the output of a file deleted or moved in src/, which would stay and ship in the package.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ROOT } from '../daemon/harness.js';

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

describe('build', () => {
  it('runs clean-dist first, which empties dist/ of a stale file and leaves the rest of the tree', () => {
    const scripts = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
    expect(scripts.prebuild).toBe('node scripts/clean-dist.cjs');
    dir = mkdtempSync(join(tmpdir(), 'svc-clean-dist-'));
    mkdirSync(join(dir, 'dist', 'util'), { recursive: true });
    writeFileSync(join(dir, 'dist', 'util', 'gone.js'), 'export {};\n');
    writeFileSync(join(dir, 'kept.txt'), 'x');
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'clean-dist.cjs')], { cwd: dir });
    expect(existsSync(join(dir, 'dist'))).toBe(false);
    expect(existsSync(join(dir, 'kept.txt'))).toBe(true);
    // no dist/ at all (a fresh clone) is no error
    execFileSync(process.execPath, [join(ROOT, 'scripts', 'clean-dist.cjs')], { cwd: dir });
  });
});
