/**
 * The budget of request bodies held at once (settings.bodyBudgetBytes) through the real daemon:
 * bodies waiting on a slow upstream fill it, the next request is refused with 503
 * proxy_overloaded in its own protocol's shape (declared length or chunked), later ones go
 * through once the first are answered, and every way out (answer, refusal, abort) gives the
 * bytes back. Transcription uploads (multipart, relayed as a stream) draw from the same budget.
 */
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import OpenAI, { toFile } from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep } from '../fixtures/daemon.js';
import { expectShapeA, expectShapeB, send, startLean, type Lean, type Raw } from './helpers.js';

const MB = 1024 * 1024;
const CHAT = '/protocol-a/v1/chat/completions';
const MESSAGES = '/protocol-b/v1/messages';

let w: Lean;
let slow: Server;
/** Answers 400 at once, before the upload it is sent has arrived. */
let early: Server;
/** Upstream answers held back until the test lets them go. */
const waiting: ServerResponse[] = [];

const COMPLETION = JSON.stringify({
  id: 'chatcmpl-1',
  object: 'chat.completion',
  created: 1,
  model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'ok' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
});

function answerWaiting(): void {
  for (const res of waiting.splice(0)) res.writeHead(200, { 'content-type': 'application/json' }).end(COMPLETION);
}

function failWaiting(): void {
  for (const res of waiting.splice(0)) res.writeHead(500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'boom', type: 'server_error', code: null } }));
}

beforeAll(async () => {
  slow = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on('end', () => waiting.push(res));
  });
  early = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    res.writeHead(400, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'no', type: 'invalid_request_error', code: null } }));
  });
  await Promise.all([slow, early].map((s) => new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()))));
  const url = (s: Server) => `http://127.0.0.1:${(s.address() as AddressInfo).port}/v1`;
  w = await startLean({
    settings: { bodyLimitBytes: 2.5 * MB, bodyBudgetBytes: 2.5 * MB },
    setup: async (d) => {
      await d.cli(['endpoint', 'add', 'slow', '--url', url(slow), '--format', 'a', '--no-credential']);
      await d.cli(['endpoint', 'add', 'early', '--url', url(early), '--format', 'a', '--no-credential']);
    },
  });
}, 60_000);
afterAll(async () => {
  await w?.close();
  for (const s of [slow, early]) {
    s?.closeAllConnections();
    await new Promise<void>((r) => s?.close(() => r()));
  }
});

/** A request of about `bytes` (the padding is one user message). */
function chatBody(bytes: number): { model: string; messages: unknown[] } {
  return { model: 'slow/m', messages: [{ role: 'user', content: 'x'.repeat(bytes) }] };
}
function messagesBody(bytes: number): { model: string; max_tokens: number; messages: unknown[] } {
  return { model: 'slow/m', max_tokens: 10, messages: [{ role: 'user', content: 'x'.repeat(bytes) }] };
}

async function heldBytes(): Promise<number> {
  const out = await w.d.cli(['status', '--json']);
  return (JSON.parse(out.stdout) as { memory: { requestBodyBytes: number } }).memory.requestBodyBytes;
}

async function untilUpstreamHolds(n: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  while (waiting.length < n) {
    if (Date.now() > deadline) throw new Error(`the upstream holds ${waiting.length} requests, not ${n}`);
    await sleep(20);
  }
}

async function untilHeld(bytes: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const held = await heldBytes();
    if (held === bytes) return;
    if (Date.now() > deadline) expect(held).toBe(bytes);
    await sleep(50);
  }
}

/** POST without a Content-Length (chunked), so the daemon can only count what arrives. */
function sendChunked(path: string, body: unknown): Promise<Raw> {
  const text = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const req = request(
      `${w.d.origin}${path}`,
      { method: 'POST', agent: false, headers: { 'content-type': 'application/json', authorization: `Bearer ${w.d.key}` } },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const t = Buffer.concat(chunks).toString('utf8');
          resolve({ status: res.statusCode ?? 0, headers: res.headers, text: t, json: JSON.parse(t) as unknown });
        });
      },
    );
    req.on('error', reject);
    for (let i = 0; i < text.length; i += 64 * 1024) req.write(text.slice(i, i + 64 * 1024));
    req.end();
  });
}

describe('request bodies held at once', () => {
  it('refuses the request past the budget in its own shape, and takes later ones once the first are answered', async () => {
    const first = [send(w.d, CHAT, { body: chatBody(MB) }), send(w.d, MESSAGES, { body: messagesBody(MB) })];
    await untilUpstreamHolds(2);
    const held = await heldBytes();
    expect(held).toBeGreaterThan(2 * MB);
    expect(held).toBeLessThan(2.5 * MB);

    // declared length: refused before a byte is read; chunked: refused once the count passes it
    const chat = await send(w.d, CHAT, { body: chatBody(MB) });
    expectShapeA(chat, 503, 'proxy_overloaded');
    expect(chat.headers['retry-after']).toBe('2');
    const messages = await sendChunked(MESSAGES, messagesBody(MB));
    expectShapeB(messages, 503, 'proxy_overloaded');
    expect(messages.headers['retry-after']).toBe('2');
    expect(messages.json.error.type).toBe('overloaded_error');
    expect(await heldBytes()).toBe(held);

    answerWaiting();
    for (const r of await Promise.all(first)) expect(r.status, r.text).toBe(200);
    await untilHeld(0);

    const later = send(w.d, MESSAGES, { body: messagesBody(MB) });
    await untilUpstreamHolds(1);
    answerWaiting();
    expect((await later).status).toBe(200);
    await untilHeld(0);
  });

  it('gives the bytes back when clients leave, mid-body or waiting for the upstream', async () => {
    // a body cut off halfway: its first half is held, then given back when the client goes
    const partial = request(`${w.d.origin}${CHAT}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': 'application/json', 'content-length': String(2 * MB), authorization: `Bearer ${w.d.key}` },
    });
    partial.on('error', () => undefined);
    partial.write(JSON.stringify(chatBody(MB)).slice(0, MB / 2));
    const deadline = Date.now() + 10_000;
    while ((await heldBytes()) < MB / 2 && Date.now() < deadline) await sleep(50);
    expect(await heldBytes()).toBe(MB / 2);
    partial.destroy();
    await untilHeld(0);

    // whole bodies waiting on the upstream, then the clients give up
    const controllers = [new AbortController(), new AbortController()];
    const gone = controllers.map((c) =>
      fetch(`${w.d.origin}${CHAT}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${w.d.key}` },
        body: JSON.stringify(chatBody(MB)),
        signal: c.signal,
      }).catch((err: Error) => err.name),
    );
    await untilUpstreamHolds(2);
    expect(await heldBytes()).toBeGreaterThan(2 * MB);
    for (const c of controllers) c.abort();
    expect(await Promise.all(gone)).toEqual(['AbortError', 'AbortError']);
    await untilHeld(0);
    waiting.splice(0).forEach((res) => res.destroy());
  });
});

const TRANSCRIPTIONS = '/protocol-a/v1/audio/transcriptions';
const BOUNDARY = 'svc-budget-boundary';

/** A multipart upload with the model field first, so the daemon relays the file as it arrives. */
function multipart(fileBytes: number, model = 'slow/whisper-1'): Buffer {
  return Buffer.concat([
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="model"\r\n\r\n${model}\r\n`),
    Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="clip.wav"\r\nContent-Type: audio/wav\r\n\r\n`),
    Buffer.alloc(fileBytes, 7),
    Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
  ]);
}

/** Upload `body` in 64 KB writes, without a Content-Length unless `declared`. */
function upload(body: Buffer, declared: boolean): Promise<Raw> {
  const headers: Record<string, string> = { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, authorization: `Bearer ${w.d.key}` };
  if (declared) headers['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = request(`${w.d.origin}${TRANSCRIPTIONS}`, { method: 'POST', agent: false, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const t = Buffer.concat(chunks).toString('utf8');
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: t, json: JSON.parse(t) as unknown });
      });
    });
    // a refused upload is answered while it is still being written: the rest may meet a closed socket
    req.on('error', (err) => (req.writableEnded ? undefined : reject(err)));
    for (let i = 0; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
    req.end();
  });
}

async function transcribe(client: OpenAI, bytes: number): Promise<unknown> {
  return client.audio.transcriptions.create({ file: await toFile(Buffer.alloc(bytes, 7), 'clip.wav'), model: 'slow/whisper-1' }).then(
    (answer) => answer,
    (err: unknown) => err,
  );
}

describe('transcription uploads and the budget', () => {
  it('a full budget refuses an upload with 503 proxy_overloaded (declared, streamed, and through the SDK)', async () => {
    const first = [send(w.d, CHAT, { body: chatBody(MB) }), send(w.d, MESSAGES, { body: messagesBody(MB) })];
    await untilUpstreamHolds(2);
    const held = await heldBytes();

    // declared length: refused before a byte is read; no length: refused once the count passes it,
    // while the file is already being relayed upstream (the model field came first)
    for (const declared of [true, false]) {
      const r = await upload(multipart(MB), declared);
      expectShapeA(r, 503, 'proxy_overloaded');
      expect(r.headers['retry-after']).toBe('2');
    }
    const err = await transcribe(w.d.openai(), MB);
    expect(err).toBeInstanceOf(OpenAI.APIError);
    expect((err as InstanceType<typeof OpenAI.APIError>).status).toBe(503);
    expect((err as InstanceType<typeof OpenAI.APIError>).code).toBe('proxy_overloaded');
    expect(await heldBytes()).toBe(held);

    answerWaiting();
    for (const r of await Promise.all(first)) expect(r.status, r.text).toBe(200);
    await untilHeld(0);
  });

  it('an upload holds its bytes until it is answered, then gives them back (success and upstream error)', async () => {
    const client = w.d.openai();
    const ok = transcribe(client, MB);
    await untilUpstreamHolds(1);
    expect(await heldBytes()).toBeGreaterThan(MB);
    answerWaiting();
    expect(await ok).toMatchObject({ object: 'chat.completion' });
    await untilHeld(0);

    const failed = transcribe(client, MB);
    await untilUpstreamHolds(1);
    expect(await heldBytes()).toBeGreaterThan(MB);
    failWaiting();
    expect((await failed) as InstanceType<typeof OpenAI.APIError>).toMatchObject({ status: 500, code: 'upstream_error' });
    await untilHeld(0);

    // answered before the upload is through: what still arrives is not counted after the bytes went back
    const body = multipart(MB, 'early/whisper-1');
    const answered = new Promise<number>((resolve) => {
      const req = request(`${w.d.origin}${TRANSCRIPTIONS}`, {
        method: 'POST',
        agent: false,
        headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, authorization: `Bearer ${w.d.key}` },
      });
      req.on('error', () => undefined);
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        // the rest of the upload, after the answer
        for (let i = MB / 4; i < body.length; i += 64 * 1024) req.write(body.subarray(i, i + 64 * 1024));
        req.end();
      });
      req.write(body.subarray(0, MB / 4));
    });
    expect(await answered).toBe(400);
    await sleep(300);
    await untilHeld(0);
  });

  it('gives the bytes back when the client leaves, mid-upload or waiting for the upstream', async () => {
    const body = multipart(2 * MB);
    const partial = request(`${w.d.origin}${TRANSCRIPTIONS}`, {
      method: 'POST',
      agent: false,
      headers: { 'content-type': `multipart/form-data; boundary=${BOUNDARY}`, 'content-length': String(body.length), authorization: `Bearer ${w.d.key}` },
    });
    partial.on('error', () => undefined);
    partial.write(body.subarray(0, MB / 2));
    const deadline = Date.now() + 10_000;
    while ((await heldBytes()) < MB / 2 && Date.now() < deadline) await sleep(50);
    expect(await heldBytes()).toBe(MB / 2);
    partial.destroy();
    await untilHeld(0);

    const controller = new AbortController();
    const gone = w.d
      .openai()
      .audio.transcriptions.create({ file: await toFile(Buffer.alloc(MB, 7), 'clip.wav'), model: 'slow/whisper-1' }, { signal: controller.signal })
      .catch((err: unknown) => err);
    await untilUpstreamHolds(1);
    expect(await heldBytes()).toBeGreaterThan(MB);
    controller.abort();
    expect(await gone).toBeInstanceOf(OpenAI.APIUserAbortError);
    await untilHeld(0);
    waiting.splice(0).forEach((res) => res.destroy());
  });
});
