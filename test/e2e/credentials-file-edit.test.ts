/**
 * The credentials file (the store used without a keychain) edited by hand while the daemon runs:
 * the daemon watches it as it watches config.json, so a changed key is what the next request
 * sends upstream, an unusable one is refused as provider_credential_invalid, and a removed one
 * leaves the provider not connected — whether the editor wrote the file in place or renamed a new
 * one over it; a file caught half-saved keeps what was loaded. The daemon's own writes keep the
 * file 0600.
 */
import { chmod, rename, stat, unlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, testKeychainService } from '../daemon/harness.js';
import { sleep, startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { AnthropicMock } from '../fixtures/mock-upstream/index.js';
import { anthropicRefusal } from '../fixtures/sdk-refusals.js';

const MODEL = 'anthropic/claude-sonnet-4-5';

let d: TestDaemon;
let mock: AnthropicMock;
let file: string;

/** The file as an editor leaves it: written in place, or a new file renamed over the old one. */
async function writeCredentials(credentials: Record<string, string>, how: 'in-place' | 'rename-over'): Promise<void> {
  const text = JSON.stringify({ version: 1, credentials }, null, 2);
  if (how === 'in-place') return writeFile(file, text);
  const tmp = `${file}.editor-tmp`;
  await writeFile(tmp, text, { mode: 0o600 });
  await rename(tmp, file);
}

/** The key the mock received for one request, or the refusal the client got. */
async function keySent(): Promise<string | { code: string }> {
  const before = mock.requests.length;
  const refusal = await anthropicRefusal(d, MODEL);
  if (refusal) return { code: refusal.error.error.code };
  return String(mock.requests.slice(before).find((r) => mock.plugin.isGeneration(r))?.headers['x-api-key']);
}

/** Requests until one gets `expected` (bounded): the watch reports an edit after a short quiet time. */
async function untilSent(expected: string | { code: string }): Promise<string | { code: string }> {
  const deadline = Date.now() + 4_000;
  let last = await keySent();
  while (JSON.stringify(last) !== JSON.stringify(expected) && Date.now() < deadline) {
    await sleep(100);
    last = await keySent();
  }
  return last;
}

beforeAll(async () => {
  mock = await new AnthropicMock({}).listen();
  // no usable keychain (and a service of its own, should one answer): credentials live in the file
  d = await startDaemon({
    env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() },
    setup: async (t) => {
      file = join(t.home, 'credentials.json');
      await t.cli(['provider', 'set', 'anthropic', '--base-url', mock.baseUrl]);
      await writeFile(file, JSON.stringify({ version: 1, credentials: { anthropic: 'sk-ant-first-key-0001' } }), { mode: 0o600 });
    },
  });
}, 60_000);
afterAll(async () => {
  await stopDaemon(d);
  await mock?.close();
});

describe('credentials.json edited while the daemon runs', () => {
  it('a key changed by renaming a new file over the old one is sent from then on', async () => {
    expect(await keySent()).toBe('sk-ant-first-key-0001');
    await writeCredentials({ anthropic: 'sk-ant-second-key-0002' }, 'rename-over');
    expect(await untilSent('sk-ant-second-key-0002')).toBe('sk-ant-second-key-0002');
    expect(await keySent()).toBe('sk-ant-second-key-0002');
  });

  it('a key written in place that fails the checks is refused as provider_credential_invalid, and never sent', async () => {
    const sentBefore = mock.requests.length;
    await writeCredentials({ anthropic: '"sk-ant-quoted-key-0003"' }, 'in-place');
    expect(await untilSent({ code: 'provider_credential_invalid' })).toEqual({ code: 'provider_credential_invalid' });
    expect(mock.requests.slice(sentBefore).map((r) => r.headers['x-api-key'])).not.toContain('"sk-ant-quoted-key-0003"');
    await writeCredentials({ anthropic: 'sk-ant-third-key-0004' }, 'in-place');
    expect(await untilSent('sk-ant-third-key-0004')).toBe('sk-ant-third-key-0004');
  });

  it('a half-saved file (not JSON) keeps the key in force and daemon.log says why, without the file', async () => {
    await writeFile(file, '{"version": 1, "credentials": {"anthropic": "sk-ant-half-');
    const deadline = Date.now() + 4_000;
    while (!d.log.includes('is not valid JSON') && Date.now() < deadline) await sleep(100);
    expect(d.log).toContain(`${file} is not valid JSON; fix or delete it and connect again; keeping the credentials already loaded for anthropic`);
    expect(await keySent()).toBe('sk-ant-third-key-0004');
    expect(d.log).not.toContain('sk-ant-');
  });

  it('a key removed from the file, or the file deleted, leaves the provider not connected', async () => {
    await writeCredentials({}, 'rename-over');
    expect(await untilSent({ code: 'provider_not_connected' })).toEqual({ code: 'provider_not_connected' });
    await writeCredentials({ anthropic: 'sk-ant-fourth-key-0005' }, 'rename-over');
    expect(await untilSent('sk-ant-fourth-key-0005')).toBe('sk-ant-fourth-key-0005');
    await unlink(file);
    expect(await untilSent({ code: 'provider_not_connected' })).toEqual({ code: 'provider_not_connected' });
  });

  it("the daemon's own write (provider connect) leaves the file 0600, even after a hand chmod, and its key is used at once", async () => {
    await writeCredentials({ anthropic: 'sk-ant-fifth-key-0006' }, 'in-place');
    expect(await untilSent('sk-ant-fifth-key-0006')).toBe('sk-ant-fifth-key-0006');
    await chmod(file, 0o644);
    const connected = await d.cli(['provider', 'connect', 'anthropic', '--insecure-storage'], { input: 'sk-ant-connected-key-0007\n' });
    expect(connected.code, connected.stderr).toBe(0);
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await keySent()).toBe('sk-ant-connected-key-0007');
    expect(d.log).not.toContain('sk-ant-');
  });
});
