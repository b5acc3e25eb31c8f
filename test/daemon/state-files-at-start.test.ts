/**
 * What the daemon does with config.json and credentials.json right after it started, and when
 * credentials.json is then edited by hand: the files it just read are not read again for nothing
 * (each credentials re-read asks the keychain once per provider), and an edit is named in
 * daemon.log by provider — never by value — as config.json's is.
 */
import { rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ConfigStore } from '../../src/config/store.js';
import { CredentialStore } from '../../src/secrets/credentials.js';
import { NO_KEYCHAIN_ENV, removeTempDirs, tempStateDir, testKeychainService } from './harness.js';
import { startInProcess, type InProcessDaemon } from './in-process.js';

const daemons: InProcessDaemon[] = [];
afterEach(async () => {
  vi.restoreAllMocks();
  await Promise.all(daemons.splice(0).map((d) => d.daemon.stop('test done')));
  await removeTempDirs();
});

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The credentials file as an editor saves it: a new file renamed over the old one. */
async function saveCredentials(dir: string, credentials: Record<string, string>): Promise<void> {
  const file = join(dir, 'credentials.json');
  await writeFile(`${file}.tmp`, JSON.stringify({ version: 1, credentials }), { mode: 0o600 });
  await rename(`${file}.tmp`, file);
}

async function start(dir: string): Promise<InProcessDaemon> {
  const d = await startInProcess({
    stateDir: dir,
    // no usable keychain: the credentials live in the file; the watchers poll every 20 ms
    env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() },
    stateFileWatch: { pollMs: 20, watchDirectory: false },
  });
  daemons.push(d);
  return d;
}

describe('the state files after start', () => {
  it('the watchers do not read again the config and credentials the daemon just loaded', async () => {
    const dir = await tempStateDir();
    await saveCredentials(dir, { anthropic: 'sk-ant-loaded-at-start-0001' });
    const credentialReads = vi.spyOn(CredentialStore.prototype, 'read');
    const configReloads = vi.spyOn(ConfigStore.prototype, 'reload');
    const d = await start(dir);
    const readsAtStart = credentialReads.mock.calls.length;
    expect(readsAtStart).toBeGreaterThan(0); // the load itself
    expect(d.deps.credential('anthropic')).toBe('sk-ant-loaded-at-start-0001');
    await sleep(300); // ~15 looks of each watcher
    expect(credentialReads.mock.calls.length).toBe(readsAtStart);
    expect(configReloads).not.toHaveBeenCalled();
  });

  it('daemon.log names the providers whose key a hand edit of credentials.json added, replaced or removed, never a key', async () => {
    const dir = await tempStateDir();
    await saveCredentials(dir, { anthropic: 'sk-ant-first-key-0001', openai: 'sk-openai-first-key-0001' });
    const d = await start(dir);
    await saveCredentials(dir, { anthropic: 'sk-ant-second-key-0002', gemini: 'gemini-first-key-0001' });
    await vi.waitFor(() => expect(d.deps.credential('anthropic')).toBe('sk-ant-second-key-0002'));
    await vi.waitFor(() => expect(d.logLines).toContain('info credentials.json changed on disk: key added for gemini, key replaced for anthropic, key removed for openai'));
    // the same keys written again: nothing changed, nothing said
    await saveCredentials(dir, { anthropic: 'sk-ant-second-key-0002', gemini: 'gemini-first-key-0001' });
    await sleep(200);
    expect(d.logLines.filter((l) => l.includes('credentials.json changed'))).toHaveLength(1);
    expect(d.logLines.join('\n')).not.toMatch(/first-key|second-key/);
  });
});

describe('config.json edited by hand while the daemon runs', () => {
  it('a setting it does not know (a typo) is named in daemon.log as ignored', async () => {
    const d = await start(await tempStateDir());
    const file = d.daemon.paths.config;
    await writeFile(`${file}.tmp`, JSON.stringify({ version: 2, settings: { loqBodies: true } }));
    await rename(`${file}.tmp`, file);
    await vi.waitFor(() => expect(d.logLines).toContain('info config.json changed on disk: reloaded'));
    expect(d.logLines).toContain(
      'warn config.json: settings.loqBodies is not a setting svc-proxy knows, ignored (a typo?); svc-proxy config check lists what the file has wrong',
    );
  });

  it('a key written twice is named in daemon.log, with which one is used', async () => {
    const d = await start(await tempStateDir());
    const file = d.daemon.paths.config;
    await writeFile(`${file}.tmp`, '{"version": 2, "settings": {"logBodies": false, "logBodies": true}}');
    await rename(`${file}.tmp`, file);
    await vi.waitFor(() => expect(d.logLines).toContain('info config.json changed on disk: reloaded'));
    expect(d.logLines).toContain('warn config.json: settings.logBodies appears twice; the last one is used');
  });
});
