/**
 * `svc-proxy doctor` against the real daemon: a provider whose key the upstream refuses, a working
 * endpoint, and this shell's base URL variables each way they go wrong — then the fix it names
 * applied, and a clean bill (exit 0).
 */
import Anthropic from '@anthropic-ai/sdk';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import OpenAI from 'openai';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { documentedJsonKeys } from '../fixtures/json-help.js';
import { AnthropicMock, GenericChatMock } from '../fixtures/mock-upstream/index.js';

const RIGHT = 'sk-ant-doctor-right-0001';
const WRONG = 'sk-ant-doctor-wrong-0002';

let d: TestDaemon;
let anthropic: AnthropicMock;
let chat: GenericChatMock;
let empty: GenericChatMock;
let xdg: string;

interface Findings {
  ok: boolean;
  findings: Array<{ check: string; mark: string; text: string; fix?: string }>;
}

/** No tool variable of the test runner's shell, no provider key, and no real login service. */
function shell(vars: Record<string, string> = {}): Record<string, string | undefined> {
  const none = { ANTHROPIC_BASE_URL: undefined, ANTHROPIC_AUTH_TOKEN: undefined, ANTHROPIC_API_KEY: undefined, OPENAI_BASE_URL: undefined, OPENAI_API_BASE: undefined, OPENAI_API_KEY: undefined };
  return { ...none, XDG_CONFIG_HOME: xdg, ...vars };
}

async function doctor(vars: Record<string, string> = {}): Promise<{ code: number; json: Findings; text: string }> {
  const json = await d.cli(['doctor', '--json'], { env: shell(vars), allowFail: true, timeoutMs: 40_000 });
  const text = await d.cli(['doctor'], { env: shell(vars), allowFail: true, timeoutMs: 40_000 });
  expect(text.code).toBe(json.code);
  return { code: json.code, json: JSON.parse(json.stdout) as Findings, text: text.stdout };
}

const finding = (f: Findings, check: string) => f.findings.find((x) => x.check === check);

beforeAll(async () => {
  xdg = await mkdtemp(join(tmpdir(), 'svc-doctor-xdg-'));
  anthropic = await new AnthropicMock({ apiKey: RIGHT }).listen();
  chat = await new GenericChatMock({ name: 'chat', models: ['m1', 'm2'] }).listen();
  empty = await new GenericChatMock({ name: 'empty', models: [] }).listen();
  d = await startDaemon({
    env: {},
    setup: async (t) => {
      await t.cli(['provider', 'set', 'anthropic', '--base-url', anthropic.baseUrl]);
      await t.cli(['provider', 'connect', 'anthropic', '--insecure-storage'], { input: `${WRONG}\n` });
      await t.cli(['endpoint', 'add', 'chat', '--url', chat.baseUrl, '--format', 'a', '--no-credential']);
      await t.cli(['endpoint', 'add', 'emp', '--url', empty.baseUrl, '--format', 'a', '--no-credential']);
      await t.cli(['local', 'add', 'gone', '--url', 'http://127.0.0.1:9']);
    },
  });
}, 60_000);
afterAll(async () => {
  await stopDaemon(d);
  await Promise.all([anthropic?.close(), chat?.close(), empty?.close()]);
  await rm(xdg, { recursive: true, force: true });
});

describe('svc-proxy models: what it says of lists that are empty or failed', () => {
  it('an empty list is said to be empty (not "no provider named"), a failure reason ends in one period or a local server\'s question', async () => {
    const res = await d.cli(['models', 'emp', 'gone'], { allowFail: true, timeoutMs: 40_000 });
    expect(res.stderr).toContain('emp: its model list is empty.');
    expect(res.stderr).not.toContain('No connected provider');
    // nothing listens there: the local server's reason asks whether it was started, and ends there
    expect(res.stderr).toMatch(/^gone: no model list: upstream_unreachable: Could not connect to http:\/\/127\.0\.0\.1:9 \(ECONNREFUSED\)\. Is the server running on http:\/\/127\.0\.0\.1:9\?$/m);
  });

  it('--json has the top-level keys its help names', async () => {
    const res = await d.cli(['models', 'chat', 'gone', '--json'], { allowFail: true, timeoutMs: 40_000 });
    expect(Object.keys(JSON.parse(res.stdout) as object).sort()).toEqual((await documentedJsonKeys(['models'])).sort());
  });
});

describe('svc-proxy doctor', () => {
  it('names a refused provider key with its fix, and each wrong shell variable with why', async () => {
    const revoked = JSON.parse((await d.cli(['key', 'create', '--name', 'gone', '--json'])).stdout) as { key: string };
    await d.cli(['key', 'revoke', 'gone']);
    const { code, json, text } = await doctor({
      // the whole endpoint pasted as a base: the SDKs would add /v1/messages to it again
      ANTHROPIC_BASE_URL: `${d.baseB()}/v1/messages`,
      OPENAI_BASE_URL: d.baseA().replace(`:${d.port}`, `:${d.port === 65535 ? 1 : d.port + 1}`),
      OPENAI_API_BASE: 'https://api.openai.com/v1',
      OPENAI_API_KEY: revoked.key,
    });
    expect(code).toBe(1);
    expect(json.ok).toBe(false);
    expect(finding(json, 'daemon')).toMatchObject({ mark: 'ok' });
    expect(finding(json, 'provider anthropic')).toMatchObject({ mark: 'fail', fix: 'svc-proxy provider connect anthropic' });
    expect(finding(json, 'provider anthropic')!.text).toMatch(/^no model list: upstream_auth_failed: the provider refused the credential \(401\)/);
    expect(finding(json, 'provider chat')).toMatchObject({ mark: 'ok', text: '2 models listed' });
    expect(finding(json, 'provider emp')).toMatchObject({ mark: 'ok', text: '0 models listed' });
    expect(finding(json, 'provider gone')).toMatchObject({ mark: 'fail', fix: 'start the server at http://127.0.0.1:9, or: svc-proxy local remove gone' });
    expect(finding(json, 'provider gone')!.text).toContain('(ECONNREFUSED). Is the server running on http://127.0.0.1:9?');
    expect(finding(json, 'login service')).toMatchObject({ mark: 'info', fix: 'svc-proxy service install' });
    expect(finding(json, 'shell ANTHROPIC_BASE_URL')).toMatchObject({ mark: 'fail', fix: 'eval "$(svc-proxy env claude-code)"' });
    expect(finding(json, 'shell ANTHROPIC_BASE_URL')!.text).toBe(
      '/protocol-b/v1/messages is not a protocol B base: requests from Claude Code and the Anthropic SDKs would go to /protocol-b/v1/messages/v1/messages (they add /v1/messages themselves), which svc-proxy has no route for; it should end in /protocol-b',
    );
    expect(finding(json, 'shell OPENAI_BASE_URL')!.text).toMatch(new RegExp(`the daemon listens on ${d.port}$`));
    expect(finding(json, 'shell OPENAI_API_BASE')).toMatchObject({ mark: 'info', text: 'points at https://api.openai.com, not at svc-proxy: aider started from this shell go there' });
    // the text form says the same, with the fixes under their lines, and no key anywhere
    expect(text).toContain('✗ provider anthropic: no model list:');
    expect(text).toContain('    → svc-proxy provider connect anthropic');
    expect(text).toMatch(/\d problems found/);
    for (const secret of [WRONG, RIGHT, revoked.key, d.key]) expect(text + JSON.stringify(json)).not.toContain(secret);

    // a revoked key and a provider key where a service key belongs
    const refused = await doctor({ OPENAI_BASE_URL: d.baseA(), OPENAI_API_KEY: revoked.key, ANTHROPIC_BASE_URL: d.baseB('nope'), ANTHROPIC_API_KEY: d.key });
    expect(finding(refused.json, 'shell OPENAI_BASE_URL')).toMatchObject({ mark: 'fail' });
    expect(finding(refused.json, 'shell OPENAI_BASE_URL')!.text).toMatch(/^svc-proxy protocol A refuses the key: The service key is not valid/);
    expect(finding(refused.json, 'shell ANTHROPIC_BASE_URL')!.text).toMatch(/group nope answered 404: No group "nope"/);
    // a base off the usual path whose key fails: both are said
    const both = await doctor({ OPENAI_BASE_URL: d.baseA().replace(/\/v1$/, ''), OPENAI_API_KEY: revoked.key, ANTHROPIC_BASE_URL: `${d.baseB()}/v1` });
    expect(finding(both.json, 'shell OPENAI_BASE_URL')).toMatchObject({ mark: 'fail', fix: 'svc-proxy key create --name <name>, then eval "$(svc-proxy env openai)"' });
    expect(finding(both.json, 'shell OPENAI_BASE_URL')!.text).toMatch(
      /^svc-proxy protocol A refuses the key: The service key is not valid.*; also, \/protocol-a is not the base as svc-proxy gives it \(ending in \/protocol-a\/v1\): .*which svc-proxy answers as \/protocol-a\/v1\/chat\/completions$/,
    );
    expect(finding(both.json, 'shell ANTHROPIC_BASE_URL')).toEqual({
      check: 'shell ANTHROPIC_BASE_URL',
      mark: 'fail',
      text: 'no key: ANTHROPIC_AUTH_TOKEN or ANTHROPIC_API_KEY is not set; also, /protocol-b/v1 is not the base as svc-proxy gives it (ending in /protocol-b): requests from Claude Code and the Anthropic SDKs go to /protocol-b/v1/v1/messages (they add /v1/messages themselves), which svc-proxy answers as /protocol-b/v1/messages',
      fix: 'eval "$(svc-proxy env claude-code)"',
    });
    const providerKey = await doctor({ OPENAI_BASE_URL: d.baseA(), OPENAI_API_KEY: 'sk-proj-not-ours' });
    expect(finding(providerKey.json, 'shell OPENAI_BASE_URL')!.text).toContain('(OPENAI_API_KEY holds no service key: those start sk-svc-proxy-)');
    expect(JSON.stringify(providerKey.json)).not.toContain('sk-proj-not-ours');
  });

  it('passes (exit 0) once the named fixes are applied, and says so without a daemon (exit 1)', async () => {
    await d.cli(['provider', 'connect', 'anthropic', '--insecure-storage'], { input: `${RIGHT}\n` });
    await d.cli(['local', 'remove', 'gone']);
    const { code, json, text } = await doctor({ ANTHROPIC_BASE_URL: d.baseB(), ANTHROPIC_AUTH_TOKEN: d.key, OPENAI_BASE_URL: d.baseA(), OPENAI_API_KEY: d.key });
    expect(json.findings.filter((f) => f.mark === 'fail')).toEqual([]);
    expect(code).toBe(0);
    expect(finding(json, 'provider anthropic')).toMatchObject({ mark: 'ok' });
    expect(finding(json, 'shell ANTHROPIC_BASE_URL')).toMatchObject({ mark: 'ok', text: 'svc-proxy protocol B; the key in ANTHROPIC_AUTH_TOKEN is accepted' });
    expect(finding(json, 'shell OPENAI_BASE_URL')).toMatchObject({ mark: 'ok' });
    expect(text).not.toContain('✗');

    // a base ending in /v1 works with the real SDK (its /v1/messages makes /v1/v1/messages, which the
    // daemon takes), as does protocol A without /v1: a warning that names the usual base, not a failure
    const sdk = new Anthropic({ baseURL: `${d.baseB()}/v1`, apiKey: d.key, maxRetries: 0 });
    const ask = { model: 'anthropic/claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user' as const, content: 'Hello' }] };
    expect((await sdk.messages.create(ask)).content).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: Hello' })]);
    expect((await sdk.messages.stream(ask).finalMessage()).content).toEqual([expect.objectContaining({ type: 'text', text: 'Echo: Hello' })]);
    expect((await sdk.messages.countTokens({ model: ask.model, messages: ask.messages })).input_tokens).toBeGreaterThan(0);
    expect((await sdk.models.list()).data.map((m) => m.id)).toContain('anthropic/claude-sonnet-4-5');
    const openai = new OpenAI({ baseURL: d.baseA().replace(/\/v1$/, ''), apiKey: d.key, maxRetries: 0 });
    expect((await openai.chat.completions.create({ model: ask.model, messages: ask.messages })).choices[0]?.message.content).toBe('Echo: Hello');
    const redundant = await doctor({ ANTHROPIC_BASE_URL: `${d.baseB()}/v1`, ANTHROPIC_AUTH_TOKEN: d.key, OPENAI_BASE_URL: d.baseA().replace(/\/v1$/, ''), OPENAI_API_KEY: d.key });
    expect(redundant.code).toBe(0);
    expect(redundant.json.ok).toBe(true);
    expect(finding(redundant.json, 'shell ANTHROPIC_BASE_URL')).toEqual({
      check: 'shell ANTHROPIC_BASE_URL',
      mark: 'warn',
      text: 'svc-proxy protocol B; the key in ANTHROPIC_AUTH_TOKEN is accepted; but /protocol-b/v1 is not the base as svc-proxy gives it (ending in /protocol-b): requests from Claude Code and the Anthropic SDKs go to /protocol-b/v1/v1/messages (they add /v1/messages themselves), which svc-proxy answers as /protocol-b/v1/messages',
      fix: 'eval "$(svc-proxy env claude-code)"',
    });
    expect(finding(redundant.json, 'shell OPENAI_BASE_URL')).toMatchObject({ mark: 'warn', fix: 'eval "$(svc-proxy env openai)"' });
    expect(finding(redundant.json, 'shell OPENAI_BASE_URL')!.text).toContain('/protocol-a/chat/completions (they add /chat/completions themselves), which svc-proxy answers as /protocol-a/v1/chat/completions');
    expect(redundant.text).toMatch(/^! shell ANTHROPIC_BASE_URL: /m);
    expect(redundant.text).toMatch(/^No problem found; \d warnings\.$/m); // (the keychain may warn too)

    await d.stop();
    const down = await doctor({ ANTHROPIC_BASE_URL: d.baseB(), ANTHROPIC_AUTH_TOKEN: d.key });
    expect(down.code).toBe(1);
    expect(finding(down.json, 'daemon')).toMatchObject({ mark: 'fail' });
    expect(finding(down.json, 'shell ANTHROPIC_BASE_URL')).toMatchObject({ mark: 'fail', fix: 'svc-proxy start (or svc-proxy service install, to have it at every login)' });
  });
});
