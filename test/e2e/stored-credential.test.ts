/**
 * A credential stored by hand (the insecure credentials file edited, or written by another tool)
 * passes the checks `provider connect` makes before the daemon uses it. One wrapped in quotes or
 * with a space in it is not sent upstream: a request gets 400 provider_credential_invalid naming
 * where it is stored, and `status`, `doctor` and `provider list` say so with the fix — none of
 * them shows the value.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKeychainService } from '../daemon/harness.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { anthropicRefusal, openaiRefusal } from '../fixtures/sdk-refusals.js';

const QUOTED = '"sk-proj-hand-quoted-Secret_St1"';
const SPACED = 'sk-ant-two words-Secret_St2';

let d: TestDaemon;
let xdg: string;

beforeAll(async () => {
  xdg = await mkdtemp(join(tmpdir(), 'svc-storedcred-xdg-'));
  // a keychain service of its own, holding nothing: the daemon falls back to the file written here
  d = await startDaemon({
    env: { SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() },
    setup: async (t) => {
      const credentials = { openai: QUOTED, anthropic: SPACED, openrouter: 'sk-or-v1-hand-written-good-key' };
      await writeFile(join(t.home, 'credentials.json'), JSON.stringify({ version: 1, credentials }), { mode: 0o600 });
    },
  });
}, 60_000);
afterAll(async () => {
  await stopDaemon(d);
  await rm(xdg, { recursive: true, force: true });
});

const shown = (text: string): void => {
  expect(text).not.toContain('Secret_St1');
  expect(text).not.toContain('Secret_St2');
};

describe('an unusable credential in the credentials file', () => {
  it('a request for its provider: 400 provider_credential_invalid naming where it is stored and the problem', async () => {
    const viaOpenAI = await openaiRefusal(d, 'openai/gpt-5');
    expect(viaOpenAI).toMatchObject({ status: 400, error: { code: 'provider_credential_invalid', param: 'model' } });
    expect(viaOpenAI!.error.message).toBe(
      'Provider "openai" cannot be used: the credential of openai stored in the credentials file is wrapped in quotes (give the key without them); it is not used: store it again with `svc-proxy provider connect openai`.',
    );
    const viaAnthropic = await anthropicRefusal(d, 'anthropic/claude-sonnet-4-5');
    expect(viaAnthropic).toMatchObject({ status: 400, error: { type: 'error', error: { code: 'provider_credential_invalid' } } });
    expect(viaAnthropic!.error.error.message).toContain('the credential of anthropic stored in the credentials file contains spaces, line breaks or non-ASCII characters');
    shown(JSON.stringify([viaOpenAI, viaAnthropic]));
  });

  it('status, doctor and provider list say what is wrong and how to fix it, never the value', async () => {
    const status = await d.cli(['status']);
    expect(status.stdout).toContain('openrouter (file)');
    expect(status.stdout).toContain('  openai: the credential of openai stored in the credentials file is wrapped in quotes');
    const doctor = await d.cli(['doctor', '--json'], { env: { XDG_CONFIG_HOME: xdg, OPENAI_BASE_URL: undefined, ANTHROPIC_BASE_URL: undefined, OPENAI_API_BASE: undefined }, allowFail: true, timeoutMs: 40_000 });
    const findings = (JSON.parse(doctor.stdout) as { findings: Array<{ check: string; mark: string; text: string; fix?: string }> }).findings;
    expect(findings.find((f) => f.check === 'provider openai')).toMatchObject({ mark: 'fail', text: expect.stringContaining('credentials file'), fix: 'svc-proxy provider connect openai' });
    expect(findings.find((f) => f.check === 'provider anthropic')).toMatchObject({ mark: 'fail', fix: 'svc-proxy provider connect anthropic' });
    const list = await d.cli(['provider', 'list', '--json']);
    const byName = Object.fromEntries((JSON.parse(list.stdout) as Array<{ name: string; connected: boolean }>).map((p) => [p.name, p]));
    expect(byName.openai).toMatchObject({ connected: false, unusableStored: 'file', credentialProblem: expect.stringContaining('is wrapped in quotes') });
    expect(byName.openrouter).toMatchObject({ connected: true, source: 'file' });
    for (const text of [status.stdout, status.stderr, doctor.stdout, doctor.stderr, list.stdout, d.log]) shown(text);
  });

  it('provider connect again stores a usable key and the provider is connected', async () => {
    const res = await d.cli(['provider', 'connect', 'openai', '--insecure-storage'], { input: 'sk-proj-fixed-by-connect-4242\n' });
    expect(res.code, res.stderr).toBe(0);
    const list = await d.cli(['provider', 'list', '--json']);
    const openai = (JSON.parse(list.stdout) as Array<{ name: string; connected: boolean; credentialProblem?: string }>).find((p) => p.name === 'openai');
    expect(openai).toMatchObject({ connected: true });
    expect(openai?.credentialProblem).toBeUndefined();
  });
});
