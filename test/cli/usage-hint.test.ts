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

  it('a value of the right shape but wrong (not a syntax error) gets no usage block', async () => {
    const res = await run(['endpoint', 'add', 'x', '--url', 'http://127.0.0.1:1', '--format', 'c']);
    expect(res.code).toBe(2);
    expect(res.stderr).not.toContain('Usage:');
  });
});
