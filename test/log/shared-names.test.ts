/**
 * The request log shares each model name among its records (shared-names.ts), in a table that
 * outlives them; a key a client pasted into a model id is masked out of its record (mask-fields.ts)
 * and must not stay in that table either. Measured from a heap snapshot in a child process.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { shareNames } from '../../src/log/shared-names.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

describe('shared model names', () => {
  it('leaves each name as it was, asked, answered and tried', () => {
    const e = { modelAsked: 'g/x', model: 'm', attempts: [{ target: 'a/m', status: 200, latencyMs: 1 }] } as RequestLogEntry;
    shareNames(e);
    expect(e).toMatchObject({ modelAsked: 'g/x', model: 'm', attempts: [{ target: 'a/m' }] });
  });

  it('cuts a name past 200 characters (a body may name a model of megabytes; the ring keeps 2,000 records)', () => {
    const long = `openai/${'x'.repeat(1_000_000)}`;
    const e = { modelAsked: long, model: long.slice(7), attempts: [{ target: long, status: 404, latencyMs: 1 }] } as RequestLogEntry;
    shareNames(e);
    for (const name of [e.modelAsked, e.model, e.attempts[0]!.target]) {
      expect(name).toHaveLength(200);
      expect(name!.endsWith('…')).toBe(true);
    }
    expect(e.modelAsked!.startsWith('openai/xxx')).toBe(true);
  });

  it('keeps no key pasted into a model id once its record is masked and gone', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/log/fixtures/key-in-model-heap.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    const out = JSON.parse(child.stdout) as { kept: boolean; logged: string[] };
    expect(out.logged).toEqual(['openai/[redacted]']);
    expect(out.kept).toBe(false);
  });
});
