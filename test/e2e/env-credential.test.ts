/**
 * A provider credential from the daemon's environment passes the checks a stored one does. One a
 * .env file left quoted, or with a space in it, is not sent upstream: a request for the provider
 * gets 400 provider_credential_invalid in its client's shape, naming the variable, and `status` and
 * `doctor` say the same — none of them, nor the logs, shows the value. A line break at the end is
 * trimmed, as a stored credential's is.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testKeychainService } from '../daemon/harness.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { anthropicRefusal, openaiRefusal } from '../fixtures/sdk-refusals.js';

const QUOTED = '"sk-proj-dotenv-quoted-Secret_Ev1"';
const SPACED = 'sk-ant-two words-Secret_Ev2';
const NEWLINE = 'sk-or-v1-trailing-newline-Secret_Ev3\n';

let d: TestDaemon;
let xdg: string;

beforeAll(async () => {
  xdg = await mkdtemp(join(tmpdir(), 'svc-envcred-xdg-'));
  // a keychain service of its own: the connect below stores an openai key, which no other test's daemon may find
  d = await startDaemon({ env: { OPENAI_API_KEY: QUOTED, ANTHROPIC_API_KEY: SPACED, OPENROUTER_API_KEY: NEWLINE, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() } });
}, 60_000);
afterAll(async () => {
  await stopDaemon(d);
  await rm(xdg, { recursive: true, force: true });
});

const shown = (text: string): void => {
  expect(text).not.toContain('Secret_Ev1');
  expect(text).not.toContain('Secret_Ev2');
};

describe('an unusable credential from the environment', () => {
  it('a request for its provider: 400 provider_credential_invalid naming the variable, in each client shape', async () => {
    const viaOpenAI = await openaiRefusal(d, 'openai/gpt-5');
    expect(viaOpenAI).toMatchObject({ status: 400, error: { code: 'provider_credential_invalid', param: 'model' } });
    expect(viaOpenAI!.error.message).toBe(
      'Provider "openai" cannot be used: OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes (give the key without them); its value is not used: fix or unset it where the daemon is started, then restart it.',
    );
    const viaAnthropic = await anthropicRefusal(d, 'anthropic/claude-sonnet-4-5');
    expect(viaAnthropic).toMatchObject({ status: 400, error: { type: 'error', error: { code: 'provider_credential_invalid' } } });
    expect(viaAnthropic!.error.error.message).toContain('ANTHROPIC_API_KEY, which the daemon reads for anthropic, contains spaces, line breaks or non-ASCII characters');
    shown(JSON.stringify([viaOpenAI, viaAnthropic]));
    const logged = await d.logs((e) => e.filter((x) => x.errorCode === 'provider_credential_invalid').length >= 2);
    expect(logged.filter((e) => e.errorCode === 'provider_credential_invalid').map((e) => [e.modelAsked, e.status])).toEqual([
      ['openai/gpt-5', 400],
      ['anthropic/claude-sonnet-4-5', 400],
    ]);
  });

  it('status, doctor and provider list name the variable and what is wrong, never the value; a trailing line break is no problem', async () => {
    const status = await d.cli(['status']);
    expect(status.stdout).toContain('openrouter (env)');
    expect(status.stdout).toContain('; not connected: anthropic, openai, gemini');
    expect(status.stdout).toContain('  openai: OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes');
    expect(status.stdout).toContain('  anthropic: ANTHROPIC_API_KEY, which the daemon reads for anthropic, contains spaces');
    const doctor = await d.cli(['doctor', '--json'], { env: { XDG_CONFIG_HOME: xdg, OPENAI_BASE_URL: undefined, ANTHROPIC_BASE_URL: undefined, OPENAI_API_BASE: undefined }, allowFail: true, timeoutMs: 40_000 });
    const findings = (JSON.parse(doctor.stdout) as { findings: Array<{ check: string; mark: string; text: string; fix?: string }> }).findings;
    expect(findings.find((f) => f.check === 'provider openai')).toMatchObject({ mark: 'fail', text: expect.stringContaining('OPENAI_API_KEY'), fix: 'fix or unset OPENAI_API_KEY where the daemon is started, then: svc-proxy restart' });
    expect(findings.find((f) => f.check === 'provider anthropic')).toMatchObject({ mark: 'fail', fix: 'fix or unset ANTHROPIC_API_KEY where the daemon is started, then: svc-proxy restart' });
    expect(findings.find((f) => f.check === 'not connected')?.text).toBe('gemini');
    const list = await d.cli(['provider', 'list']);
    expect(list.stdout).toContain('\nopenai: OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes');
    for (const text of [status.stdout, status.stderr, doctor.stdout, doctor.stderr, list.stdout, d.log]) shown(text);
  });

  it("provider list with a daemon running is the daemon's view, whatever this shell's variables", async () => {
    const list = await d.cli(['provider', 'list', '--json'], { env: { OPENAI_API_KEY: 'sk-proj-shell-only-key-Secret_Ev4', GEMINI_API_KEY: 'AIza-shell-only-key-Secret_Ev5' } });
    const byName = Object.fromEntries((JSON.parse(list.stdout) as Array<{ name: string; connected: boolean; credentialProblem?: string }>).map((p) => [p.name, p]));
    expect(byName.openai).toMatchObject({ connected: false, credentialProblem: expect.stringContaining('is wrapped in quotes') });
    expect(byName.gemini).toMatchObject({ connected: false });
    expect(byName.openrouter).toMatchObject({ connected: true });
    expect((await d.cli(['provider', 'list'], { env: { GEMINI_API_KEY: 'AIza-shell-only-key-Secret_Ev5' } })).stderr).toBe('');
  });

  it('provider connect while the variable is unusable: the key is stored, and said to be unused until the variable is fixed or unset', async () => {
    const res = await d.cli(['provider', 'connect', 'openai', '--insecure-storage'], { input: 'sk-proj-stored-while-quoted-4242\n' });
    // --insecure-storage is used only where the keychain is not (CI runs one, a bare shell may not)
    expect(res.stdout).toMatch(/^openai: key …4242 stored in (the OS keychain|the insecure credentials file), but not used while OPENAI_API_KEY is set in the daemon's environment and unusable\.\n$/);
    expect(res.stderr).toBe(
      'note: OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes (give the key without them); its value is not used: fix or unset it where the daemon is started, then restart it.\n',
    );
    expect(res.stderr).not.toContain('takes precedence');
    shown(res.stdout + res.stderr);
    // the daemon's view: still not connected, the stored key unused
    expect((await d.cli(['status'])).stdout).toContain('; not connected: anthropic, openai, gemini');
  });
});
