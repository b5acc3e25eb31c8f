/**
 * HTTP-level fuzz against the running daemon: mutated real requests, random JSON, random bytes,
 * odd model ids (inherited property names included), odd paths, content types and header forms,
 * streamed or not, on every base. Every request gets an answer (2xx, 4xx, or a 5xx that an
 * upstream caused — never our internal_error), every stream ends, the daemon stays up with no
 * crash or unhandled rejection in its output, and every request the routing core answered is in
 * the request log.
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseEntries } from '../fixtures/daemon.js';
import { crashLines, M, send, startLean, type Lean, type Raw } from './helpers.js';
import { mutatedFrom, requests } from './seeds.js';

let w: Lean;
beforeAll(async () => {
  w = await startLean({ settings: { headersTimeoutMs: 3_000, idleTimeoutMs: 3_000, bodyLimitBytes: 256 * 1024 } });
}, 60_000);
afterAll(async () => w?.close());

const BASES = [
  { dialect: 'chat', path: '/protocol-a/v1/chat/completions' },
  { dialect: 'responses', path: '/protocol-a/v1/responses' },
  { dialect: 'messages', path: '/protocol-b/v1/messages' },
  { dialect: 'messages', path: '/protocol-b/v1/messages/count_tokens' },
] as const;

const MODELS = [M.anthropic, M.openai, M.chat, 'constructor/x', '__proto__/x', 'toString', 'hasOwnProperty/valueOf', 'anthropic/', '/x', 'nope/x', 'ca/', 'openai/constructor', 'anthropic/__proto__'];
const ODD_PATHS = [
  '/protocol-a/v1/constructor',
  '/protocol-a/v1/__proto__/x',
  '/g/constructor/protocol-a/v1/chat/completions',
  '/g/__proto__/protocol-b/v1/messages',
  '/g/toString/protocol-a/v1/models',
  '/protocol-b/v1/messages/../../admin/status',
  '/protocol-a/v1/chat/completions?x=%E0%A4%A',
  '/protocol-a/v1/responses/resp_123',
  '/protocol-a//v1/chat/completions',
  '/%2e%2e/admin/status',
];

interface Shot {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | Buffer | undefined;
}

const shot: fc.Arbitrary<Shot> = fc.oneof(
  // a mutated real request on its base, with an odd or real model, streamed or not
  fc
    .record({ base: fc.constantFrom(...BASES), model: fc.oneof(fc.constantFrom(...MODELS), fc.string({ maxLength: 20 }), fc.jsonValue({ maxDepth: 1 })), stream: fc.boolean(), seed: fc.nat() })
    .chain(({ base, model, stream }) =>
      mutatedFrom(requests[base.dialect]).map((body) => {
        const b = typeof body === 'object' && body !== null && !Array.isArray(body) ? { ...(body as Record<string, unknown>), model, stream } : body;
        return { method: 'POST', path: base.path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(b) };
      }),
    ),
  // random JSON and random bytes on any base
  fc.record({ base: fc.constantFrom(...BASES), v: fc.jsonValue() }).map(({ base, v }) => ({ method: 'POST', path: base.path, headers: { 'content-type': 'application/json' }, body: JSON.stringify(v) })),
  fc.record({ base: fc.constantFrom(...BASES), bytes: fc.uint8Array({ maxLength: 512 }) }).map(({ base, bytes }) => ({ method: 'POST', path: base.path, headers: { 'content-type': 'application/json' }, body: Buffer.from(bytes) })),
  // odd paths, methods and content types
  fc
    .record({
      path: fc.oneof(fc.constantFrom(...ODD_PATHS), fc.constantFrom(...BASES).map((b) => b.path)),
      method: fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'),
      ct: fc.constantFrom('application/json', 'text/plain', 'application/json; charset=latin1', 'multipart/form-data; boundary=x', 'application/vnd.api+json', ''),
      body: fc.oneof(fc.constant(undefined), fc.jsonValue().map((v) => JSON.stringify(v))),
    })
    .map(({ path, method, ct, body }): Shot => ({ method, path, headers: ct ? { 'content-type': ct } : {}, body: method === 'GET' ? undefined : body })),
);

const answered: Array<{ shot: Shot; r: Raw }> = [];

describe('HTTP fuzz against the running daemon', () => {
  it('every request gets a clean answer; no internal error; streams end', async () => {
    await fc.assert(
      // strict: the mocks refuse what the provider would (upstream error paths); lenient: they
      // answer whatever reaches them (answer paths). Part of the input, so a failure replays.
      fc.asyncProperty(shot, fc.boolean(), fc.boolean(), async (s, apiKeyHeader, strict) => {
        for (const m of [w.anthropic, w.openai, w.chat]) m.strict = strict;
        const headers = apiKeyHeader ? { ...s.headers, 'x-api-key': w.d.key } : s.headers;
        const r = await send(w.d, s.path, { method: s.method, headers, body: s.body, key: apiKeyHeader ? null : undefined, timeoutMs: 15_000 });
        answered.push({ shot: s, r });
        const where = `${s.method} ${s.path} (mocks ${strict ? 'strict' : 'lenient'}) ${typeof s.body === 'string' ? s.body.slice(0, 300) : ''}\n→ ${r.status} ${r.text.slice(0, 300)}`;
        expect(r.status, where).toBeGreaterThanOrEqual(200);
        expect(r.status, where).toBeLessThan(600);
        const ct = String(r.headers['content-type'] ?? '');
        if (ct.startsWith('application/json')) {
          const code = (r.json as { error?: { code?: string } } | undefined)?.error?.code;
          if (r.status >= 400) expect(typeof code, where).toBe('string');
          expect(code, where).not.toBe('internal_error');
          if (r.status >= 500) expect(code, where).toMatch(/^upstream_|^shutting_down$/);
        } else if (ct.startsWith('text/event-stream')) {
          // read to its end by send(): it ended; its last event is a terminal one or an error
          expect(r.text.trimEnd(), where).toMatch(/(\[DONE\]|message_stop[\s\S]*|response\.(completed|incomplete|failed)[\s\S]*|"error"[\s\S]*)$/);
        } else if (r.status !== 204) {
          expect(r.text, where).toBe('');
        }
      }),
      { numRuns: 1000 },
    );
  }, 120_000);

  it('the daemon is still up and printed no crash, unhandled rejection or unexpected error', async () => {
    expect((await send(w.d, '/health', { key: null })).status).toBe(200);
    expect((await send(w.d, '/protocol-a/v1/chat/completions', { body: { model: M.chat, messages: [{ role: 'user', content: 'still there?' }] } })).status).toBe(200);
    expect(crashLines(w.d.log)).toEqual([]);
  });

  it('every request the routing core answered is in the request log', async () => {
    const ids = answered.map((a) => a.r.headers['x-svc-request-id']).filter((v): v is string => typeof v === 'string');
    expect(ids.length).toBeGreaterThan(100);
    let missing = ids;
    const deadline = Date.now() + 10_000;
    while (missing.length > 0 && Date.now() < deadline) {
      const logged = new Set(parseEntries((await w.d.cli(['logs', '--json', '--limit', '5000'])).stdout).map((e) => e.id));
      missing = ids.filter((id) => !logged.has(id));
      if (missing.length > 0) await new Promise((r) => setTimeout(r, 200));
    }
    expect(missing).toEqual([]);
  });
});
