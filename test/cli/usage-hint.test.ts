/**
 * A command line of the wrong shape: the real binary prints commander's one-line error, then the
 * command's usage line and its help page's example, and exits 2.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { cleanEnv, removeTempDirs, runBin, tempStateDir } from '../daemon/harness.js';

afterAll(() => removeTempDirs());

async function run(args: string[]) {
  const env = cleanEnv({ SVC_PROXY_HOME: await tempStateDir('svc-usage-hint-') });
  return runBin(args, { env, timeoutMs: 20_000 });
}

describe('usage errors name the right syntax', () => {
  it('group add with a stray argument: the usage line and the example', async () => {
    const res = await run(['group', 'add', 'g1', 'not a target']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("error: too many arguments for 'add'. Expected 1 argument but got 2.\nUsage: svc-proxy group add [options] <slug>\nExample:\n  svc-proxy group add quick --model \\\n");
    expect(res.stderr).toContain('See `svc-proxy group add --help` for every option.\n');
    expect(res.stdout).toBe('');
  });

  it('endpoint add without --format: the usage line and an example with --format', async () => {
    const res = await run(['endpoint', 'add', 'x', '--url', 'http://127.0.0.1:1']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain("error: required option '--format <format>' not specified\nUsage: svc-proxy endpoint add [options] <slug>\nExample:\n  svc-proxy endpoint add work --url https://llm.example.com/v1 --format a\n");
  });

  it('a missing argument: the examples of a page that has several', async () => {
    const res = await run(['provider', 'connect']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe(
      "error: missing required argument 'provider'\nUsage: svc-proxy provider connect [options] <provider>\nExamples:\n  svc-proxy provider connect anthropic\n  echo \"$OPENAI_API_KEY\" | \\\n    svc-proxy provider connect openai\nSee `svc-proxy provider connect --help` for every option.\n",
    );
  });

    it('a value of the right shape but wrong (not a syntax error) gets no usage block', async () => {
    const res = await run(['endpoint', 'add', 'x', '--url', 'http://127.0.0.1:1', '--format', 'c']);
    expect(res.code).toBe(2);
    expect(res.stderr).not.toContain('Usage:');
  });
});

describe('an unknown command', () => {
  it('close to one: commander\'s suggestion, and no usage block', async () => {
    const res = await run(['strat']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("error: unknown command 'strat'\n(Did you mean start?)\n");
    expect(res.stdout).toBe('');
  });

  it('close to none: where the list of commands is', async () => {
    const res = await run(['xyzzy']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("error: unknown command 'xyzzy'\nSee `svc-proxy --help` for the commands.\n");
  });

  it('an unknown subcommand points at its command\'s help', async () => {
    const res = await run(['key', 'xyzzy']);
    expect(res.code).toBe(2);
    expect(res.stderr).toBe("error: unknown command 'xyzzy'\nSee `svc-proxy key --help` for the commands.\n");
    const close = await run(['key', 'crate']);
    expect(close.stderr).toBe("error: unknown command 'crate'\n(Did you mean create?)\n");
  });

  it('help for an unknown one: the same', async () => {
    const res = await run(['help', 'xyzzy']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('See `svc-proxy --help` for the commands.\n');
  });

  it('with --json: every suggestion, as a list', async () => {
    const res = await run(['stat', '--json']);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain('(Did you mean one of start, stats?)');
    expect(JSON.parse(res.stdout).error).toMatchObject({ code: 'unknown_command', message: "unknown command 'stat'", suggestions: ['start', 'stats'] });
  });
});
