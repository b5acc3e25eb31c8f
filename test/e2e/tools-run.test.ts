/**
 * `svc-proxy run` as a user runs it (the real binary), with a stand-in `claude` on PATH (a shell
 * script) so what run does is visible: it starts the daemon when none runs, hands the tool the
 * `env` settings (API key variable removed, arguments after the tool name untouched), passes the
 * exit code through, forwards SIGTERM/SIGINT to the tool, and ends by the tool's own signal.
 * Stand-in `qwen` and `goose` scripts show the same for the tools set up by variables alone.
 * The real Claude Code and Codex under `run` are in tools-claude-code / tools-codex.
 */
import { spawn } from 'node:child_process';
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { processAlive } from '../../src/config/file-lock.js';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { BIN } from '../daemon/harness.js';
import { freePort } from '../fixtures/ports.js';
import { runProcess, sandbox, type ProcResult, type Sandbox } from '../fixtures/tools.js';

const FAKE_CLAUDE = `#!/bin/sh
case "$1" in
  env) printf 'BASE=%s\\nTOKEN=%s\\nAPIKEY=%s\\nMODEL=%s\\nTRAFFIC=%s\\nARGS=%s\\n' "$ANTHROPIC_BASE_URL" "$ANTHROPIC_AUTH_TOKEN" "\${ANTHROPIC_API_KEY-unset}" "$ANTHROPIC_MODEL" "$CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC" "$*" ;;
  exit) exit "$2" ;;
  signal) kill -"$2" $$ ; sleep 5 ;;
  wait) trap 'echo got-TERM; exit 42' TERM; trap 'echo got-INT; exit 43' INT; echo "ready $$"; while :; do sleep 0.05; done ;;
esac
`;

/** Stand-ins for the other CLIs run starts by variables: print what they read, and their arguments. */
const FAKE_QWEN = `#!/bin/sh
printf 'BASE=%s\\nKEY=%s\\nMODEL=%s\\nWAIT=%s\\nOAUTH=%s\\nARGS=%s\\n' "$OPENAI_BASE_URL" "$OPENAI_API_KEY" "$OPENAI_MODEL" "$QWEN_CODE_API_TIMEOUT_MS" "\${QWEN_OAUTH-unset}" "$*"
`;
const FAKE_GOOSE = `#!/bin/sh
printf 'PROVIDER=%s\\nURL=%s/%s\\nKEY=%s\\nMODEL=%s\\nWAIT=%s\\nARGS=%s\\n' "$GOOSE_PROVIDER" "$OPENAI_HOST" "$OPENAI_BASE_PATH" "$OPENAI_API_KEY" "$GOOSE_MODEL" "$OPENAI_TIMEOUT" "$*"
`;

let box: Sandbox;
let env: Record<string, string>;
let port: number;

beforeAll(async () => {
  box = await sandbox();
  const bin = join(box.home, 'fake-bin');
  await mkdir(bin, { recursive: true });
  for (const [name, script] of [['claude', FAKE_CLAUDE], ['qwen', FAKE_QWEN], ['goose', FAKE_GOOSE]] as const) {
    await writeFile(join(bin, name), script);
    await chmod(join(bin, name), 0o755);
  }
  const state = join(box.home, 'state');
  await mkdir(state, { recursive: true, mode: 0o700 });
  port = await freePort();
  await writeFile(join(state, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { port } }), { mode: 0o600 });
  // The developer's real ANTHROPIC_API_KEY must not reach the tool: plant one to see it removed.
  env = { ...box.env, PATH: `${bin}:/usr/bin:/bin`, SVC_PROXY_HOME: state, ANTHROPIC_API_KEY: 'sk-ant-real-user-key', QWEN_OAUTH: '1' };
}, 30_000);

afterAll(async () => {
  if (env) await runProcess(process.execPath, [BIN, 'stop'], { env, timeoutMs: 15_000 }).catch(() => undefined);
  await box?.remove();
});

const run = (args: string[], timeoutMs = 20_000): Promise<ProcResult> => runProcess(process.execPath, [BIN, 'run', ...args], { env, cwd: box.work, timeoutMs });

/** Kill the stand-in tool if it still runs (it holds the output pipe open); whether it did. A zombie is gone. */
function killIfAlive(pid: number): boolean {
  if (!processAlive(pid)) return false; // gone (or never known: NaN)
  try {
    process.kill(pid, 'SIGKILL');
    return true;
  } catch {
    return false;
  }
}

describe('svc-proxy run', () => {
  it('starts the daemon when none runs, then runs the tool with the env settings; arguments after the tool are the tool’s', async () => {
    const res = await run(['--model', 'openai/gpt-5.4', 'claude', 'env', '--model', 'not-ours', '--', 'x']);
    expect(res.stderr).toMatch(/created key "claude-code"/);
    expect(res.code).toBe(0);
    const out = Object.fromEntries(res.stdout.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    expect(out).toMatchObject({
      BASE: `http://127.0.0.1:${port}/protocol-b`,
      APIKEY: 'unset',
      MODEL: 'openai/gpt-5.4',
      TRAFFIC: '1',
      ARGS: 'env --model not-ours -- x',
    });
    expect(out.TOKEN).toMatch(/^sk-svc-proxy-\w{43}$/);
    const status = await runProcess(process.execPath, [BIN, 'status', '--json'], { env, timeoutMs: 15_000 });
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true });

    // A leading `--` is only a separator; the saved key is reused.
    const again = await run(['claude', '--', 'env']);
    expect(again.stdout).toContain(`TOKEN=${out.TOKEN}`);
    expect(again.stderr).not.toMatch(/created key/);

    // Qwen Code and goose the same way, each with its own key; Qwen Code's flags go before the user's.
    const lines = (text: string) => Object.fromEntries(text.trim().split('\n').map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]));
    const qwen = await run(['--model', 'anthropic/claude-sonnet-4-5', 'qwen', '-p', 'hi']);
    expect(qwen.code, qwen.stderr).toBe(0);
    expect(lines(qwen.stdout)).toMatchObject({
      BASE: `http://127.0.0.1:${port}/protocol-a/v1`,
      MODEL: 'anthropic/claude-sonnet-4-5',
      WAIT: '1270000',
      OAUTH: 'unset',
      ARGS: '--auth-type openai --model anthropic/claude-sonnet-4-5 -p hi',
    });
    expect(lines(qwen.stdout).KEY).toMatch(/^sk-svc-proxy-\w{43}$/);
    expect(lines(qwen.stdout).KEY).not.toBe(out.TOKEN);
    const goose = await run(['--model', 'openai/gpt-5.4', 'goose', 'run', '-t', 'hi']);
    expect(goose.code, goose.stderr).toBe(0);
    expect(lines(goose.stdout)).toMatchObject({ PROVIDER: 'openai', URL: `http://127.0.0.1:${port}/protocol-a/v1/chat/completions`, MODEL: 'openai/gpt-5.4', WAIT: '1270', ARGS: 'run -t hi' });
    expect(lines(goose.stdout).KEY).toMatch(/^sk-svc-proxy-\w{43}$/);
  });

  it('passes the exit code through', async () => {
    expect((await run(['claude', 'exit', '7'])).code).toBe(7);
    expect((await run(['claude', 'exit', '0'])).code).toBe(0);
  });

  it('a tool killed by a signal ends svc-proxy by the same signal', async () => {
    const res = await run(['claude', 'signal', 'TERM']);
    expect(res.signal).toBe('SIGTERM');
    expect(res.code).toBeNull();
  });

  it('SIGTERM and SIGINT sent to svc-proxy reach the tool (which decides how to end)', async () => {
    for (const [sig, expected] of [['SIGTERM', 42], ['SIGINT', 43]] as const) {
      const child = spawn(process.execPath, [BIN, 'run', 'claude', 'wait'], { env, cwd: box.work, stdio: ['pipe', 'pipe', 'pipe'] });
      let out = '';
      child.stdout.on('data', (c: Buffer) => (out += c.toString()));
      const ended = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)));
      const deadline = Date.now() + 15_000;
      while (!out.includes('ready') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      expect(out, 'the stand-in tool started').toContain('ready');
      const toolPid = Number(/ready (\d+)/.exec(out)?.[1]);
      child.kill(sig);
      // a tool left running would hold the output pipe open (no 'close'): end both, fail, not hang
      const timer = setTimeout(() => {
        child.kill('SIGKILL');
        killIfAlive(toolPid);
      }, 10_000);
      const code = await ended;
      clearTimeout(timer);
      expect(code, sig).toBe(expected);
      expect(out).toContain(sig === 'SIGTERM' ? 'got-TERM' : 'got-INT');
    }
  }, 60_000); // two runs, each allowed 15 s to start and 10 s to end

  it('eight first runs at once (no daemon, no key yet), each sent SIGTERM the moment its tool starts', async () => {
    // Eight starts at once load the cores the way a busy machine does. This found three faults:
    // a SIGTERM that beat the forwarding handlers ended svc-proxy and left the tool running (8 to
    // 10 of 24 runs; its output pipe then never closes); the runs whose daemon lost the start race
    // failed instead of using the winner; and those that lost the race to create the tool's key
    // failed with "already exists" instead of using the key the winner saved.
    const state = join(box.home, 'state-burst');
    await mkdir(state, { recursive: true, mode: 0o700 });
    await writeFile(join(state, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { port: await freePort() } }), { mode: 0o600 });
    const burstEnv = { ...env, SVC_PROXY_HOME: state };
    const once = () =>
      new Promise<{ code: number | null; toolAlive: boolean; stderr: string }>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'run', 'claude', 'wait'], { env: burstEnv, cwd: box.work, stdio: ['pipe', 'pipe', 'pipe'] });
        let out = '';
        let stderr = '';
        let toolPid = NaN;
        child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
        child.stdout.on('data', (c: Buffer) => {
          out += c.toString();
          const ready = Number.isNaN(toolPid) ? /ready (\d+)/.exec(out) : null;
          if (ready) {
            toolPid = Number(ready[1]);
            child.kill('SIGTERM');
          }
        });
        const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
        child.on('exit', (code) => {
          clearTimeout(timer);
          resolve({ code, toolAlive: killIfAlive(toolPid), stderr });
        });
      });
    try {
      const runs = await Promise.all(Array.from({ length: 8 }, once));
      expect(runs.map((r) => r.toolAlive)).toEqual(Array(8).fill(false));
      expect(runs.map((r) => r.code), runs.map((r) => r.stderr).join('\n')).toEqual(Array(8).fill(42));
      expect(runs.filter((r) => /created key "claude-code"/.test(r.stderr))).toHaveLength(1);
    } finally {
      await runProcess(process.execPath, [BIN, 'stop'], { env: burstEnv, timeoutMs: 15_000 }).catch(() => undefined);
    }
  }, 60_000);

  it('a tool that is not installed, an app it cannot start, and an unknown tool are clear errors', async () => {
    const missing = await run(['aider']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/aider is not on PATH. Install Aider: /);
    const app = await run(['cursor']);
    expect(app.code).toBe(2);
    expect(app.stderr).toMatch(/svc-proxy env cursor/);
    expect((await run(['zed'])).stderr).toMatch(/Zed is not a program svc-proxy can start; print its settings with: svc-proxy env zed/);
    // Crush takes its provider only from a file, which run does not write: it says what to do instead.
    const crush = await run(['--model', 'openai/gpt-5.4', 'crush']);
    expect(crush.code).toBe(2);
    expect(crush.stderr).toMatch(/svc-proxy run does not start Crush: .*svc-proxy env crush --model <id> --config-file/);
    const unknown = await run(['vim']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown tool "vim"/);
    // only the tools run starts: naming one of the others would be refused in turn
    expect(unknown.stderr).toContain('svc-proxy run starts: claude-code, codex, aider, opencode, qwen, goose, continue (');
    expect(unknown.stderr).not.toContain('cursor');
  });
});
