/**
 * The providers screen against a real daemon with no usable OS keychain (this file points D-Bus
 * nowhere): connect offers the 0600 file instead, disconnect, base URL, custom endpoints and local
 * servers with their model counts from real mock upstreams, and last errors from the request log.
 * The keychain path itself is in providers-keychain.test.tsx.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';

vi.hoisted(() => {
  process.env.DBUS_SESSION_BUS_ADDRESS = 'unix:path=/nonexistent/svc-proxy-tui-test-bus';
});

import { mkdir } from 'node:fs/promises';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { removeTempDirs, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
let chat: GenericChatMock;
let local: GenericChatMock;
beforeAll(async () => {
  chat = await new GenericChatMock({ name: 'custom', models: ['qwen3-coder', 'deepseek-r1', 'glm-4.6'] }).listen();
  local = await new GenericChatMock({ name: 'local', models: ['llama3.1:8b'] }).listen();
});
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(async () => {
  await chat.close();
  await local.close();
  await removeTempDirs();
});

/** A frame's text with its wrapping undone. */
const flat = (frame: string) => frame.replace(/\s+/g, ' ');

function rowOf(frame: string, name: string): string {
  return lines(frame).find((l) => l.startsWith(`${name} `)) ?? '';
}

/** The providers screen showing local server lm (and group work routing to it, when asked), its TUI backend returned for spying. */
async function providersWithLocal(group: boolean) {
  h = await startTui({ initialScreen: 'providers', size: { columns: 100, rows: 30 } });
  await h.d.admin('POST', '/admin/locals', { slug: 'lm', url: local.origin });
  if (group) await h.d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'coder', targets: ['lm/llama3.1:8b'] }] });
  await h.press('r');
  await h.waitFor((f) => rowOf(f, 'lm') !== '', 'the row');
  const state = h.link.state;
  if (state.status !== 'connected') throw new Error('the TUI is not connected');
  return { h, backend: state.backend };
}

describe('providers screen', () => {
  it('lists the built-in providers, not connected, with their base URLs', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 160, rows: 30 } });
    const f = await h.waitFor((fr) => fr.includes('gemini'), 'the providers');
    expect(f).toMatch(/NAME\s+KIND\s+CONNECTED\s+CREDENTIAL\s+MODELS\s+LAST ERROR\s+BASE URL/);
    for (const name of ['anthropic', 'openai', 'openrouter', 'gemini']) expect(rowOf(f, name)).toMatch(new RegExp(`^${name}\\s+built-in\\s+no\\s+-\\s+-\\s+-\\s+https://`));
    expect(rowOf(f, 'anthropic')).toContain('https://api.anthropic.com');
  });

  it('connect: hidden input, no keychain → asks before using the 0600 file; the key is never shown', async () => {
    const secret = 'sk-ant-tui-test-secret-9876';
    h = await startTui({ initialScreen: 'providers' });
    await h.waitFor((f) => f.includes('anthropic'), 'the list');
    await h.press('c');
    await h.waitFor((f) => f.includes('API key for anthropic:'), 'the hidden prompt');
    await h.type(secret);
    await h.waitFor((fr) => fr.includes(`(hidden, ${secret.length} characters)`), 'the hidden echo');
    let f: string;
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => fr.includes('No usable OS keychain'), 'the insecure-storage question');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('anthropic connected'), 'the connect');
    expect(f).toContain('key …9876 stored in the insecure credentials file');
    f = await h.waitFor((fr) => /^anthropic\s+built-in\s+yes\s/m.test(fr), 'the connected row');
    expect(f).toContain('credential  file (insecure) …9876');
    for (const frame of h.ui.frames) expect(frame).not.toContain(secret);
    const providers = (await h.d.admin('GET', '/admin/providers')).json() as { providers: { name: string; connected: boolean; source: string }[] };
    expect(providers.providers.find((p) => p.name === 'anthropic')).toMatchObject({ connected: true, source: 'file' });

    // Saying no stores nothing.
    await h.press(KEYS.down, 'c');
    await h.waitFor((fr) => fr.includes('API key for openai:'), 'the prompt');
    await h.type('sk-openai-nope-1111');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('No usable OS keychain'), 'the question');
    await h.press('n');
    await h.waitFor((fr) => fr.includes('Nothing stored.'), 'the refusal');
    expect(rowOf(h.frame(), 'openai')).toMatch(/^openai\s+built-in\s+no/);

    // Disconnect anthropic (asks first).
    await h.press(KEYS.up, 'd');
    await h.waitFor((fr) => fr.includes('Disconnect anthropic') && fr.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('anthropic disconnected'), 'the disconnect');
    expect(f).toContain('removed from file');
    await h.waitFor((fr) => /^anthropic\s+built-in\s+no/m.test(fr), 'the row');
    // A provider that is not connected has nothing to disconnect.
    await h.press('d');
    // said as `svc-proxy provider disconnect` says it
    await h.waitFor((fr) => flat(fr).includes('anthropic is not connected: no key is stored for it, so nothing was removed.'), 'the note');
  });

  it('disconnecting a provider connected only through its environment variable says the variable stays, in the CLI\'s words', async () => {
    const d = await startInProcess({ env: { SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), GEMINI_API_KEY: 'gemini-env-key-tui-7777' } });
    try {
      h = await startTui({ daemon: d, initialScreen: 'providers', size: { columns: 120, rows: 30 } });
      await h.waitFor((f) => /^gemini\s+built-in\s+yes/m.test(f), 'gemini connected through the environment');
      await h.press(KEYS.down, KEYS.down, KEYS.down, 'd');
      await h.waitFor((fr) => fr.includes('Disconnect gemini') && fr.includes('[y/N]'), 'the question');
      await h.press('y');
      // (this file has no usable keychain: that is said too, and does not hide the variable)
      const f = await h.waitFor((fr) => flat(fr).includes('unset it where the daemon is started'), 'the answer');
      expect(flat(f)).toMatch(
        /Nothing removed: gemini is connected through GEMINI_API_KEY in the daemon's environment, which svc-proxy does not change \(unset it where the daemon is started\); no key for gemini in the 0600 file, and the OS keychain could not be checked \(/,
      );
      expect(f).not.toContain('had no stored key');
      expect(rowOf(h.frame(), 'gemini')).toMatch(/^gemini\s+built-in\s+yes/);
    } finally {
      await h?.close();
      h = undefined;
      await d.daemon.stop('test over');
    }
  });

  it('at 20x10 asks about the 0600 file in fewer words, keeping its [y/N] in view', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 20, rows: 10 } });
    await h.waitFor((f) => f.includes('anthropic'), 'the list');
    await h.press('c');
    await h.waitFor((f) => f.includes('API key:'), 'the hidden prompt');
    await h.type('sk-ant-tui-narrow-5555');
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('keychain'), 'the insecure-storage question');
    expect(f.replace(/\s+/g, ' '), f).toContain('No keychain. File (insecure)? [y/N]');
    for (const l of lines(f)) expect(l.length, l).toBeLessThanOrEqual(20);
    await h.press('n');
    await h.waitFor((fr) => fr.includes('Nothing stored.'), 'the refusal');
  });

  it('sets and resets a base URL', async () => {
    h = await startTui({ initialScreen: 'providers' });
    await h.waitFor((f) => f.includes('openrouter'), 'the list');
    await h.press(KEYS.down, KEYS.down, 'u');
    const f = await h.waitFor((fr) => fr.includes('Base URL for openrouter:'), 'the field');
    expect(f).toContain('https://openrouter.ai/api/v1');
    // the hint says how to empty the field, not only what empty does
    expect(f).toContain('Ctrl-U clears: empty restores the default. Enter saves.');
    await h.press('\x15');
    await h.type('http://127.0.0.1:9/v1');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('openrouter base URL: http://127.0.0.1:9/v1'), 'the change');
    await h.waitFor((fr) => fr.includes('base URL    http://127.0.0.1:9/v1 (override)'), 'the refreshed row');
    await h.press('u');
    await h.waitFor((fr) => fr.includes('Base URL for openrouter:'), 'the field');
    await h.press('\x15', KEYS.enter);
    await h.waitFor((fr) => fr.includes('(default)'), 'the reset');
  });

  it('u opens with a base URL a hand-edited config holds with a password and a signature masked; left as it was, it is refused and the file keeps it', async () => {
    const stateDir = await tempStateDir();
    const held = 'http://canaryuser:CanaryUrlPass0007@127.0.0.1:9/v1?sig=CanarySig0008';
    const store = await ConfigStore.open(statePaths(stateDir));
    await store.update((c) => {
      c.providers.anthropic = { ...c.providers.anthropic, enabled: true, baseUrl: held };
    });
    const daemon = await startInProcess({ stateDir });
    h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 160, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('u');
    await h.waitFor((f) => f.includes('Base URL for anthropic: http://***@127.0.0.1:9/v1?sig=***'), 'the field, masked');
    await h.press(KEYS.enter);
    await h.waitFor((f) => flat(f).includes('*** stands for a value shown masked, not a value'), 'the refusal');
    await h.press(KEYS.escape);
    expect((await ConfigStore.open(statePaths(stateDir))).current().providers.anthropic?.baseUrl).toBe(held);
    for (const frame of h.ui.frames) for (const secret of ['CanaryUrlPass0007', 'CanarySig0008']) expect(frame).not.toContain(secret);
  });

  it('a refused base URL keeps the field open with the URL and the reason; fixed, Enter saves it; Esc cancels', async () => {
    h = await startTui({ initialScreen: 'providers' });
    await h.waitFor((f) => f.includes('openrouter'), 'the list');
    await h.press(KEYS.down, KEYS.down, 'u');
    await h.waitFor((fr) => fr.includes('Base URL for openrouter:'), 'the field');
    await h.press('\x15');
    await h.type('http://127.0.0.1:9/v1#top');
    await h.press(KEYS.enter);
    let f = await h.waitFor((fr) => flat(fr).includes('cannot have a #fragment'), 'the reason');
    expect(lines(f)).toContain('Base URL for openrouter: http://127.0.0.1:9/v1#top');
    expect(f).toContain('Esc cancel');
    // fixed where it was wrong, not typed again
    await h.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.enter);
    await h.waitFor((fr) => fr.includes('openrouter base URL: http://127.0.0.1:9/v1'), 'the change');
    // refused again, then Esc: the field closes, the reason with it, and the URL stays as it was
    await h.press('u');
    await h.waitFor((fr) => fr.includes('Base URL for openrouter:'), 'the field');
    await h.press('\x15');
    await h.type('127.0.0.1:8/v1');
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => flat(fr).includes('is not a valid URL'), 'the reason');
    expect(lines(f)).toContain('Base URL for openrouter: 127.0.0.1:8/v1');
    await h.press(KEYS.escape);
    const closed = await h.waitFor((fr) => !fr.includes('Base URL for openrouter:'), 'the field to close');
    expect(closed).not.toContain('is not a valid URL');
    const providers = (await h.d.admin('GET', '/admin/providers')).json() as { providers: { name: string; baseUrl: string }[] };
    expect(providers.providers.find((p) => p.name === 'openrouter')?.baseUrl).toBe('http://127.0.0.1:9/v1');
  });

  it('a refused endpoint asks again at the answer refused, the answers before and after it kept', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 120, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('e');
    await h.waitFor((f) => f.includes('Add a custom endpoint'), 'the wizard');
    for (const answer of ['gw', 'api.example.test/v1', 'a', '', 'x-team=42']) {
      await h.type(answer);
      await h.press(KEYS.enter);
    }
    await h.waitFor((f) => f.includes('API key (hidden'), 'the credential question');
    await h.press(KEYS.enter); // none: this file has no keychain to keep one in
    // the daemon refuses the URL: the wizard asks it again, as typed, the name kept above it
    const f = await h.waitFor((fr) => flat(fr).includes('is not a valid URL'), 'the reason');
    expect(lines(f)).toContain('Base URL: api.example.test/v1');
    expect(lines(f).some((l) => /^Name.*: gw$/.test(l))).toBe(true);
    await h.press('\x15');
    await h.type(chat.baseUrl);
    await h.press(KEYS.enter);
    // the later answers come back as typed: Enter keeps each
    await h.waitFor((fr) => lines(fr).some((l) => l.startsWith('Format, a') && l.endsWith(': a')), 'the format kept');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Header that carries the key'), 'the key header question');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => lines(fr).some((l) => l.startsWith('Fixed headers') && l.endsWith('x-team=42')), 'the headers kept');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('API key (hidden'), 'the credential question');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Endpoint gw added'), 'the endpoint');
    const added = (await h.d.admin('GET', '/admin/endpoints')).json() as { endpoints: Array<{ slug: string; url: string; headers?: Record<string, string> }> };
    expect(added.endpoints.find((e) => e.slug === 'gw')).toMatchObject({ url: chat.baseUrl, headers: { 'x-team': '42' } });
  });

  /** The endpoint wizard answered up to its key, `key` typed there and Enter pressed. */
  async function endpointWithKey(slug: string, key: string) {
    h = await startTui({ initialScreen: 'providers', size: { columns: 120, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('e');
    await h.waitFor((f) => f.includes('Add a custom endpoint'), 'the wizard');
    for (const answer of [slug, chat.baseUrl, 'a', '', '', key]) {
      await h.type(answer);
      await h.press(KEYS.enter);
    }
    return h;
  }

  it('an endpoint with a key and no keychain asks before using the 0600 file, as connect does; y adds it, the key in the file', async () => {
    const h = await endpointWithKey('gw', 'sk-gw-file-5678');
    const f = await h.waitFor((fr) => flat(fr).includes('[y/N]'), 'the insecure-storage question');
    expect(flat(f)).toContain('No usable OS keychain. Store the gw key in a 0600 file in the state directory instead (insecure)? [y/N]');
    expect((await h.d.admin('GET', '/admin/endpoints')).json()).toEqual({ endpoints: [] });
    await h.press('y');
    await h.waitFor((fr) => fr.includes('Endpoint gw added'), 'the endpoint');
    const added = (await h.d.admin('GET', '/admin/endpoints')).json() as { endpoints: Array<{ slug: string; hasCredential: boolean; source: string | null }> };
    expect(added.endpoints.find((e) => e.slug === 'gw')).toMatchObject({ hasCredential: true, source: 'file' });
    for (const frame of h.ui.frames) expect(frame).not.toContain('sk-gw-file-5678');
  });

  it('n stores nothing and asks for the endpoint’s key again, hidden, every answer kept; empty adds it without one', async () => {
    const h = await endpointWithKey('gw', 'sk-gw-1234');
    await h.waitFor((fr) => flat(fr).includes('[y/N]'), 'the insecure-storage question');
    await h.press('n');
    const f = await h.waitFor((fr) => flat(fr).includes('Nothing stored. Leave the key empty to add gw without one.'), 'the key asked again');
    expect(lines(f)).toContain('API key (hidden; empty if it needs none): (hidden, 10 characters)');
    expect(lines(f)).toContain('Name (used as provider in model ids): gw');
    expect((await h.d.admin('GET', '/admin/endpoints')).json()).toEqual({ endpoints: [] });
    await h.press('\x15', KEYS.enter);
    await h.waitFor((fr) => fr.includes('Endpoint gw added'), 'the endpoint');
    const added = (await h.d.admin('GET', '/admin/endpoints')).json() as { endpoints: Array<{ slug: string; url: string; hasCredential: boolean }> };
    expect(added.endpoints.find((e) => e.slug === 'gw')).toMatchObject({ url: chat.baseUrl, hasCredential: false });
    for (const frame of h.ui.frames) expect(frame).not.toContain('sk-gw-1234');
  });

  it('an endpoint refused for no named answer (its 0600 file unwritable) asks again from the first, every answer kept', async () => {
    const h = await endpointWithKey('gw', 'sk-gw-1234');
    await h.waitFor((fr) => flat(fr).includes('[y/N]'), 'the insecure-storage question');
    // a directory where the file goes: the daemon cannot store the key, and says no more than that
    await mkdir(h.d.daemon.paths.credentialsFile);
    await h.press('y');
    const f = await h.waitFor((fr) => flat(fr).includes('Internal error'), 'the reason');
    expect(lines(f)).toContain('Name (used as provider in model ids): gw');
    await h.press(KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter, KEYS.enter);
    // the key typed comes back too, still hidden
    const kept = await h.waitFor((fr) => fr.includes('API key (hidden; empty if it needs none): (hidden, 10 characters)'), 'the key kept');
    expect(kept).not.toContain('sk-gw-1234');
    await h.press(KEYS.escape);
    await h.waitFor((fr) => !fr.includes('Add a custom endpoint'), 'the wizard to close');
    const endpoints = (await h.d.admin('GET', '/admin/endpoints')).json() as { endpoints: unknown[] };
    expect(endpoints.endpoints).toEqual([]);
  });

  it('a refused local server asks again at the name or URL refused; Esc closes it and adds nothing', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 120, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('l');
    await h.waitFor((f) => f.includes('Add a local model server'), 'the wizard');
    await h.type('lm');
    await h.press(KEYS.enter);
    await h.type('ftp://127.0.0.1:1');
    await h.press(KEYS.enter);
    let f = await h.waitFor((fr) => flat(fr).includes('only http and https'), 'the reason');
    expect(lines(f)).toContain('URL: ftp://127.0.0.1:1');
    expect(lines(f)).toContain('Name: lm');
    await h.press('\x15');
    await h.type(local.origin);
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Local server lm added'), 'the server');
    // a name taken: asked again from the name, the URL kept; Esc closes it and the reason with it
    await h.press('l');
    await h.waitFor((fr) => fr.includes('Add a local model server'), 'the wizard');
    await h.type('openai');
    await h.press(KEYS.enter);
    await h.type(local.origin);
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => flat(fr).includes("built-in provider's name"), 'the reason');
    expect(lines(f)).toContain('Name: openai');
    await h.press(KEYS.escape);
    const closed = await h.waitFor((fr) => !fr.includes('Add a local model server'), 'the wizard to close');
    expect(closed).not.toContain("built-in provider's name");
    const locals = (await h.d.admin('GET', '/admin/locals')).json() as { locals: Array<{ slug: string }> };
    expect(locals.locals.map((l) => l.slug)).toEqual(['lm']);
  });

  it('adds a custom endpoint and a local server; model counts come from the upstreams; removes them', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 120, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('e');
    await h.waitFor((f) => f.includes('Add a custom endpoint'), 'the wizard');
    await h.type('mychat');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('Base URL:'), 'the URL question');
    await h.type(chat.baseUrl);
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('Format, a'), 'the format question');
    await h.type('x');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('Type a or b.'), 'the format check');
    await h.press(KEYS.backspace);
    await h.type('a');
    await h.press(KEYS.enter);
    // a company gateway's headers: a header for the key (none here), and fixed ones, checked as typed
    await h.waitFor((f) => f.includes('Header that carries the key'), 'the key header question');
    await h.press(KEYS.enter); // the format's own
    await h.waitFor((f) => f.includes('Fixed headers, name=value'), 'the fixed headers question');
    await h.type('x-team=42; cookie=abc');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('Cookie cannot be a fixed header'), 'the refusal of a credential header');
    for (let i = 0; i < '; cookie=abc'.length; i++) await h.press(KEYS.backspace);
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('API key (hidden'), 'the credential question');
    await h.press(KEYS.enter); // none
    let f = await h.waitFor((fr) => fr.includes('Endpoint mychat added'), 'the endpoint');
    f = await h.waitFor((fr) => /^mychat\s+endpoint A\s+yes\s+none needed\s+3\s/m.test(fr), 'its model count', 10_000);
    expect(rowOf(f, 'mychat')).toContain(chat.baseUrl);
    const added = (await h.d.admin('GET', '/admin/endpoints')).json() as { endpoints: Array<{ slug: string; headers?: Record<string, string> }> };
    expect(added.endpoints.find((e) => e.slug === 'mychat')?.headers).toEqual({ 'x-team': '42' });
    // the models came through the header too: the upstream saw it
    expect(chat.requests.some((r) => r.headers['x-team'] === '42')).toBe(true);

    await h.press('l');
    await h.waitFor((fr) => fr.includes('Add a local model server'), 'the wizard');
    await h.type('lm');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('URL:'), 'the URL question');
    await h.type(local.origin);
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Local server lm added'), 'the local server');
    f = await h.waitFor((fr) => /^lm\s+local\s+yes\s+none needed\s+1\s/m.test(fr), 'its model count', 10_000);

    // Remove both (each asks first).
    await h.press(KEYS.end, 'd');
    await h.waitFor((fr) => fr.includes('Remove local server lm?') && fr.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await h.waitFor((fr) => fr.includes('Local server lm removed.'), 'the removal');
    await h.press(KEYS.end, 'd');
    await h.waitFor((fr) => fr.includes('Remove endpoint mychat') && fr.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    await h.waitFor((fr) => fr.includes('Endpoint mychat removed.'), 'the removal');
    await h.waitFor((fr) => rowOf(fr, 'mychat') === '', 'the row to go');
    const endpoints = (await h.d.admin('GET', '/admin/endpoints')).json() as { endpoints: unknown[] };
    expect(endpoints.endpoints).toEqual([]);
  });

  it('removing an endpoint or a local server that a model group still routes to says so', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 100, rows: 30 } });
    await h.d.admin('POST', '/admin/endpoints', { slug: 'gw', url: chat.baseUrl, format: 'a' });
    await h.d.admin('POST', '/admin/locals', { slug: 'lm', url: local.origin });
    await h.d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'coder', targets: ['gw/qwen3-coder', 'lm/llama3.1:8b'] }] });
    await h.press('r');
    await h.waitFor((f) => rowOf(f, 'gw') !== '' && rowOf(f, 'lm') !== '', 'both rows');
    await h.press(KEYS.end, 'd');
    await h.waitFor((f) => f.includes('Remove local server lm?') && f.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    let f = await h.waitFor((fr) => fr.includes('Local server lm removed.'), 'the removal');
    expect(f.replace(/\s+/g, ' ')).toMatch(/group work .*coder.*lm\/llama3\.1:8b/);
    await h.waitFor((fr) => rowOf(fr, 'lm') === '', 'the row to go');
    await h.press(KEYS.end, 'd');
    await h.waitFor((fr) => fr.includes('Remove endpoint gw') && fr.includes('[y/N]'), 'the question, the groups checked');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('Endpoint gw removed.'), 'the removal');
    expect(f.replace(/\s+/g, ' ')).toMatch(/group work .*coder.*gw\/qwen3-coder/);
  });

  it('the removal question itself names the groups that still route there, so n can keep it', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 100, rows: 30 } });
    await h.d.admin('POST', '/admin/endpoints', { slug: 'gw', url: chat.baseUrl, format: 'a' });
    await h.d.admin('POST', '/admin/locals', { slug: 'lm', url: local.origin });
    await h.d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'coder', targets: ['gw/qwen3-coder', 'lm/llama3.1:8b'] }] });
    await h.d.admin('POST', '/admin/groups', { slug: 'home', models: [{ name: 'chat', targets: ['gw/glm-4.6'] }] });
    await h.press('r');
    await h.waitFor((f) => rowOf(f, 'gw') !== '' && rowOf(f, 'lm') !== '', 'both rows');
    await h.press(KEYS.end, 'd');
    let f = await h.waitFor((fr) => fr.includes('Remove local server lm?') && fr.includes('group work'), 'the question with the group');
    expect(f.replace(/\s+/g, ' ')).toMatch(/Remove local server lm\? Model group work still routes coder to lm\/llama3\.1:8b; those targets would then fail\. \[y\/N\]/);
    expect(f).not.toContain('group home'); // it routes only to gw
    await h.press('n');
    await h.waitFor((fr) => !fr.includes('Remove local server lm?'), 'the question to go');
    const locals = (await h.d.admin('GET', '/admin/locals')).json() as { locals: Array<{ slug: string }> };
    expect(locals.locals.map((l) => l.slug)).toContain('lm');

    // the endpoint: both groups, named before anything is removed
    await h.press(KEYS.up, 'd');
    f = await h.waitFor((fr) => fr.includes('Remove endpoint gw') && fr.includes('group home'), 'the question with both groups');
    expect(f.replace(/\s+/g, ' ')).toMatch(/Model group work still routes coder to gw\/qwen3-coder; model group home still routes chat to gw\/glm-4\.6/);
    await h.press(KEYS.escape);
    await h.waitFor((fr) => !fr.includes('Remove endpoint gw'), 'the question to go');
    expect(rowOf(h.frame(), 'gw')).not.toBe('');
  });

  it('disconnecting a built-in provider names the groups that still route there, in the question and after', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 120, rows: 30 } });
    await h.d.admin('PUT', '/admin/providers/openai/credential', { credential: 'sk-openai-tui-groups-4242', insecureStorage: true });
    await h.d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'fast', targets: ['openai/gpt-5-mini', 'anthropic/claude-haiku-4-5'] }] });
    await h.d.admin('POST', '/admin/groups', { slug: 'home', models: [{ name: 'chat', targets: ['anthropic/claude-sonnet-4-5'] }] });
    await h.press('r');
    await h.waitFor((f) => /^openai\s+built-in\s+yes/m.test(f), 'openai connected');
    await h.press(KEYS.down, 'd');
    let f = await h.waitFor((fr) => fr.includes('Disconnect openai') && fr.includes('group work'), 'the question with the group');
    expect(f.replace(/\s+/g, ' ')).toMatch(/Disconnect openai \(remove its stored API key\)\? Model group work still routes fast to openai\/gpt-5-mini; those targets would then fail\. \[y\/N\]/);
    expect(f).not.toContain('group home'); // it routes only to anthropic
    await h.press('n');
    await h.waitFor((fr) => !fr.includes('Disconnect openai'), 'the question to go');
    expect(rowOf(h.frame(), 'openai')).toMatch(/^openai\s+built-in\s+yes/);

    await h.press('d');
    await h.waitFor((fr) => fr.includes('Disconnect openai') && fr.includes('group work'), 'the question again');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('openai disconnected'), 'the disconnect');
    expect(f.replace(/\s+/g, ' ')).toMatch(/Note: model group work still routes fast to openai\/gpt-5-mini; those targets now fail/);
  });

  it('y does nothing while the groups are being checked; the question names them before it removes', async () => {
    const { h, backend } = await providersWithLocal(true);
    // the groups answer only when the test lets them
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const real = backend.groups.list.bind(backend.groups);
    vi.spyOn(backend.groups, 'list').mockImplementation(async () => {
      await held;
      return real();
    });
    await h.press(KEYS.end, 'd');
    let f = await h.waitFor((fr) => fr.includes('Remove local server lm?'), 'the question');
    expect(f).toContain('[checking groups…]');
    expect(f).not.toContain('[y/N]');
    await h.press('y');
    await new Promise((r) => setTimeout(r, 150)); // time for a removal, were y taken
    expect(((await h.d.admin('GET', '/admin/locals')).json() as { locals: Array<{ slug: string }> }).locals.map((l) => l.slug)).toContain('lm');
    expect(h.frame()).toContain('Remove local server lm?');

    release();
    f = await h.waitFor((fr) => fr.includes('[y/N]'), 'the groups checked');
    expect(f.replace(/\s+/g, ' ')).toMatch(/Remove local server lm\? Model group work still routes coder to lm\/llama3\.1:8b; those targets would then fail\. \[y\/N\]/);
    await h.press('y');
    await h.waitFor((fr) => fr.includes('Local server lm removed.'), 'the removal');
  });

  it('n and Esc still cancel while the groups are being checked', async () => {
    const { h, backend } = await providersWithLocal(false);
    vi.spyOn(backend.groups, 'list').mockImplementation(() => new Promise(() => {}));
    await h.press(KEYS.end, 'd');
    await h.waitFor((fr) => fr.includes('[checking groups…]'), 'the question');
    await h.press('n');
    await h.waitFor((fr) => !fr.includes('Remove local server lm?'), 'the question to go');
    await h.press('d');
    await h.waitFor((fr) => fr.includes('[checking groups…]'), 'the question again');
    await h.press(KEYS.escape);
    await h.waitFor((fr) => !fr.includes('Remove local server lm?'), 'the question to go');
    expect(rowOf(h.frame(), 'lm')).not.toBe('');
  });

  it('the removal question still comes when the groups cannot be loaded, without a list', async () => {
    const { h, backend } = await providersWithLocal(true);
    const list = vi.spyOn(backend.groups, 'list').mockRejectedValue(new Error('groups unavailable'));
    await h.press(KEYS.end, 'd');
    const f = await h.waitFor((fr) => fr.includes('Remove local server lm?') && fr.includes('[y/N]'), 'the question, once the load failed');
    expect(list).toHaveBeenCalled();
    expect(f.replace(/\s+/g, ' ')).toContain('Remove local server lm? (The model groups routing to it could not be checked.) [y/N]');
    expect(f).not.toContain('group work');
    expect(f).not.toContain('groups unavailable');
    await h.press('y');
    await h.waitFor((fr) => fr.includes('Local server lm removed.'), 'the removal');
  });

  it('a server whose model list fails shows ! and, selected, why', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 160, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('l');
    await h.waitFor((fr) => fr.includes('Add a local model server'), 'the wizard');
    await h.type('dead');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('URL:'), 'the URL question');
    await h.type('http://127.0.0.1:9'); // discard port: nothing listens
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Local server dead added'), 'the local server');
    await h.waitFor((fr) => /^dead\s+local\s+yes\s+none needed\s+!\s/m.test(fr), 'its failed list', 10_000);
    await h.press(KEYS.end);
    const f = await h.waitFor((fr) => fr.includes('(list failed: '), 'the reason in the detail');
    expect(f).toMatch(/models ! \(list failed: upstream_unreachable: Could not connect to http:\/\/127\.0\.0\.1:9/);
  });

  it('shows each provider\'s last error from the request log, fallbacks included', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 140, rows: 30 } });
    h.log(
      makeEntry({
        status: 200,
        provider: 'anthropic',
        fallback: true,
        attempts: [
          { target: 'openai/gpt-5', status: 429, latencyMs: 30, errorCode: 'rate_limited' },
          { target: 'anthropic/claude-sonnet-4-5', status: 200, latencyMs: 500 },
        ],
      }),
      makeEntry({ status: 400, modelAsked: 'gemini/gemini-2.5-flash', provider: undefined, model: undefined, attempts: [], errorCode: 'provider_not_connected' }),
    );
    const f = await h.waitFor((fr) => rowOf(fr, 'openai').includes('429 rate_limited'), 'the last errors');
    expect(rowOf(f, 'openai')).toContain('429 rate_limited, just now');
    expect(rowOf(f, 'gemini')).toContain('400 provider_not_connected');
    expect(rowOf(f, 'anthropic')).toMatch(/built-in\s+no\s+-\s+-\s+-\s+https/);
  });

  it('h sets the headers of a built-in provider behind a gateway, shows them, and takes them off again', async () => {
    h = await startTui({ initialScreen: 'providers', size: { columns: 160, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('h');
    await h.waitFor((f) => f.includes('Headers for anthropic behind a gateway'), 'the wizard');
    await h.type('x api key');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('"x api key" is not a header name'), 'the check');
    for (let i = 0; i < 'x api key'.length; i++) await h.press(KEYS.backspace);
    await h.type('x-gw-key');
    await h.press(KEYS.enter);
    // the key's own header cannot also be a fixed one (it would sit in config.json): refused against the answer before
    await h.type('x-gw-key=1');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('X-gw-key cannot be a fixed header'), 'the refusal');
    for (let i = 0; i < 'x-gw-key=1'.length; i++) await h.press(KEYS.backspace);
    await h.type('x-team=alpha; x-project=p7');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('anthropic headers: key in x-gw-key; x-team=alpha; x-project=p7'), 'the result');
    await h.waitFor((fr) => fr.includes('· headers key in x-gw-key; x-team=alpha; x-project=p7'), 'the detail line');
    const providers = (await h.d.admin('GET', '/admin/providers')).json() as { providers: Array<{ name: string; authHeader?: string; headers?: Record<string, string> }> };
    expect(providers.providers.find((p) => p.name === 'anthropic')).toMatchObject({ authHeader: 'x-gw-key', headers: { 'x-team': 'alpha', 'x-project': 'p7' } });

    // both emptied: none again
    await h.press('h');
    await h.waitFor((fr) => fr.includes('Headers for anthropic'), 'the wizard, with the current values');
    for (let i = 0; i < 'x-gw-key'.length; i++) await h.press(KEYS.backspace);
    await h.press(KEYS.enter);
    for (let i = 0; i < 'x-team=alpha; x-project=p7'.length; i++) await h.press(KEYS.backspace);
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('anthropic headers: none'), 'the removal');
    await h.waitFor((fr) => !fr.includes('· headers'), 'the detail line without them');
    const after = (await h.d.admin('GET', '/admin/providers')).json() as { providers: Array<{ name: string; authHeader?: string; headers?: unknown }> };
    const anthropic = after.providers.find((p) => p.name === 'anthropic')!;
    expect(anthropic.authHeader).toBeUndefined();
    expect(anthropic.headers).toBeUndefined();
  });

  it('h opens with a credential a hand-edited config holds in a fixed header masked, and keeps it when *** is left as it was', async () => {
    const secret = 'sk-ant-api03-HandEditedSecret0123456789abcdef';
    const stateDir = await tempStateDir();
    const store = await ConfigStore.open(statePaths(stateDir));
    await store.update((c) => {
      c.providers.anthropic = { ...c.providers.anthropic, enabled: true, headers: { 'X-Gw-Token': secret, 'x-team': 'alpha' } };
    });
    const daemon = await startInProcess({ stateDir });
    h = await startTui({ daemon, initialScreen: 'providers', size: { columns: 160, rows: 30 } });
    await h.waitFor((f) => f.includes('gemini'), 'the list');
    await h.press('h');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('X-Gw-Token=***; x-team=alpha'), 'the fixed headers, the credential masked');
    // a *** that keeps nothing is refused: it would reach the upstream as it is
    await h.type('; x-new=***');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('*** keeps a value x-new already has, and it has none to keep'), 'the refusal');
    for (let i = 0; i < '; x-new=***'.length; i++) await h.press(KEYS.backspace);
    await h.type('; x-project=p7');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('anthropic headers: x-gw-token=***; x-team=alpha; x-project=p7'), 'the result');
    // the TUI never had the value (the admin API shows it masked), so it kept it by the marker
    const listed = await h.d.admin('GET', '/admin/providers');
    expect(listed.text).not.toContain('HandEditedSecret');
    expect((listed.json() as { providers: Array<{ name: string; headers?: Record<string, string> }> }).providers.find((p) => p.name === 'anthropic')!.headers).toEqual({ 'x-gw-token': '***', 'x-team': 'alpha', 'x-project': 'p7' });
    expect((await ConfigStore.open(statePaths(stateDir))).current().providers.anthropic?.headers).toEqual({ 'x-gw-token': secret, 'x-team': 'alpha', 'x-project': 'p7' });
    for (const frame of h.ui.frames) expect(frame).not.toContain('HandEditedSecret');
  });

  it('explains what c, u and d do not do for endpoints and local servers', async () => {
    h = await startTui({ initialScreen: 'providers' });
    await h.d.admin('POST', '/admin/locals', { slug: 'box', url: local.origin });
    await h.press('r');
    await h.waitFor((f) => f.includes('box'), 'the local server');
    await h.press(KEYS.end, 'c');
    await h.waitFor((f) => f.includes('Local servers need no credential.'), 'the note');
    await h.press('u');
    await h.waitFor((f) => f.includes('Only built-in providers have a base URL to override'), 'the note');
  });
});
