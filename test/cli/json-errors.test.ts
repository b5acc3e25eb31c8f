/**
 * With --json, a failure is also one JSON object on stdout, `{"error": {code, message, …}}`, for a
 * script that parses stdout; the text on stderr and the exit code are as without --json.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, removeTempDirs, runBin, tempStateDir } from '../daemon/harness.js';

afterAll(() => removeTempDirs());

async function run(args: string[], home?: string) {
  const env = cleanEnv({ SVC_PROXY_HOME: home ?? (await tempStateDir('svc-json-errors-')) });
  return runBin(args, { env, timeoutMs: 20_000 });
}

describe('--json errors', () => {
  it('a missing argument the command finds: the error as JSON on stdout, the text on stderr, exit 2', async () => {
    const res = await run(['key', 'create', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout)).toEqual({ error: { code: 'missing_argument', message: 'A key needs a name: svc-proxy key create --name <name>' } });
    expect(res.stderr).toBe('svc-proxy: A key needs a name: svc-proxy key create --name <name>\n');
  });

  it('without --json, stdout stays empty', async () => {
    const res = await run(['env', 'nosuch']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('svc-proxy: Unknown tool "nosuch".');
  });

  it('an error with a code of its own names it', async () => {
    const res = await run(['env', 'nosuch', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).error).toMatchObject({ code: 'unknown_tool', message: expect.stringContaining('Unknown tool "nosuch".') });
  });

  it('refusals of env/run and header flags name what to fix in their code', async () => {
    const header = await run(['endpoint', 'add', 'corp', '--url', 'http://127.0.0.1:9', '--format', 'a', '--no-credential', '--header', 'nameonly', '--json']);
    expect(header.code).toBe(2);
    expect(JSON.parse(header.stdout).error).toMatchObject({ code: 'invalid_header', flag: '--header' });

    const model = await run(['env', 'codex', '--model', 'bare-name', '--json']);
    expect(model.code).toBe(2);
    expect(JSON.parse(model.stdout).error).toMatchObject({ code: 'invalid_model' });

    const needsModel = await run(['env', 'cline', '--json']);
    expect(needsModel.code).toBe(2);
    expect(JSON.parse(needsModel.stdout).error).toMatchObject({ code: 'model_required' });

    const both = await run(['env', 'codex', '--key', 'k', '--new-key', '--json']);
    expect(both.code).toBe(2);
    expect(JSON.parse(both.stdout).error).toMatchObject({ code: 'conflicting_options' });

    const home = await tempStateDir('svc-json-errors-');
    const notAKey = await runBin(['env', 'codex', '--json'], { env: cleanEnv({ SVC_PROXY_HOME: home, SVC_PROXY_KEY: 'hunter2' }), timeoutMs: 20_000 });
    expect(notAKey.code).toBe(2);
    expect(JSON.parse(notAKey.stdout).error).toMatchObject({ code: 'not_a_service_key' });
  });

  it('an option the tool or provider cannot take: a code of its own, exit 2', async () => {
    // Claude Code is set up through its environment alone; the refusal comes before --json's conflict with --config-file
    const noFile = await run(['env', 'claude-code', '--config-file', '--json']);
    expect(noFile.code).toBe(2);
    expect(JSON.parse(noFile.stdout)).toEqual({ error: { code: 'no_config_file', message: 'Claude Code takes no config file; drop --config-file.' } });

    // an empty URL is refused as the daemon refuses one (endpoint add --url ''), not read as --reset
    const emptyUrl = await run(['provider', 'set', 'openai', '--base-url', ' ', '--json']);
    expect(emptyUrl.code).toBe(2);
    expect(JSON.parse(emptyUrl.stdout)).toEqual({ error: { code: 'invalid_url', message: '--base-url needs a URL; --reset restores the default.' } });
  });

  it('a bad filter value: the filter\'s own code', async () => {
    const res = await run(['logs', '--since', 'yesterday', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).error).toMatchObject({ code: 'invalid_since' });
  });

  it('a config.json that cannot be used: config_invalid and the file, exit 1', async () => {
    const home = await tempStateDir('svc-json-errors-');
    await writeFile(join(home, 'config.json'), '{ not json');
    const res = await run(['key', 'list', '--json'], home);
    expect(res.code).toBe(1);
    const { error } = JSON.parse(res.stdout) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ code: 'config_invalid', file: join(home, 'config.json') });
    expect(res.stderr).toBe(`svc-proxy: ${String(error.message)}\n`);
  });

  it('a usage error with --json on the line: commander\'s code as a stable one, and the usage line', async () => {
    const res = await run(['key', 'create', '--bogus', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout)).toEqual({ error: { code: 'unknown_option', message: "unknown option '--bogus'", usage: 'svc-proxy key create [options] [name]' } });
    expect(res.stderr).toContain("error: unknown option '--bogus'\nUsage: svc-proxy key create [options] [name]\n");
  });

  it('a value an option\'s parser refuses, with --json: invalid_argument', async () => {
    const res = await run(['start', '--port', 'abc', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).error).toMatchObject({ code: 'invalid_argument', message: expect.stringContaining("argument 'abc' is invalid"), usage: 'svc-proxy start [options]' });
  });

    it('a missing argument with --json', async () => {
    const res = await run(['local', 'add', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout).error).toMatchObject({ code: 'missing_argument', message: "missing required argument 'slug'" });
  });

  it('an unknown command with --json: the suggestion as a field', async () => {
    const res = await run(['strat', '--json']);
    expect(res.code).toBe(2);
    expect(JSON.parse(res.stdout)).toEqual({ error: { code: 'unknown_command', message: "unknown command 'strat'", usage: 'svc-proxy [options] [command]', suggestions: ['start'] } });
  });

  it('--json after `--` belongs to the tool run, not to svc-proxy', async () => {
    const res = await run(['run', 'nosuch', '--', '--json']);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe('');
    expect(res.stderr).toContain('Unknown tool "nosuch"');
  });
});
