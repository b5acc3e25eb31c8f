/**
 * A provider whose model list fails, through both bases with the official SDKs: the list still
 * answers with the others' models, its log entry names each failed provider with its code, and a
 * model of that provider is answered with the provider's failure, not a model_not_found.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { LogTable } from '../../src/cli/log-format.js';
import { detailLines } from '../../src/tui/log/detail-lines.js';
import { lastErrors } from '../../src/tui/log/last-errors.js';
import { closedPortUrl } from '../fixtures/ports.js';
import { KEYS, useHarness } from './harness.js';

// a key the provider refuses: it must reach neither a client nor the log
const REFUSED_KEY = 'sk-or-revoked-key-3c4_Zm';

const t = useHarness();

let boxUrl: string;
beforeEach(async () => {
  const { h } = t;
  h.credentials.set('openrouter', REFUSED_KEY);
  h.mocks.gemini.always('/v1beta/openai/models', h.mocks.gemini.error(500, 'internal'));
  h.mocks.ca.always('/v1/models', { kind: 'raw', status: 200, body: '<html>gateway</html>', contentType: 'text/html' });
  boxUrl ??= await closedPortUrl('/v1');
  h.config.locals.box = { url: boxUrl, created: '2026-01-02T03:04:05.000Z', detected: false };
});

const openai = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });

const FAILED = [
  { target: 'openrouter', status: 401, errorCode: 'upstream_auth_failed' },
  { target: 'gemini', status: 500, errorCode: 'upstream_error' },
  { target: 'ca', status: 502, errorCode: 'upstream_invalid_response' },
  { target: 'box', status: 0, errorCode: 'upstream_unreachable' },
];

/** What a call was refused with (undefined when it was answered). */
function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (e: unknown) => e,
  );
}

function expectNoCredential(text: string): void {
  for (const key of [REFUSED_KEY, ...Object.values(KEYS)]) expect(text).not.toContain(key.slice(-4));
}

describe('GET …/models with some providers failing', () => {
  it('protocol A: the others are listed; the log names each failed provider with its code', async () => {
    const ids: string[] = [];
    for await (const m of openai().models.list()) ids.push(m.id);
    expect(ids).toEqual(expect.arrayContaining(['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4', 'cb/claude-sonnet-4-5']));
    expect(ids.filter((id) => /^(openrouter|gemini|ca|box)\//.test(id))).toEqual([]);

    const [entry] = await t.h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'models', status: 200, fallback: false });
    expect(entry!.errorCode).toBeUndefined();
    expect(entry!.attempts).toHaveLength(FAILED.length);
    expect(entry!.attempts).toEqual(expect.arrayContaining(FAILED.map((f) => expect.objectContaining(f))));
    expectNoCredential(JSON.stringify(entry));

    // `svc-proxy logs` shows them in its ERROR column, beside the 200
    const row = new LogTable([entry!]).row(entry!);
    expect(row).toContain('openrouter: upstream_auth_failed');
    expect(row).toMatch(/\b200\b/);
    // the TUI: each in the entry's attempts, and as the provider's last error on its providers screen
    expect(detailLines(entry!).map((l) => l.text)).toContainEqual(expect.stringMatching(/^ {2}\d\. openrouter {2}401 {2}\S+ {2}upstream_auth_failed$/));
    expect(lastErrors([entry!]).get('box')).toEqual({ time: entry!.time, status: 0, code: 'upstream_unreachable' });
  });

  it('protocol B: the others are listed, whole and paged', async () => {
    const page = await anthropic().models.list();
    const ids = page.data.map((m) => m.id);
    expect(ids).toEqual(expect.arrayContaining(['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4']));
    expect(ids.filter((id) => /^(openrouter|gemini|ca|box)\//.test(id))).toEqual([]);
    const paged: string[] = [];
    for await (const m of anthropic().models.list({ limit: 2 })) paged.push(m.id);
    expect(paged).toEqual(ids);
    const [entry] = await t.h.waitForLogs(1);
    expect(entry!.attempts.map((a) => a.target).sort()).toEqual(['box', 'ca', 'gemini', 'openrouter']);
  });
});

describe('GET …/models/{id} of a provider whose list failed', () => {
  it("protocol A: the provider's status and code, its slug first, no credential", async () => {
    const cases = [
      { id: 'openrouter/anthropic/claude-sonnet-4.5', status: 401, code: 'upstream_auth_failed', words: /refused the credential \(401\)/ },
      { id: 'gemini/gemini-2.5-flash', status: 500, code: 'upstream_error', words: /answered 500/ },
      { id: 'ca/qwen3-coder', status: 502, code: 'upstream_invalid_response', words: /not JSON/ },
      { id: 'box/qwen3:8b', status: 502, code: 'upstream_unreachable', words: /Is the server running on http:\/\/127\.0\.0\.1:\d+\?/ },
    ];
    for (const c of cases) {
      const err = (await rejection(openai().models.retrieve(c.id))) as InstanceType<typeof OpenAI.APIError> | undefined;
      expect(err, c.id).toBeInstanceOf(OpenAI.APIError);
      expect(err!.status, c.id).toBe(c.status);
      expect(err!.code, c.id).toBe(c.code);
      const provider = c.id.slice(0, c.id.indexOf('/'));
      expect(err!.message, c.id).toContain(`${provider}: "${c.id}" cannot be looked up`);
      expect(err!.message, c.id).toMatch(c.words);
      expectNoCredential(JSON.stringify(err!.error));
    }
    const logged = await t.h.waitForLogs(cases.length);
    expect(logged[0]).toMatchObject({ endpoint: 'model', modelAsked: cases[0]!.id, status: 401, errorCode: 'upstream_auth_failed', attempts: [FAILED[0]] });
    expectNoCredential(JSON.stringify(logged));
  });

  it('protocol B: the same failure in Anthropic’s shape', async () => {
    const err = await rejection(anthropic().models.retrieve('openrouter/anthropic/claude-sonnet-4.5'));
    expect(err).toBeInstanceOf(Anthropic.AuthenticationError);
    const body = (err as InstanceType<typeof Anthropic.AuthenticationError>).error as { type: string; error: { type: string; code: string; message: string } };
    expect(body).toMatchObject({ type: 'error', error: { type: 'authentication_error', code: 'upstream_auth_failed' } });
    expect(body.error.message).toMatch(/^openrouter: /);
    expectNoCredential(JSON.stringify(body));

    const unreachable = await rejection(anthropic().models.retrieve('box/qwen3:8b'));
    expect(unreachable).toBeInstanceOf(Anthropic.InternalServerError);
    expect((unreachable as InstanceType<typeof Anthropic.APIError>).status).toBe(502);
  });

  it('a provider whose list answered still says model_not_found for a model it does not list, and finds one it does', async () => {
    const missing = await rejection(openai().models.retrieve('anthropic/no-such-model'));
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect((missing as InstanceType<typeof OpenAI.NotFoundError>).code).toBe('model_not_found');
    const found = await anthropic().models.retrieve('anthropic/claude-sonnet-4-5');
    expect(found.id).toBe('anthropic/claude-sonnet-4-5');
    const logged = await t.h.waitForLogs(2);
    expect(logged.map((e) => e.attempts)).toEqual([[], []]);
  });
});
