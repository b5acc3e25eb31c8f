import { mkdtemp, rm, writeFile, mkdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CURRENT_LOG, listLogFiles, rotatedAt, rotatedName } from '../../src/log/paths.js';
import { queryLog, statsLog } from '../../src/log/query.js';
import { readLinesReverse } from '../../src/log/read-files.js';
import { makeEntry } from './make-entry.js';

let dir: string;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-logread-'));
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('readLinesReverse', () => {
  it('yields lines last-first across chunk boundaries, multi-byte characters intact', async () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${i} ${'é'.repeat(i % 50)} ✓ ${'x'.repeat(i % 97)}`);
    const p = join(dir, 'f');
    await writeFile(p, lines.join('\n') + '\n');
    const got: string[] = [];
    await readLinesReverse(p, (l) => (got.push(l), true));
    expect(got).toEqual([...lines].reverse());
    // a very long line (bigger than one read chunk) and no final newline
    const long = 'y'.repeat(200_000);
    await writeFile(p, `a\n${long}\nb`);
    const got2: string[] = [];
    await readLinesReverse(p, (l) => (got2.push(l), true));
    expect(got2).toEqual(['b', long, 'a']);
  });

  it('stops when asked and treats a missing file as empty', async () => {
    const p = join(dir, 'f');
    await writeFile(p, 'a\nb\nc\n');
    const got: string[] = [];
    expect(await readLinesReverse(p, (l) => (got.push(l), got.length < 2))).toBe(false);
    expect(got).toEqual(['c', 'b']);
    expect(await readLinesReverse(join(dir, 'missing'), () => true)).toBe(true);
  });
});

describe('files without a daemon', () => {
  it('lists current then rotated files newest first, and reads entries across them with filters', async () => {
    const t0 = Date.parse('2025-05-01T00:00:00Z');
    const older = [makeEntry({ time: new Date(t0).toISOString() }), makeEntry({ time: new Date(t0 + 1000).toISOString(), status: 500 })];
    const newer = [makeEntry({ time: new Date(t0 + 5000).toISOString(), status: 429 }), makeEntry({ time: new Date(t0 + 6000).toISOString() })];
    const current = [makeEntry({ time: new Date(t0 + 9000).toISOString() })];
    const jsonl = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
    await writeFile(join(dir, rotatedName(new Date(t0 + 2000))), jsonl(older));
    await writeFile(join(dir, rotatedName(new Date(t0 + 7000))), jsonl(newer) + '{"torn li');
    await writeFile(join(dir, CURRENT_LOG), jsonl(current));
    await mkdir(join(dir, 'sub'));

    const files = await listLogFiles(dir);
    expect(files.map((f) => f.name)).toEqual([CURRENT_LOG, rotatedName(new Date(t0 + 7000)), rotatedName(new Date(t0 + 2000))]);
    expect(rotatedAt(files[1]!.name)).toBe(t0 + 7000);

    const all = await queryLog({ dir }, {});
    expect(all.map((e) => e.id)).toEqual([...current, ...newer.slice().reverse(), ...older.slice().reverse()].map((e) => e.id));
    expect((await queryLog({ dir }, { status: 'error' })).map((e) => e.status)).toEqual([429, 500]);
    expect((await queryLog({ dir }, { limit: 2 })).map((e) => e.id)).toEqual([current[0]!.id, newer[1]!.id]);
    expect((await queryLog({ dir }, { since: t0 + 4000 })).length).toBe(3);

    const s = await statsLog({ dir }, { since: t0 + 4000 }, 'provider', t0 + 10_000);
    expect(s.total.requests).toBe(3);
    expect(s.since).toBe(new Date(t0 + 4000).toISOString());
    expect(await queryLog({ dir: join(dir, 'nope') }, {})).toEqual([]);
  });

  it('with `since`, stops reading at the first entry that finished before it (a minute of margin), not at the file start', async () => {
    const now = Date.parse('2025-05-01T12:00:00Z');
    const at = (msAgo: number, over: Parameters<typeof makeEntry>[0] = {}) => makeEntry({ time: new Date(now - msAgo).toISOString(), latencyMs: 1_000, ...over });
    // two hours of old entries, then a long stream that arrived 2 h ago and finished 50 min ago, then recent ones
    const old = Array.from({ length: 2_000 }, (_, i) => at(7_200_000 - i * 1_000));
    const longStream = at(7_200_000, { latencyMs: 7_200_000 - 3_000_000 });
    const justBefore = at(3_630_000); // finished 3,629 s ago: inside the margin, so the scan goes on past it
    const recent = Array.from({ length: 10 }, (_, i) => at(600_000 - i * 1_000));
    const jsonl = (xs: unknown[]) => xs.map((x) => JSON.stringify(x)).join('\n') + '\n';
    await writeFile(join(dir, CURRENT_LOG), jsonl([...old, longStream, justBefore, ...recent]));

    const parse = vi.spyOn(JSON, 'parse');
    const s = await statsLog({ dir }, { since: now - 3_600_000 }, 'provider', now);
    const parsed = parse.mock.calls.length;
    parse.mockRestore();
    expect(s.total.requests).toBe(10);
    // the recent ten, the two before them, and the first old entry that proves the rest older
    expect(parsed).toBeLessThan(20);
    // without `since` every line is read
    expect((await queryLog({ dir }, { limit: 10_000 })).length).toBe(2_012);
  });
});
