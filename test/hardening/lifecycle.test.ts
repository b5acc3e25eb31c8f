/**
 * The daemon's life through the real binary: SIGTERM with streams in flight drains them (short
 * ones finish, long ones end with a clean final event in their dialect at settings.drainTimeoutMs),
 * and a crash (SIGKILL under load) leaves state a restart picks up intact: config, keys, logs.
 * (An invalid hand edit of config.json is covered by test/e2e/foundation and test/daemon/runtime.)
 */
import { request } from 'node:http';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEntries } from '../fixtures/daemon.js';
import { crashLines, M, pidOf, send, sleep, sseEvents, startLean, type Lean } from './helpers.js';
import { processAlive } from '../../src/config/file-lock.js';

const DRAIN_MS = 1_500;
let w: Lean;

beforeAll(async () => {
  w = await startLean({ settings: { drainTimeoutMs: DRAIN_MS } });
}, 60_000);
afterAll(async () => w?.close());

const hi = [{ role: 'user', content: 'hi' }];

/** Open a stream and collect it to its end (or until the connection goes). */
function openStream(path: string, body: unknown): { firstByte: Promise<void>; done: Promise<{ status: number; text: string; endedAt: number }> } {
  let onFirst!: () => void;
  const firstByte = new Promise<void>((r) => (onFirst = r));
  const done = new Promise<{ status: number; text: string; endedAt: number }>((resolve) => {
    let text = '';
    let status = 0;
    const finish = () => resolve({ status, text, endedAt: Date.now() });
    const req = request(`${w.d.origin}${path}`, { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${w.d.key}` } }, (res) => {
      status = res.statusCode ?? 0;
      res.on('data', (c: Buffer) => {
        text += c.toString();
        onFirst();
      });
      res.on('end', finish);
      res.on('error', finish);
      res.on('aborted', finish);
    });
    req.on('error', finish);
    req.end(JSON.stringify(body));
  });
  return { firstByte, done };
}

describe('SIGTERM with streams in flight', () => {
  it('short streams finish, long ones end with a final shutting_down event at the drain timeout, new connections are refused, exit 0', async () => {
    const slow = { kind: 'turn' as const, turn: { text: 'word '.repeat(100), stream: { chunk: 5, delayMs: 100 } } };
    const quick = { kind: 'turn' as const, turn: { text: 'a short answer', stream: { chunk: 5, delayMs: 100 } } };
    w.chat.next(slow);
    w.anthropic.next(slow);
    w.openai.next(quick, slow);
    // the openai mock hands its replies out in arrival order: the quick one's request goes first
    const quickStream = openStream('/protocol-b/v1/messages', { model: M.openai, stream: true, max_tokens: 50, messages: hi });
    await quickStream.firstByte;
    const streams = {
      chat: openStream('/protocol-a/v1/chat/completions', { model: M.chat, stream: true, messages: hi }),
      responses: openStream('/protocol-a/v1/responses', { model: M.anthropic, stream: true, input: 'hi' }),
      quick: quickStream,
      messages: openStream('/protocol-b/v1/messages', { model: M.openai, stream: true, max_tokens: 50, messages: hi }),
    };
    await Promise.all(Object.values(streams).map((s) => s.firstByte));
    const pid = await pidOf(w.d);
    const signalledAt = Date.now();
    process.kill(pid, 'SIGTERM');
    // no new connections while draining (the listener closes as the signal is handled: a busy
    // machine may take a moment, well inside the drain)
    let refused: unknown;
    for (const until = Date.now() + 1_000; refused === undefined && Date.now() < until; ) {
      await sleep(50);
      refused = await send(w.d, '/health', { key: null, timeoutMs: 2_000 }).then(() => undefined, (err: unknown) => err);
    }
    expect(String(refused)).toMatch(/ECONNREFUSED|socket hang up|ECONNRESET/);

    const quick1 = await streams.quick.done;
    // ended whole (message_stop), not cut at the drain timeout (shutting_down)
    expect(sseEvents(quick1.text).at(-1)?.event).toBe('message_stop');

    const chat = await streams.chat.done;
    const responses = await streams.responses.done;
    const messages = await streams.messages.done;
    for (const r of [chat, responses, messages]) {
      expect(r.status).toBe(200);
      // held to the drain timeout, then cut there: the shutting_down events below say by what
      expect(r.endedAt - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    }
    const last = (text: string) => sseEvents(text).at(-1);
    expect(last(chat.text)?.data).toMatchObject({ error: { code: 'shutting_down' } });
    const messagesLast = last(messages.text);
    expect(messagesLast?.event).toBe('error');
    expect(messagesLast?.data).toMatchObject({ type: 'error', error: { code: 'shutting_down' } });
    const responsesEvents = sseEvents(responses.text);
    expect(responsesEvents.some((e) => e.event === 'error' && (e.data as { code?: string }).code === 'shutting_down')).toBe(true);
    // the upstream requests were dropped, not left running
    for (const mock of [w.chat, w.anthropic]) {
      const rec = mock.lastGeneration();
      await rec.done;
      expect(rec.closedEarly).toBe(true);
    }

    // the process ends by itself, cleanly
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && processAlive(pid)) await sleep(50);
    expect(processAlive(pid)).toBe(false);
    expect(w.d.log).toMatch(/stopping \(SIGTERM\)[\s\S]*stopped/);
    expect(crashLines(w.d.log)).toEqual([]);
  });

  it('the streams cut by the drain are in the request log, with their code', async () => {
    w.reset();
    await w.d.stop();
    await w.d.start();
    const entries = await w.d.logs((e) => e.filter((x) => x.errorCode === 'shutting_down').length >= 3);
    expect(entries.filter((x) => x.errorCode === 'shutting_down')).toHaveLength(3);
    expect(entries.filter((x) => x.streamed && x.status === 200 && !x.errorCode).length).toBeGreaterThanOrEqual(1);
  });

  it('requests still waiting at the drain timeout — for upstream headers or a first event — get a 503 shutting_down in their protocol\'s shape', async () => {
    w.reset();
    w.chat.next({ kind: 'hang' });
    w.anthropic.next({ kind: 'hang' });
    w.openai.next({ kind: 'sse', events: [], ending: 'stall' }, { kind: 'hang' });
    const waiting = {
      chatWhole: openStream('/protocol-a/v1/chat/completions', { model: M.chat, messages: hi }),
      messagesStream: openStream('/protocol-b/v1/messages', { model: M.anthropic, stream: true, max_tokens: 50, messages: hi }),
      noFirstEvent: openStream('/protocol-b/v1/messages', { model: M.openai, stream: true, max_tokens: 50, messages: hi }),
      responsesWhole: openStream('/protocol-a/v1/responses', { model: M.openai, input: 'hi' }),
    };
    // every upstream has the request (and the stalled one has sent its headers)
    const deadline = Date.now() + 5_000;
    while (Date.now() < deadline && (w.chat.requests.length < 1 || w.anthropic.requests.length < 1 || w.openai.requests.length < 2)) await sleep(20);
    await sleep(100);
    const pid = await pidOf(w.d);
    const signalledAt = Date.now();
    process.kill(pid, 'SIGTERM');

    const answers = await Promise.all(Object.values(waiting).map((r) => r.done));
    for (const r of answers) {
      // held to the drain timeout, then refused by it (503; the codes below say shutting_down)
      expect(r.status, r.text).toBe(503);
      expect(r.endedAt - signalledAt).toBeGreaterThanOrEqual(DRAIN_MS - 100);
    }
    const [chatWhole, messagesStream, noFirstEvent, responsesWhole] = answers.map((r) => JSON.parse(r.text) as unknown);
    for (const a of [chatWhole, responsesWhole]) expect(a).toMatchObject({ error: { code: 'shutting_down', type: expect.any(String), message: expect.stringMatching(/shutting down/) } });
    for (const b of [messagesStream, noFirstEvent]) expect(b).toMatchObject({ type: 'error', error: { code: 'shutting_down', type: 'overloaded_error' } });
    // their upstream calls were dropped with them
    for (const mock of [w.chat, w.anthropic, w.openai]) {
      const rec = mock.lastGeneration();
      await rec.done;
      expect(rec.closedEarly).toBe(true);
    }
    const exited = Date.now() + 5_000;
    while (Date.now() < exited && processAlive(pid)) await sleep(50);
    expect(processAlive(pid)).toBe(false);
    expect(crashLines(w.d.log)).toEqual([]);

    await w.d.stop();
    await w.d.start();
    const entries = await w.d.logs((e) => e.filter((x) => x.status === 503 && x.errorCode === 'shutting_down').length >= 4);
    expect(entries.filter((x) => x.status === 503 && x.errorCode === 'shutting_down')).toHaveLength(4);
  });
});

describe('crash and restart', () => {
  it('SIGKILL under load: a restart finds config, keys and the request log intact', async () => {
    const configBefore = await readFile(join(w.d.home, 'config.json'), 'utf8');
    const created = JSON.parse((await w.d.cli(['key', 'create', '--name', 'before-crash', '--json'])).stdout) as { key: string };
    // load: streams and whole answers in flight, log batches being written
    w.chat.always('/v1/chat/completions', { kind: 'turn', turn: { text: 'word '.repeat(40), stream: { chunk: 3, delayMs: 20 } } });
    const inflight = Array.from({ length: 30 }, (_, i) =>
      send(w.d, '/protocol-a/v1/chat/completions', { body: { model: M.chat, stream: i % 2 === 0, messages: hi } }).catch(() => undefined),
    );
    await sleep(250);
    const pid = await pidOf(w.d);
    process.kill(pid, 'SIGKILL');
    await Promise.all(inflight);
    await w.d.stop();
    w.reset();

    // the stale pid/runtime files do not stop the restart
    await w.d.start();
    // the new daemon's runtime file is there once it answers /health
    expect(await pidOf(w.d)).not.toBe(pid);
    const configAfter = JSON.parse(await readFile(join(w.d.home, 'config.json'), 'utf8')) as { keys: Array<{ name: string }> };
    expect(configAfter.keys.map((k) => k.name)).toEqual(expect.arrayContaining(['e2e', 'before-crash']));
    expect(JSON.parse(configBefore).endpoints).toEqual((configAfter as unknown as { endpoints: unknown }).endpoints);
    for (const key of [w.d.key, created.key]) {
      const r = await send(w.d, '/protocol-a/v1/chat/completions', { key, body: { model: M.chat, messages: hi } });
      expect(r.status, r.text).toBe(200);
    }
    // the log is readable (a line torn by the kill, if any, does not break it)
    const res = await w.d.cli(['logs', '--json', '--limit', '500']);
    expect(parseEntries(res.stdout).length).toBeGreaterThan(0);
    expect((await w.d.cli(['status'])).code).toBe(0);
  });
});
