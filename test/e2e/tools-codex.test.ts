/**
 * The real Codex CLI (devDependency @openai/codex) through the protocol A base `/responses` to an
 * `anthropic` target (Messages upstream), with one tool turn: the mock asks for `exec_command`,
 * Codex runs it in its sandbox, and the mock sees the command's output in the next request. Also
 * Gemini 3, a chat-dialect upstream whose thought signatures must survive the trip through Codex's
 * Responses items.
 *
 * Two ways in: the profile file `svc-proxy env codex --config-file` prints (saved as
 * $CODEX_HOME/svc-proxy.config.toml, used with `--profile svc-proxy`), and `svc-proxy run codex`,
 * which passes the same settings as `-c` overrides and writes no file. Offline: a temp CODEX_HOME
 * and HOME, no login (the key comes from the variable named by `env_key`), analytics off.
 */
import { writeFile, mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../daemon/harness.js';
import { expectNoServiceKey } from '../fixtures/e2e-helpers.js';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { chatToolResult, messagesToolResult } from '../fixtures/tool-results.js';
import { envJson, refusedSince, runProcess, toolBinary, useToolWorld, type ProcResult } from '../fixtures/tools.js';

const codex = toolBinary('codex');
const RUN_TIMEOUT = 45_000;
// a test may run the tool twice, each run up to RUN_TIMEOUT: vitest's 30 s default cut the tests first on a loaded machine
const TEST_TIMEOUT = 2 * RUN_TIMEOUT + 10_000;
const MODEL = 'anthropic/claude-sonnet-4-5';

const t = useToolWorld();

/** Run Codex (itself or under `svc-proxy run`): it must end well, and none of its requests may be refused. */
async function runCodex(cmd: string, args: string[], opts: { env: Record<string, string>; cwd: string; timeoutMs: number }): Promise<ProcResult> {
  const since = new Date().toISOString();
  const res = await runProcess(cmd, args, opts);
  if (res.code !== 0) throw new Error(`codex exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}\ndaemon: ${t.world.daemon.log.slice(-3000)}`);
  const { logged, refused } = await refusedSince(t.world.daemon, since);
  expect(logged, 'the run reached the daemon').toBeGreaterThan(0);
  expect(refused, 'requests the daemon refused').toEqual([]);
  return res;
}

/** A tool call first; once the tool's result is in, a final answer that quotes it. */
function scriptExecTurn(marker: string): void {
  const mock = t.world.mocks.anthropic;
  mock.always(
    (r) => mock.plugin.isGeneration(r),
    (r): Reply => {
      const out = messagesToolResult(r);
      if (out === undefined) return { kind: 'turn', turn: { reasoning: { text: 'Run the command first.' }, toolCalls: [{ name: 'exec_command', arguments: { cmd: `printf 'cx-%s-%s\\n' ${marker}` } }] } };
      const seen = /cx-[a-z]+-\d+/.exec(out)?.[0] ?? 'nothing';
      return { kind: 'turn', turn: { text: `The command printed ${seen}.` } };
    },
  );
}

function checkUpstream(marker: string, serviceKey: string): void {
  const gens = t.world.mocks.anthropic.generations();
  expect(gens.length).toBeGreaterThanOrEqual(2);
  const first = gens[0]!;
  expect(first.path).toBe('/v1/messages');
  expect(first.body.model).toBe('claude-sonnet-4-5');
  // Codex asked for reasoning (the profile's effort for a model known to reason): Claude thinks
  expect(first.body.thinking).toMatchObject({ type: 'enabled' });
  expect(first.headers['x-api-key']).toBe('sk-ant-e2e-anthropic-0001');
  const names = (first.body.tools as Array<{ name: string }>).map((t) => t.name);
  expect(names).toContain('exec_command');
  // Codex's web search reached Claude as Anthropic's own server tool; no other hosted tool reached it.
  const kinds = (first.body.tools as Array<{ type?: string }>).map((t) => t.type ?? 'function');
  expect(kinds.filter((k) => k !== 'function' && k !== 'custom')).toEqual(['web_search_20250305']);
  const last = gens[gens.length - 1]!;
  const msgs = last.body.messages as Array<{ role: string; content: Array<{ type: string; id?: string; tool_use_id?: string; name?: string; signature?: string }> }>;
  // Codex sent Claude's thinking back (as its reasoning item): signed, first in the tool turn, thinking still on
  expect(last.body.thinking).toMatchObject({ type: 'enabled' });
  const turn = msgs.find((m) => m.role === 'assistant' && m.content.some((b) => b.type === 'tool_use'))!;
  expect(turn.content[0]).toMatchObject({ type: 'thinking', thinking: 'Run the command first.' });
  expect(t.world.mocks.anthropic.signatures.has(turn.content[0]!.signature!)).toBe(true);
  const use = msgs.flatMap((m) => (m.role === 'assistant' ? m.content : [])).find((b) => b.type === 'tool_use' && b.name === 'exec_command');
  const result = msgs.flatMap((m) => (m.role === 'user' && Array.isArray(m.content) ? m.content : [])).find((b) => b.type === 'tool_result');
  expect(use).toBeDefined();
  expect(result?.tool_use_id).toBe(use!.id);
  expect(messagesToolResult(last)).toContain(`cx-${marker.replace(' ', '-')}`);
  for (const g of gens) expectNoServiceKey(g, serviceKey);
}

describe.skipIf('missing' in codex)('Codex CLI through protocol A /responses', { timeout: TEST_TIMEOUT }, () => {
  it("with web search on (the profile leaves it on for anthropic/… models): Claude searches with its own tool, pauses the turn, and Codex prints the one answer", async () => {
    if ('missing' in codex) return;
    const codexHome = join(t.box.home, 'codex-search');
    await mkdir(codexHome, { recursive: true });
    await writeFile(join(codexHome, 'svc-proxy.config.toml'), (await t.world.daemon.cli(['env', 'codex', '--model', MODEL, '--config-file'])).stdout);
    const settings = await envJson(t.world.daemon, 'codex', ['--model', MODEL]);
    const mock = t.world.mocks.anthropic;
    const page = { url: 'https://example.com/codex-notes', title: 'Codex notes 4471' };
    // Anthropic pauses the turn after the search (pause_turn); the daemon goes on with it, so Codex
    // gets one completed answer instead of an incomplete one it would retry from scratch
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (r): Reply => {
        const last = (r.body.messages as Array<{ role: string }>).at(-1)!;
        if (last.role !== 'assistant') return { kind: 'turn', turn: { webSearches: [{ query: 'svc query 8812', pages: [page] }], finish: 'pause' } };
        return { kind: 'turn', turn: { text: `Found ${page.title} at ${page.url}.` } };
      },
    );
    const res = await runCodex(codex.path, ['exec', '--skip-git-repo-check', '--profile', 'svc-proxy', 'Search the web for codex notes.'], {
      env: { ...t.box.env, CODEX_HOME: codexHome, ...settings.env },
      cwd: t.box.work,
      timeoutMs: RUN_TIMEOUT,
    });
    expect(res.stdout).toContain(`Found ${page.title} at ${page.url}.`);
    // Codex shows the search it was told about (a web_search_call item with the query)
    expect(res.stderr + res.stdout).toContain('svc query 8812');
    const [first, continued, ...more] = mock.generations();
    expect((first!.body.tools as Array<{ type?: string; name: string }>).find((tool) => tool.name === 'web_search')).toEqual({ type: 'web_search_20250305', name: 'web_search' });
    expect((continued!.body.messages as Array<{ role: string; content: Array<{ type: string }> }>).at(-1)!.content.map((b) => b.type)).toEqual(['server_tool_use', 'web_search_tool_result']);
    expect(more).toEqual([]);
  });

  it('on an openai/… model with web search on (the profile leaves it on): Codex’s own web_search tool passes through as it sent it', async () => {
    const codexHome = join(t.box.home, 'codex-openai-search');
    await mkdir(codexHome, { recursive: true });
    const mock = t.world.mocks.openai;
    const page = { url: 'https://example.com/openai-notes', title: 'OpenAI notes 5521' };
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (): Reply => ({ kind: 'turn', turn: { webSearches: [{ query: 'svc query 6630', pages: [page] }], text: `Found ${page.title}.` } }),
    );
    const env = { ...t.box.env, CODEX_HOME: codexHome, SVC_PROXY_HOME: t.world.daemon.home };
    const res = await runCodex(process.execPath, [BIN, 'run', '--model', 'openai/gpt-5.4', '--key', t.world.daemon.key, 'codex', 'exec', '--skip-git-repo-check', 'Search the web for openai notes.'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(res.stdout).toContain(`Found ${page.title}.`);
    expect(res.stderr + res.stdout).toContain('svc query 6630');
    const tools = mock.generations()[0]!.body.tools as Array<{ type: string }>;
    // Codex's default, cached results only (external_web_access, which the SDK's types lack), reaches OpenAI untouched
    expect(tools.find((tool) => tool.type === 'web_search')).toEqual({ type: 'web_search', external_web_access: false });
  });

  it('with the profile file from `svc-proxy env codex --config-file`: exec_command runs, the Messages upstream gets its output', async () => {
    if ('missing' in codex) return;
    const settings = await envJson(t.world.daemon, 'codex', ['--model', MODEL]);
    expect(settings.env).toEqual({ SVC_PROXY_KEY: settings.key.value });
    const toml = (await t.world.daemon.cli(['env', 'codex', '--model', MODEL, '--config-file'])).stdout;
    expect(toml).toContain(`base_url = "${t.world.daemon.baseA()}"`);
    expect(toml).toContain('wire_api = "responses"');
    const codexHome = join(t.box.home, 'codex-profile');
    await mkdir(codexHome, { recursive: true });
    await writeFile(join(codexHome, 'svc-proxy.config.toml'), toml);

    scriptExecTurn('marker 77');
    const res = await runCodex(codex.path, ['exec', '--skip-git-repo-check', '--profile', 'svc-proxy', 'Print the marker with the shell.'], {
      env: { ...t.box.env, CODEX_HOME: codexHome, ...settings.env },
      cwd: t.box.work,
      timeoutMs: RUN_TIMEOUT,
    });

    expect(res.stdout).toContain('The command printed cx-marker-77.');
    expect(res.stderr).toContain('provider: svc-proxy');
    expect(res.stderr).toContain(`model: ${MODEL}`);
    checkUpstream('marker 77', settings.key.value);
  });

  it('with `svc-proxy run codex` (settings as -c overrides, no config file): same turn, and the exit code passes through', async () => {
    const codexHome = join(t.box.home, 'codex-run');
    await mkdir(codexHome, { recursive: true });
    const env = { ...t.box.env, CODEX_HOME: codexHome, SVC_PROXY_HOME: t.world.daemon.home };

    scriptExecTurn('runner 5');
    const res = await runCodex(process.execPath, [BIN, 'run', '--model', MODEL, 'codex', 'exec', '--skip-git-repo-check', 'Print the marker with the shell.'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(res.stdout).toContain('The command printed cx-runner-5.');
    // No key given and none in the environment: run uses the key saved for Codex (made by `env codex`
    // in the test above, or by this run through the daemon when it runs alone): one codex key either way.
    const keys = JSON.parse((await t.world.daemon.cli(['key', 'list', '--json'])).stdout) as Array<{ name: string }>;
    expect(keys.filter((k) => k.name.startsWith('codex')).map((k) => k.name)).toEqual(['codex']);
    checkUpstream('runner 5', 'sk-svc-proxy-');

    // Codex's own usage error (exit 2) comes back as svc-proxy's exit code.
    const bad = await runProcess(process.execPath, [BIN, 'run', 'codex', 'exec', '--no-such-codex-flag'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(bad.code).toBe(2);
    expect(bad.stderr).toMatch(/no-such-codex-flag/);
  });

  it('on Gemini 3 (a chat-dialect upstream): the exec_command turn goes back with its thought signature, which Gemini 3 demands', async () => {
    const codexHome = join(t.box.home, 'codex-gemini');
    await mkdir(codexHome, { recursive: true });
    const mock = t.world.mocks.gemini;
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (r): Reply => {
        const out = chatToolResult(r);
        if (out === undefined) return { kind: 'turn', turn: { reasoning: { text: 'Run it.' }, toolCalls: [{ name: 'exec_command', arguments: { cmd: "printf 'cx-%s\\n' gem3" } }] } };
        return { kind: 'turn', turn: { text: `The command printed ${/cx-\w+/.exec(out)?.[0] ?? 'nothing'}.` } };
      },
    );
    const env = { ...t.box.env, CODEX_HOME: codexHome, SVC_PROXY_HOME: t.world.daemon.home };
    const res = await runCodex(process.execPath, [BIN, 'run', '--model', 'gemini/gemini-3-pro-preview', '--key', t.world.daemon.key, 'codex', 'exec', '--skip-git-repo-check', 'Print the marker with the shell.'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(res.stdout).toContain('The command printed cx-gem3.');
    const [, second] = mock.generations();
    const call = (second!.body.messages as Array<{ role: string; tool_calls?: Array<{ extra_content?: { google?: { thought_signature?: string } } }> }>).find((m) => m.role === 'assistant')!.tool_calls![0]!;
    // Codex keeps no Gemini field: the signature rode through its Responses items and came back
    expect(call.extra_content?.google?.thought_signature).toMatch(/\S{20,}/);
    expect(chatToolResult(second!)).toContain('cx-gem3');
  });

  it('on a local server (gpt-oss on llama-server: reasoning in reasoning_content, a call without an id): the turn runs, and the reasoning goes back in the field llama-server reads', async () => {
    const codexHome = join(t.box.home, 'codex-local');
    await mkdir(codexHome, { recursive: true });
    const mock = t.world.mocks.local;
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) =>
      `data: ${JSON.stringify({ id: 'chatcmpl-lc1', object: 'chat.completion.chunk', created: 1, model: 'gpt-oss:20b', choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (r): Reply => {
        const out = chatToolResult(r);
        if (out !== undefined) return { kind: 'turn', turn: { text: `The command printed ${/cx-\w+/.exec(out)?.[0] ?? 'nothing'}.` } };
        const args = JSON.stringify({ cmd: "printf 'cx-%s\\n' local9" });
        const body =
          chunk({ role: 'assistant', content: null, reasoning_content: 'Run the command.' }) +
          chunk({ tool_calls: [{ index: 0, type: 'function', function: { name: 'exec_command', arguments: args } }] }) +
          chunk({}, 'tool_calls') +
          'data: [DONE]\n\n';
        return { kind: 'raw', contentType: 'text/event-stream', body };
      },
    );
    const env = { ...t.box.env, CODEX_HOME: codexHome, SVC_PROXY_HOME: t.world.daemon.home };
    const res = await runCodex(process.execPath, [BIN, 'run', '--model', 'lm/gpt-oss:20b', '--key', t.world.daemon.key, 'codex', 'exec', '--skip-git-repo-check', 'Print the marker with the shell.'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(res.stdout).toContain('The command printed cx-local9.');
    const second = mock.generations().find((g) => chatToolResult(g) !== undefined)!;
    expect(chatToolResult(second)).toContain('cx-local9');
    const turn = (second.body.messages as Array<{ role: string; tool_calls?: unknown[]; reasoning_content?: string }>).find((m) => m.role === 'assistant' && m.tool_calls)!;
    expect(turn.reasoning_content).toBe('Run the command.');
  });
});

// The tool is a devDependency: its absence is a broken install, which must fail, never skip.
if ('missing' in codex) {
  describe('Codex CLI through protocol A /responses', () => {
    it('has the tool installed', () => {
      throw new Error(codex.missing);
    });
  });
}
