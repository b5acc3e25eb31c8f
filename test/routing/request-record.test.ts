/**
 * A request's log record: its attempts in order, and — since the request log's ring keeps 2,000
 * records — nothing it need not hold: no spare room in the attempts' array (a push onto an empty
 * array reserves 17 slots for the usual single attempt), no copies of the model names of its own
 * (log/shared-names.ts). Measured from heap snapshots in a child process.
 */
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../src/log/entry.js';
import { RequestRecord } from '../../src/routing/request-log.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const record = () => new RequestRecord({ protocol: 'a', endpoint: 'chat' }, { keyId: 'key', keyName: 'name' }, 0);

describe('request record attempts', () => {
  it('keeps attempts and skipped targets in order, and marks a fallback to another target', () => {
    const r = record();
    r.skipped('a/x', 'policy_skipped', 'effort not supported');
    r.attempt({ target: 'b/y', status: 500, latencyMs: 3 });
    r.attempt({ target: 'c/z', status: 200, latencyMs: 4 });
    let logged: unknown;
    r.finish((e) => (logged = e), 200);
    expect(logged).toMatchObject({ status: 200, fallback: true, attempts: [{ target: 'a/x', skipped: 'effort not supported', errorCode: 'policy_skipped' }, { target: 'b/y', status: 500 }, { target: 'c/z', status: 200 }] });
  });

  it('holds no spare array slots and one copy of each model name (the ring keeps 2,000 records)', () => {
    const child = spawnSync(process.execPath, ['--import', 'tsx', 'test/routing/fixtures/record-heap.ts'], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
    expect(child.status, child.stderr).toBe(0);
    const perRecord = JSON.parse(child.stdout) as { elements: number; strings: number };
    // the attempts' exact-size array: a 16-byte header and one 8-byte slot (152 bytes with spares)
    expect(perRecord.elements).toBeLessThan(64);
    // its id (56 bytes) is its own, its time shared (one clock reading); the names asked, tried and
    // answered are shared: 62 (Node 20, 22) or 120 (Node 24) bytes, 157 and 216 with copies
    expect(perRecord.strings).toBeLessThan(140);
  });
});

describe('a request ended while an attempt is under way (a revoked key, the drain deadline)', () => {
  it('logs that attempt with the code it ended with, and nothing the handler notes later changes the logged entry', () => {
    const r = record();
    r.attempt({ target: 'a/x', status: 500, latencyMs: 3, errorCode: 'upstream_error' });
    r.begin('b/y', performance.now());
    r.upstreamAnswered(200);
    let logged: unknown;
    r.finish((e) => (logged = structuredClone(e)), 401, 'invalid_api_key');
    // the handler unwinds afterwards and notes what it saw: the log has its answer already
    r.attempt({ target: 'b/y', status: 200, latencyMs: 9 });
    r.answeredBy('b', 'y');
    r.usage({ input: 5 });
    r.firstByte();
    expect(logged).toMatchObject({ status: 401, errorCode: 'invalid_api_key', fallback: true, attempts: [{ target: 'a/x', status: 500 }, { target: 'b/y', status: 200, errorCode: 'invalid_api_key' }] });
    expect(r.entry).toEqual(logged);
  });

  it('an attempt noted before the end is not logged twice', () => {
    const r = record();
    r.begin('b/y', performance.now());
    r.attempt({ target: 'b/y', status: 200, latencyMs: 9 });
    r.finish(() => undefined, 200);
    expect(r.entry.attempts).toEqual([{ target: 'b/y', status: 200, latencyMs: 9 }]);
  });
});

describe('the continuations of a paused turn', () => {
  it('follow the attempt they continue, noted once the answer is over; one under way when the request ends is logged cut', () => {
    const r = record();
    r.begin('b/y', performance.now());
    r.upstreamAnswered(200);
    r.beginContinued('b/y', performance.now());
    r.continued({ target: 'b/y', status: 200, latencyMs: 5, continued: true });
    r.beginContinued('b/y', performance.now());
    let logged: RequestLogEntry | undefined;
    r.finish((e) => (logged = e), 401, 'invalid_api_key');
    expect(logged!.attempts).toEqual([
      expect.objectContaining({ target: 'b/y', status: 200, errorCode: 'invalid_api_key' }),
      { target: 'b/y', status: 200, latencyMs: 5, continued: true },
      expect.objectContaining({ target: 'b/y', status: 0, errorCode: 'invalid_api_key', continued: true }),
    ]);
    expect(logged!.fallback).toBe(false);
  });

  it('a stream ended on its continuation notes its attempt first: the cut continuation still follows it', () => {
    const r = record();
    r.begin('b/y', performance.now());
    r.beginContinued('b/y', performance.now());
    r.attempt({ target: 'b/y', status: 200, latencyMs: 9, errorCode: 'shutting_down' });
    r.finish(() => undefined, 200, 'shutting_down');
    expect(r.entry.attempts).toEqual([
      { target: 'b/y', status: 200, latencyMs: 9, errorCode: 'shutting_down' },
      expect.objectContaining({ target: 'b/y', status: 0, errorCode: 'shutting_down', continued: true }),
    ]);
  });
});
