import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createRequestLog, type RequestLog } from '../../../src/log/writer.js';
import { logFeedResponse } from '../../../src/server/admin/log-feed.js';
import { SseParser, type SseEvent } from '../../../src/protocols/sse.js';
import { makeEntry } from '../../log/make-entry.js';

let dir: string;
let log: RequestLog;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-feed-'));
  log = createRequestLog({ dir, settings: { logMaxBytes: 1e7, logMaxTotalBytes: 1e9, logRetentionDays: 1, logBodies: false }, flushIntervalMs: 5 });
});
afterEach(async () => {
  await log.close();
  await rm(dir, { recursive: true, force: true });
});

/** Reads a feed response, collecting events and comments, until `until` holds or it ends. */
function reader(res: Response) {
  const events: SseEvent[] = [];
  const raw: string[] = [];
  const parser = new SseParser((ev) => events.push(ev));
  const r = res.body!.getReader();
  let ended = false;
  const pump = (async () => {
    for (;;) {
      const { done, value } = await r.read();
      if (done) break;
      raw.push(Buffer.from(value).toString());
      parser.push(value);
    }
    ended = true;
  })();
  return {
    events,
    raw,
    get ended() {
      return ended;
    },
    pump,
    cancel: () => r.cancel(),
  };
}

async function until(cond: () => boolean, ms = 2000): Promise<void> {
  const t = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > t) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

describe('log feed (SSE)', () => {
  it('sends the backlog oldest first, then live entries matching the filter, each once', async () => {
    const old = [makeEntry({ status: 500 }), makeEntry({ status: 200 }), makeEntry({ status: 502 })];
    for (const e of old) log.record(e); // still in the pending batch: must not arrive twice
    const res = logFeedResponse(log, { filter: { status: '5xx' }, recent: 10 });
    expect(res.headers.get('content-type')).toContain('text/event-stream');
    const feed = reader(res);
    const live = makeEntry({ status: 503 });
    log.record(makeEntry({ status: 200 }));
    log.record(live);
    await log.flush();
    await until(() => feed.events.length >= 3);
    await new Promise((r) => setTimeout(r, 30));
    expect(feed.events.map((e) => (JSON.parse(e.data) as { id: string }).id)).toEqual([old[0]!.id, old[2]!.id, live.id]);
    expect(feed.events.every((e) => e.id === (JSON.parse(e.data) as { id: string }).id)).toBe(true);
    await feed.cancel();
    expect(log.health().subscribers).toBe(0); // a client that leaves unsubscribes
  });

  it('the backlog reaches into the files (earlier daemon runs); live entries wait behind it', async () => {
    const earlier = createRequestLog({ dir, settings: { logMaxBytes: 1e7, logMaxTotalBytes: 1e9, logRetentionDays: 1, logBodies: false } });
    const old = [makeEntry(), makeEntry()];
    for (const e of old) earlier.record(e);
    await earlier.close();
    const feed = reader(logFeedResponse(log, { filter: {}, recent: 5 }));
    const live = makeEntry();
    log.record(live); // recorded while the files are still being read
    await log.flush();
    await until(() => feed.events.length >= 3);
    expect(feed.events.map((e) => (JSON.parse(e.data) as { id: string }).id)).toEqual([old[0]!.id, old[1]!.id, live.id]);
    await feed.cancel();
  });

  it('heartbeats with comments and ends with event: end when the daemon stops', async () => {
    const feed = reader(logFeedResponse(log, { filter: {}, heartbeatMs: 20 }));
    await until(() => feed.raw.join('').includes(': ping'));
    log.endFeeds();
    await feed.pump;
    expect(feed.ended).toBe(true);
    expect(feed.events.at(-1)).toMatchObject({ event: 'end', data: '{"reason":"daemon_stopping"}' });
    // after the end, no feed can start
    const late = reader(logFeedResponse(log, { filter: {} }));
    await late.pump;
    expect(late.events.at(-1)?.event).toBe('end');
  });

  it('drops a client that does not read instead of buffering without bound', async () => {
    const res = logFeedResponse(log, { filter: {}, maxQueued: 5 });
    for (let i = 0; i < 20; i++) log.record(makeEntry());
    await log.flush();
    expect(log.health().subscribers).toBe(0);
    const r = res.body!.getReader();
    await expect((async () => {
      for (;;) if ((await r.read()).done) return 'ended';
    })()).rejects.toThrow(/not reading/);
  });
});
