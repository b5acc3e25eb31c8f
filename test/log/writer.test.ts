import { mkdtemp, readFile, readdir, readlink, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { CURRENT_LOG, rotatedName } from '../../src/log/paths.js';
import { createRequestLog, type LogSettings, type RequestLog } from '../../src/log/writer.js';
import { makeEntry } from './make-entry.js';

const SETTINGS: LogSettings = { logMaxBytes: 10 * 1024 * 1024, logMaxTotalBytes: 500 * 1024 * 1024, logRetentionDays: 14, logBodies: false };

let home: string;
const logs: RequestLog[] = [];
function open(over: Partial<Parameters<typeof createRequestLog>[0]> = {}): RequestLog {
  const log = createRequestLog({ dir: join(home, 'logs'), settings: SETTINGS, ...over });
  logs.push(log);
  return log;
}
async function lines(file = CURRENT_LOG): Promise<RequestLogEntry[]> {
  const text = await readFile(join(home, 'logs', file), 'utf8');
  return text
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as RequestLogEntry);
}

beforeEach(async () => {
  home = await mkdtemp(join(tmpdir(), 'svc-log-'));
});
afterEach(async () => {
  await Promise.all(logs.splice(0).map((l) => l.close()));
  await rm(home, { recursive: true, force: true });
});

describe('request log writer', () => {
  it('record() does no I/O and no serialising: the batch lands later, in one append', async () => {
    const log = open({ flushIntervalMs: 20 });
    const stringify = vi.spyOn(JSON, 'stringify');
    for (let i = 0; i < 100; i++) log.record(makeEntry());
    expect(stringify).not.toHaveBeenCalled();
    stringify.mockRestore();
    await expect(readFile(join(home, 'logs', CURRENT_LOG))).rejects.toThrow(); // nothing written yet
    await log.flush();
    const got = await lines();
    expect(got).toHaveLength(100);
  });

  it('flushes by itself after the batch window', async () => {
    const log = open({ flushIntervalMs: 10 });
    const e = makeEntry();
    log.record(e);
    await vi.waitFor(async () => expect((await lines()).map((x) => x.id)).toEqual([e.id]), { timeout: 2000 });
  });

  it('keeps the latest N entries in the ring, newest first, with filters', () => {
    const log = open({ ringSize: 5 });
    const all = Array.from({ length: 8 }, (_, i) => makeEntry({ status: i % 2 ? 500 : 200 }));
    for (const e of all) log.record(e);
    expect(log.recent().map((e) => e.id)).toEqual(all.slice(3).reverse().map((e) => e.id));
    expect(log.recent({ status: '5xx' }).map((e) => e.id)).toEqual([all[7]!.id, all[5]!.id, all[3]!.id]);
    expect(log.recent({ limit: 2 })).toHaveLength(2);
  });

  it('query() continues into the files past the ring, without duplicates', async () => {
    const log = open({ ringSize: 3 });
    const all = Array.from({ length: 10 }, () => makeEntry());
    for (const e of all) log.record(e);
    await log.flush();
    const extra = makeEntry();
    log.record(extra); // in the ring, not yet on disk
    const got = await log.query({ limit: 100 });
    expect(got.map((e) => e.id)).toEqual([extra.id, ...all.map((e) => e.id).reverse()]);
    expect(new Set(got.map((e) => e.id)).size).toBe(11);
  });

  it('query() reads entries of a previous daemon run from the files', async () => {
    const first = open();
    const old = makeEntry();
    first.record(old);
    await first.close();
    const second = open();
    const fresh = makeEntry();
    second.record(fresh);
    expect((await second.query({})).map((e) => e.id)).toEqual([fresh.id, old.id]);
  });

  it('delivers each entry to subscribers with its JSON text, and ends them on close', async () => {
    const log = open({ flushIntervalMs: 5 });
    const got: [string, string][] = [];
    const ended = vi.fn();
    const unsubscribe = log.subscribe((e, json) => got.push([e.id, json]), ended);
    const broken = log.subscribe(() => {
      throw new Error('socket gone');
    });
    const a = makeEntry();
    log.record(a);
    await log.flush();
    expect(got).toEqual([[a.id, JSON.stringify(a)]]);
    broken();
    unsubscribe();
    log.record(makeEntry());
    await log.flush();
    expect(got).toHaveLength(1);
    log.subscribe(() => {}, ended);
    await log.close();
    expect(ended).toHaveBeenCalledTimes(1);
    expect(log.health().subscribers).toBe(0);
    // after close: records are ignored, new subscribers end at once
    log.record(makeEntry());
    const late = vi.fn();
    log.subscribe(() => {}, late);
    expect(late).toHaveBeenCalledOnce();
  });

  it('rotates at the size limit into requests-<timestamp>.jsonl', async () => {
    let t = Date.parse('2025-03-01T10:00:00.000Z');
    const log = open({ settings: { ...SETTINGS, logMaxBytes: 2000 }, now: () => t });
    const all: RequestLogEntry[] = [];
    for (let i = 0; i < 20; i++) {
      const e = makeEntry();
      all.push(e);
      log.record(e);
      await log.flush(); // one batch per entry so rotation can happen between them
      t += 1000;
    }
    const names = (await readdir(join(home, 'logs'))).sort();
    const rotated = names.filter((n) => n !== CURRENT_LOG);
    expect(rotated.length).toBeGreaterThan(2);
    for (const n of rotated) expect(n).toMatch(/^requests-2025-03-01T10-00-\d\d\.000Z\.jsonl$/);
    let total = 0;
    for (const n of names) {
      const size = (await readFile(join(home, 'logs', n))).length;
      expect(size).toBeLessThanOrEqual(2000);
      total += (await lines(n)).length;
    }
    expect(total).toBe(20);
    // every entry is still readable, newest first, across files
    expect((await log.query({ limit: 1000 })).map((e) => e.id)).toEqual(all.map((e) => e.id).reverse());
  });

  it('two rotations in the same millisecond do not overwrite each other', async () => {
    const t = Date.parse('2025-03-01T10:00:00.000Z');
    const log = open({ settings: { ...SETTINGS, logMaxBytes: 100 }, now: () => t });
    for (let i = 0; i < 4; i++) {
      log.record(makeEntry());
      await log.flush();
    }
    const names = await readdir(join(home, 'logs'));
    expect(names).toHaveLength(4);
    expect(names).toContain(rotatedName(new Date(t), 1));
  });

  it('prunes rotated files past retention at start and on rotation, never the current file', async () => {
    const dir = join(home, 'logs');
    const now = Date.parse('2025-03-20T00:00:00.000Z');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
    const old = rotatedName(new Date(now - 15 * 86_400_000));
    const recent = rotatedName(new Date(now - 13 * 86_400_000));
    await writeFile(join(dir, old), '');
    await writeFile(join(dir, recent), '');
    await writeFile(join(dir, 'notes.txt'), 'not ours');
    let t = now;
    const log = open({ settings: { ...SETTINGS, logMaxBytes: 300, logRetentionDays: 14 }, now: () => t });
    log.record(makeEntry());
    await log.flush();
    expect((await readdir(dir)).sort()).toEqual([CURRENT_LOG, 'notes.txt', recent].sort());
    // two days later the "recent" file is past retention: the next rotation removes it
    t = now + 2 * 86_400_000;
    log.record(makeEntry());
    await log.flush();
    const names = await readdir(dir);
    expect(names).not.toContain(recent);
    expect(names).toContain(CURRENT_LOG);
    expect(names).toContain(rotatedName(new Date(t)));
  });

  it('keeps the whole log under logMaxTotalBytes: the oldest rotated files go first, at start and on rotation', async () => {
    const dir = join(home, 'logs');
    const now = Date.parse('2025-03-20T00:00:00.000Z');
    const { mkdir } = await import('node:fs/promises');
    await mkdir(dir, { recursive: true });
    // five rotated files of 1,000 bytes, an hour apart, all well inside the 14 days
    const rotated = [5, 4, 3, 2, 1].map((h) => rotatedName(new Date(now - h * 3_600_000)));
    for (const name of rotated) await writeFile(join(dir, name), 'x'.repeat(999) + '\n');
    await writeFile(join(dir, CURRENT_LOG), 'y'.repeat(499) + '\n');
    let t = now;
    // 5,000 bytes, room for the current file to grow to its 2,000: three rotated files fit, the oldest two go
    const log = open({ settings: { ...SETTINGS, logMaxBytes: 2_000, logMaxTotalBytes: 5_000 }, now: () => t });
    log.record(makeEntry());
    await log.flush();
    expect((await readdir(dir)).sort()).toEqual([CURRENT_LOG, ...rotated.slice(2)].sort());
    // a smaller older file does not survive a newer one that went: no gap in the history
    await writeFile(join(dir, rotatedName(new Date(now - 9 * 3_600_000))), 'tiny\n');
    // filling the current file rotates it; the total is then over the cap again
    t = now + 60_000;
    // ~1,500 bytes of attempts (a model name is cut to 200 characters in the log)
    log.record(makeEntry({ attempts: Array.from({ length: 21 }, (_, i) => ({ target: `provider-${i}/some-model-name-${i}`, status: 500, latencyMs: 1 })) }));
    await log.flush();
    const names = (await readdir(dir)).sort();
    expect(names).toContain(CURRENT_LOG);
    expect(names).toContain(rotatedName(new Date(t)));
    expect(names).not.toContain(rotatedName(new Date(now - 9 * 3_600_000)));
    expect(names).not.toContain(rotated[2]);
    const { stat } = await import('node:fs/promises');
    let total = 0;
    for (const n of names) total += (await stat(join(dir, n))).size;
    expect(total).toBeLessThanOrEqual(5_000);
  });

  it('a broken log folder is reported once; records keep being accepted and the ring keeps working', async () => {
    await writeFile(join(home, 'logs'), 'a file where the folder should be');
    const onError = vi.fn();
    const onRecover = vi.fn();
    const log = open({ onError, onRecover, flushIntervalMs: 1 });
    for (let i = 0; i < 5; i++) {
      expect(() => log.record(makeEntry())).not.toThrow();
      await log.flush();
    }
    expect(onError).toHaveBeenCalledOnce();
    expect(String(onError.mock.calls[0]![0])).toMatch(/EEXIST|ENOTDIR/);
    expect(log.recent()).toHaveLength(5);
    expect(log.health()).toMatchObject({ ok: false, droppedLines: 5, recorded: 5 });
    // the disk comes back: writing resumes and health says so
    await rm(join(home, 'logs'));
    log.record(makeEntry());
    await log.flush();
    expect(log.health().ok).toBe(true);
    expect(await lines()).toHaveLength(1);
    expect(onRecover).toHaveBeenCalledOnce();
    expect(onError).toHaveBeenCalledOnce();
  });

  // Linux exposes a process's open files in /proc/self/fd; elsewhere these two checks cannot look.
  const procFd = process.platform === 'linux';
  async function openLogFds(): Promise<number> {
    const target = join(home, 'logs', CURRENT_LOG);
    let n = 0;
    for (const fd of await readdir('/proc/self/fd')) {
      try {
        if ((await readlink(join('/proc/self/fd', fd))).startsWith(target)) n++;
      } catch {
        // an fd closed while we looked
      }
    }
    return n;
  }

  it.runIf(procFd)('keeps one file open across batches (one write each) and closes it on close()', async () => {
    const log = open();
    for (let i = 0; i < 5; i++) {
      log.record(makeEntry());
      await log.flush();
    }
    expect(await openLogFds()).toBe(1);
    expect(await lines()).toHaveLength(5);
    await log.close();
    expect(await openLogFds()).toBe(0);
  });

  it.runIf(procFd)('closes the file once batches stop, and opens it again for the next one', async () => {
    const log = open({ idleCloseMs: 30 });
    log.record(makeEntry());
    await log.flush();
    expect(await openLogFds()).toBe(1);
    await vi.waitFor(async () => expect(await openLogFds()).toBe(0), { timeout: 2000, interval: 10 });
    log.record(makeEntry());
    await log.flush();
    expect(await openLogFds()).toBe(1);
    expect(await lines()).toHaveLength(2);
  });

  it.runIf(procFd)('rotation closes the full file before starting the next one', async () => {
    const log = open({ settings: { ...SETTINGS, logMaxBytes: 600 } });
    for (let i = 0; i < 6; i++) {
      log.record(makeEntry());
      await log.flush();
    }
    expect((await readdir(join(home, 'logs'))).length).toBeGreaterThan(1);
    expect(await openLogFds()).toBe(1);
  });

  it('a log file deleted or moved by hand is noticed at the next check, and a new one is started', async () => {
    const dir = join(home, 'logs');
    const log = open({ recheckMs: 0 });
    const first = makeEntry();
    log.record(first);
    await log.flush();
    await rm(join(dir, CURRENT_LOG));
    const second = makeEntry();
    log.record(second);
    await log.flush();
    expect((await lines()).map((e) => e.id)).toEqual([second.id]);

    await rename(join(dir, CURRENT_LOG), join(dir, 'kept.jsonl'));
    const third = makeEntry();
    log.record(third);
    await log.flush();
    expect((await lines()).map((e) => e.id)).toEqual([third.id]);
    expect((await lines('kept.jsonl')).map((e) => e.id)).toEqual([second.id]);
    expect(log.health()).toMatchObject({ ok: true, droppedLines: 0 });
  });

  it('a log folder removed by hand is made again at the next check, without an error', async () => {
    const onError = vi.fn();
    const log = open({ onError, recheckMs: 0 });
    log.record(makeEntry());
    await log.flush();
    await rm(join(home, 'logs'), { recursive: true });
    const e = makeEntry();
    log.record(e);
    await log.flush();
    expect((await lines()).map((x) => x.id)).toEqual([e.id]);
    expect(onError).not.toHaveBeenCalled();
    expect(log.health()).toMatchObject({ ok: true, droppedLines: 0 });
  });

  it('drops bodies unless logBodies is on, and redacts them when it is', async () => {
    const body = { model: 'x', messages: [{ role: 'user', content: 'key sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123' }] };
    const off = open();
    off.record(makeEntry({ requestBody: body, responseBody: Buffer.from('{"ok":true}') }));
    await off.flush();
    const [plain] = await lines();
    expect(plain).not.toHaveProperty('requestBody');
    expect(plain).not.toHaveProperty('responseBody');
    await off.close();
    await rm(join(home, 'logs'), { recursive: true });

    const on = open({ settings: { ...SETTINGS, logBodies: true } });
    on.record(makeEntry({ requestBody: body, responseBody: Buffer.from('{"ok":true}') }));
    // read before the flush: the ring already serves the redacted form
    expect(JSON.stringify(on.recent()[0])).not.toContain('abcdefghijklmnop');
    await on.flush();
    const [logged] = await lines();
    expect(logged!.responseBody).toEqual({ ok: true });
    expect(JSON.stringify(logged!.requestBody)).toContain('[redacted]');
    expect(JSON.stringify(logged)).not.toContain('abcdefghijklmnop');
    expect(body.messages[0]!.content).toContain('abcdefghijklmnop'); // the caller's object is not modified
  });

  it('masks a key a client pasted into the model id or the path, in the ring and the file', async () => {
    const log = open();
    const service = 'sk-svc-proxy-3kTQm8VdPa1xZr9yLw2bNc5Hj7Fe4Gs6AbCdEfGhIjK';
    const provider = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz';
    log.record(
      makeEntry({
        endpoint: 'unknown',
        base: `group:${provider}`,
        path: `/g/${provider}/protocol-a/v1/${service}`,
        modelAsked: `openai/${service}`,
        attempts: [{ target: `openai/${service}`, status: 0, latencyMs: 0, errorCode: 'x', skipped: `model openai/${service} refused` }],
      }),
    );
    await log.flush();
    for (const text of [JSON.stringify(log.recent()), await readFile(join(home, 'logs', CURRENT_LOG), 'utf8')]) {
      expect(text).not.toContain(service.slice(13));
      expect(text).not.toContain(provider.slice(8));
      expect(text).toContain('"modelAsked":"openai/[redacted]"');
    }
    expect(log.recent()[0]!.path).toBe('/g/[redacted]/protocol-a/v1/[redacted]');
  });

  it('masks a provider key right after a percent escape in the path (a model id with its / written %2F)', async () => {
    const log = open();
    const provider = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz';
    log.record(makeEntry({ endpoint: 'unknown', path: `/protocol-a/v1/models/openai%2F${provider}`, modelAsked: `openai%0A${provider}` }));
    await log.flush();
    for (const text of [JSON.stringify(log.recent()), await readFile(join(home, 'logs', CURRENT_LOG), 'utf8')]) expect(text).not.toContain(provider.slice(8));
    expect(log.recent()[0]!.path).toBe('/protocol-a/v1/models/openai%2F[redacted]');
  });

  it('keeps bodies in memory only for the latest entries; the file keeps them all', async () => {
    const log = open({ settings: { ...SETTINGS, logBodies: true }, bodiesInMemory: 2 });
    const all = Array.from({ length: 4 }, (_, i) => makeEntry({ requestBody: { n: i } }));
    for (const e of all) log.record(e);
    await log.flush();
    expect(log.recent().map((e) => e.requestBody)).toEqual([{ n: 3 }, { n: 2 }, undefined, undefined]);
    expect((await lines()).map((e) => e.requestBody)).toEqual([{ n: 0 }, { n: 1 }, { n: 2 }, { n: 3 }]);
  });

  it('keeps bodies in memory only up to a byte budget, however few the entries', async () => {
    const log = open({ settings: { ...SETTINGS, logBodies: true }, bodiesInMemory: 100, bodyBytesInMemory: 25_000 });
    const big = (n: number) => makeEntry({ requestBody: { n, text: 'x'.repeat(10_000) } });
    for (let i = 0; i < 4; i++) log.record(big(i));
    log.record(makeEntry({ requestBody: { n: 4, text: 'y'.repeat(30_000) } })); // over the budget alone
    await log.flush();
    expect(log.recent().map((e) => (e.requestBody as { n: number } | undefined)?.n)).toEqual([undefined, undefined, undefined, undefined, undefined]);
    for (let i = 5; i < 9; i++) log.record(big(i));
    await log.flush();
    expect(log.recent({ limit: 4 }).map((e) => (e.requestBody as { n: number } | undefined)?.n)).toEqual([8, 7, undefined, undefined]);
    expect((await lines()).map((e) => (e.requestBody as { n: number }).n)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8]);
  });

  it('stats() covers ring and files', async () => {
    const log = open({ ringSize: 2 });
    for (let i = 0; i < 6; i++) log.record(makeEntry({ latencyMs: (i + 1) * 100, status: i === 5 ? 502 : 200 }));
    await log.flush();
    const r = await log.stats({}, 'provider');
    expect(r.total).toMatchObject({ requests: 6, errors: 1, inputTokens: 60, outputTokens: 30, p50LatencyMs: 300, p95LatencyMs: 600 });
    expect(r.rows.map((x) => x.name)).toEqual(['openai']);
  });

  it('endFeeds() ends live feeds (delivering what was recorded first) but keeps recording', async () => {
    const log = open();
    const got: string[] = [];
    const ended = vi.fn();
    log.subscribe((e) => got.push(e.id), ended);
    const a = makeEntry();
    log.record(a);
    log.endFeeds();
    expect(got).toEqual([a.id]);
    expect(ended).toHaveBeenCalledOnce();
    const late = vi.fn();
    log.subscribe(() => {}, late);
    expect(late).toHaveBeenCalledOnce();
    const b = makeEntry();
    log.record(b);
    await log.flush();
    expect((await lines()).map((e) => e.id)).toEqual([a.id, b.id]);
  });
});
