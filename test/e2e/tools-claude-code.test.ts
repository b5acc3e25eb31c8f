/**
 * The real Claude Code CLI (devDependency @anthropic-ai/claude-code) through the protocol B base,
 * configured only by `svc-proxy env claude-code`, to an `openai` target (Responses upstream) and a
 * `gemini` target (OpenAI-compatible Chat upstream), each with one tool-use turn: the mock asks
 * for a tool call, Claude Code runs the tool, and the mock sees the tool's output next request.
 *
 * Offline: temp HOME and CLAUDE_CONFIG_DIR, no login (the service key goes in
 * ANTHROPIC_AUTH_TOKEN, which Claude Code uses without OAuth), non-essential traffic and telemetry
 * off (CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1 from the env output), `-p` so no onboarding UI.
 */
import { spawn } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../daemon/harness.js';
import { expectNoServiceKey } from '../fixtures/e2e-helpers.js';
import { startForwardProxy } from '../fixtures/forward-proxy.js';
import type { RecordedRequest, Reply } from '../fixtures/mock-upstream/index.js';
import { chatToolResult, responsesToolResult } from '../fixtures/tool-results.js';
import { envJson, refusedSince, runProcess, toolBinary, useToolWorld, type EnvJson } from '../fixtures/tools.js';
import { SLUGS } from '../fixtures/world.js';

const claude = toolBinary('claude');
const RUN_TIMEOUT = 45_000;
// a test may run the tool twice, each run up to RUN_TIMEOUT: vitest's 30 s default cut the tests first on a loaded machine
const TEST_TIMEOUT = 2 * RUN_TIMEOUT + 10_000;

const t = useToolWorld();

interface ClaudeResult {
  type: string;
  subtype: string;
  is_error: boolean;
  result: string;
  num_turns: number;
  modelUsage?: Record<string, unknown>;
}

/** Run `claude -p` with exactly the variables `svc-proxy env` printed (plus a sealed HOME); none of its requests may be refused. */
async function runClaude(settings: EnvJson, prompt: string, extra: string[]): Promise<{ parsed: ClaudeResult; stdout: string; stderr: string }> {
  if ('missing' in claude) throw new Error(claude.missing);
  const env: Record<string, string> = { ...t.box.env, CLAUDE_CONFIG_DIR: join(t.box.home, '.claude'), ...settings.env };
  for (const name of settings.unset) delete env[name];
  const since = new Date().toISOString();
  const res = await runProcess(claude.path, ['-p', prompt, '--output-format', 'json', '--no-session-persistence', ...extra], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
  if (res.code !== 0) throw new Error(`claude exited ${res.code} (${res.signal})\nstdout: ${res.stdout}\nstderr: ${res.stderr}\ndaemon: ${t.world.daemon.log.slice(-3000)}`);
  const { logged, refused } = await refusedSince(t.world.daemon, since);
  expect(logged, 'the run reached the daemon').toBeGreaterThan(0);
  expect(refused, 'requests the daemon refused').toEqual([]);
  const line = res.stdout.trim().split('\n').pop() ?? '';
  return { parsed: JSON.parse(line) as ClaudeResult, stdout: res.stdout, stderr: res.stderr };
}

/** Answer every generation: a tool call first, then (once the tool's result is in) a final text. */
function scriptToolTurn(kind: 'openai' | 'gemini', call: { name: string; arguments: Record<string, unknown> }, resultOf: (r: RecordedRequest) => string | undefined): void {
  const mock = t.world.mock(kind);
  mock.always(
    (r) => mock.plugin.isGeneration(r),
    (r): Reply => {
      const output = resultOf(r);
      return output === undefined
        ? { kind: 'turn', turn: { toolCalls: [{ name: call.name, arguments: call.arguments }] } }
        : { kind: 'turn', turn: { text: `Tool output received: ${output.trim()}` } };
    },
  );
}

describe.skipIf('missing' in claude)('Claude Code CLI through protocol B', { timeout: TEST_TIMEOUT }, () => {
  it('svc-proxy env claude-code: base, auth token, model variables, traffic off, API key removed', async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.4']);
    expect(s.env).toMatchObject({
      ANTHROPIC_BASE_URL: t.world.daemon.baseB(),
      ANTHROPIC_AUTH_TOKEN: s.key.value,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      API_FORCE_IDLE_TIMEOUT: '0',
      ANTHROPIC_MODEL: 'openai/gpt-5.4',
      ANTHROPIC_DEFAULT_SONNET_MODEL: 'openai/gpt-5.4',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'openai/gpt-5.4',
    });
    expect(s.unset).toEqual(['ANTHROPIC_API_KEY']);
    // No key given: svc-proxy made one for the tool through the running daemon, and reuses it.
    expect(s.key).toMatchObject({ name: 'claude-code', source: 'created' });
    expect((await envJson(t.world.daemon, 'claude-code')).key).toMatchObject({ id: s.key.id, source: 'saved' });
  });

  it('to an openai target: Claude Code runs the Bash tool the model asked for; the Responses upstream gets its output', async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.4']);
    // The command prints text that is not in the command itself, so the output can only come from running it.
    scriptToolTurn('openai', { name: 'Bash', arguments: { command: "printf 'svc-%s-%s\\n' marker 42", description: 'Print the marker' } }, responsesToolResult);

    const { parsed } = await runClaude(s, 'Print the marker with the shell.', ['--tools', 'Bash', '--allowedTools', 'Bash(printf:*)']);

    expect(parsed).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    expect(parsed.result).toContain('Tool output received: svc-marker-42');
    expect(Object.keys(parsed.modelUsage ?? {})).toContain('openai/gpt-5.4');

    const gens = t.world.mocks.openai.generations();
    expect(gens.length).toBeGreaterThanOrEqual(2);
    const first = gens[0]!;
    expect(first.path).toBe('/v1/responses');
    expect(first.body.model).toBe('gpt-5.4');
    const tools = (first.body.tools as Array<{ type: string; name: string }>).map((t) => `${t.type}:${t.name}`);
    expect(tools).toContain('function:Bash');
    const last = gens[gens.length - 1]!;
    const input = last.body.input as Array<{ type?: string; name?: string; call_id?: string; output?: unknown }>;
    const call = input.find((i) => i.type === 'function_call' && i.name === 'Bash');
    const output = input.find((i) => i.type === 'function_call_output');
    expect(call, 'the assistant tool call is replayed').toBeDefined();
    expect(output?.call_id).toBe(call?.call_id);
    expect(JSON.stringify(output?.output)).toContain('svc-marker-42');
    for (const g of gens) expectNoServiceKey(g, s.key.value);
  });

  it('with ANTHROPIC_BASE_URL ending in /v1 (which doctor warns of, not fails on), Claude Code still gets its answer', async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.4']);
    const since = new Date().toISOString();
    const { parsed } = await runClaude({ ...s, env: { ...s.env, ANTHROPIC_BASE_URL: `${t.world.daemon.baseB()}/v1` } }, 'Say hello.', ['--tools', '']);
    expect(parsed).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    // its requests went to …/protocol-b/v1/v1/messages and were answered as messages (none refused: runClaude)
    const entries = await t.world.daemon.logs((l) => l.some((e) => e.time >= since && e.endpoint === 'messages'));
    expect(entries.filter((e) => e.time >= since && e.endpoint === 'messages' && e.status === 200).length).toBeGreaterThan(0);
    expect(t.world.mocks.openai.generations().length).toBeGreaterThan(0);
  });

  it("to an openai target: Claude Code's WebSearch tool searches with OpenAI's web search and gets the pages it found", async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.4']);
    const mock = t.world.mocks.openai;
    const page = { url: 'https://example.com/svc-proxy-notes', title: 'svc-proxy notes 7731' };
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (r): Reply => {
        const tools = (Array.isArray(r.body?.tools) ? r.body.tools : []) as Array<{ type?: string }>;
        // WebSearch's own request: the provider searches, then writes what it found
        if (tools.some((tool) => tool.type === 'web_search')) return { kind: 'turn', turn: { webSearches: [{ query: 'svc-proxy notes', pages: [page] }], text: `Per ${page.title}: all good.` } };
        const output = responsesToolResult(r);
        return output === undefined
          ? { kind: 'turn', turn: { toolCalls: [{ name: 'WebSearch', arguments: { query: 'svc-proxy notes' } }] } }
          : { kind: 'turn', turn: { text: `Tool output received: ${output.trim()}` } };
      },
    );

    const { parsed } = await runClaude(s, 'Search the web for svc-proxy notes.', ['--tools', 'WebSearch', '--allowedTools', 'WebSearch']);

    expect(parsed).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    // Claude Code lists the pages of the web_search_tool_result block and the text after it
    expect(parsed.result).toContain(page.url);
    expect(parsed.result).toContain(page.title);
    expect(parsed.result).toContain('all good.');
    const search = mock.generations().find((g) => (g.body.tools as Array<{ type?: string }> | undefined)?.some((tool) => tool.type === 'web_search'));
    expect(search?.body).toMatchObject({ model: 'gpt-5.4', tools: [{ type: 'web_search' }] });
    expect(search?.body.include).toContain('web_search_call.action.sources');
  });

  it('to an openai target: Claude Code defers WebSearch behind ToolSearch; GPT sees it only once ToolSearch loaded it, then searches', async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.4']);
    const mock = t.world.mocks.openai;
    const page = { url: 'https://example.com/deferred-notes', title: 'deferred notes 5120' };
    const functionNames = (r: RecordedRequest) => ((Array.isArray(r.body?.tools) ? r.body.tools : []) as Array<{ type?: string; name?: string }>).filter((tool) => tool.type === 'function').map((tool) => tool.name);
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (r): Reply => {
        const tools = (Array.isArray(r.body?.tools) ? r.body.tools : []) as Array<{ type?: string }>;
        if (tools.some((tool) => tool.type === 'web_search')) return { kind: 'turn', turn: { webSearches: [{ query: 'deferred notes', pages: [page] }], text: `Per ${page.title}: found.` } };
        if (!functionNames(r).includes('ToolSearch')) return { kind: 'turn', turn: { text: 'ok' } };
        const output = responsesToolResult(r);
        if (output === undefined) return { kind: 'turn', turn: { toolCalls: [{ name: 'ToolSearch', arguments: { query: 'select:WebSearch' } }] } };
        if (output.includes('is loaded')) return { kind: 'turn', turn: { toolCalls: [{ name: 'WebSearch', arguments: { query: 'deferred notes' } }] } };
        return { kind: 'turn', turn: { text: `Tool output received: ${output.trim()}` } };
      },
    );

    // Claude Code's default tool set, where WebSearch is one of the deferred tools
    const { parsed } = await runClaude(s, 'Search the web for deferred notes.', ['--allowedTools', 'WebSearch']);

    expect(parsed).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
    expect(parsed.result).toContain(page.url);
    expect(parsed.result).toContain('found.');
    const loop = mock.generations().filter((g) => functionNames(g).includes('ToolSearch'));
    const before = loop.find((g) => responsesToolResult(g) === undefined);
    const after = loop.find((g) => responsesToolResult(g)?.includes('is loaded'));
    // before: deferred tools (and Claude Code's never-to-be-called placeholder) are not offered
    expect(functionNames(before!)).not.toContain('WebSearch');
    expect(functionNames(before!)).not.toContain('DeferredToolPlaceholder');
    // after: Claude Code answered ToolSearch with a tool_reference; the tool is offered, the reference is a line of text
    expect(functionNames(after!)).toContain('WebSearch');
    expect(functionNames(after!)).not.toContain('DeferredToolPlaceholder');
    expect(responsesToolResult(after!)).toBe('Tool "WebSearch" is loaded and can be called now.');
    expect(mock.generations().some((g) => (g.body.tools as Array<{ type?: string }> | undefined)?.some((tool) => tool.type === 'web_search'))).toBe(true);
  });

  it("to an openrouter target: env sets Claude Code's context window from OpenRouter's model list, and Claude Code takes it (the smallest of a group's targets on a group base)", async () => {
    const model = 'openrouter/openai/gpt-5';
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', model]);
    expect(s.env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('400000'); // context_length in the mock's list
    const mock = t.world.mocks.openrouter;
    mock.always((r) => mock.plugin.isGeneration(r), (): Reply => ({ kind: 'turn', turn: { text: 'Hi.' } }));
    const { parsed } = await runClaude(s, 'Say hi.', []);
    expect(parsed).toMatchObject({ subtype: 'success', is_error: false });
    // without the variable Claude Code takes a model it does not know for a 1,000,000-token one
    expect(parsed.modelUsage?.[model]).toMatchObject({ contextWindow: 400_000 });

    const add = await t.world.daemon.cli(['group', 'add', 'ctx', '--model', `big=openrouter/meta-llama/llama-4-maverick,${model}`]);
    expect(add.code, add.stderr).toBe(0);
    expect((await envJson(t.world.daemon, 'claude-code', ['--group', 'ctx', '--model', 'big'])).env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('400000');
    // Gemini: its native list's inputTokenLimit
    expect((await envJson(t.world.daemon, 'claude-code', ['--model', 'gemini/gemini-2.5-flash'])).env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('1048576');
    // a local server whose list states none: the context the model is loaded with (Ollama's /api/ps)
    t.world.mocks.local.loaded = { 'small-ctx': 8192 };
    try {
      expect((await envJson(t.world.daemon, 'claude-code', ['--model', `${SLUGS.local}/small-ctx`])).env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('8192');
    } finally {
      t.world.mocks.local.loaded = {};
    }
    // a provider whose list states no window, for a model no page states (or the pages disagree on): not set (the note says so), and its list not fetched for it
    const listsBefore = t.world.mocks.openai.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/models')).length;
    expect((await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.5'])).env).not.toHaveProperty('CLAUDE_CODE_MAX_CONTEXT_TOKENS');
    // OpenAI: the input its model page documents for the model (window less max output), where one was read
    const mini = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5-mini']);
    expect(mini.env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('272000');
    expect(t.world.mocks.openai.requests.filter((r) => r.method === 'GET' && r.path.endsWith('/models')).length).toBe(listsBefore);
    // and Claude Code takes it
    const openai = t.world.mocks.openai;
    openai.always((r) => openai.plugin.isGeneration(r), (): Reply => ({ kind: 'turn', turn: { text: 'Hi.' } }));
    expect((await runClaude(mini, 'Say hi.', [])).parsed.modelUsage?.['openai/gpt-5-mini']).toMatchObject({ contextWindow: 272_000 });
  });

  it('to a gemini target: Claude Code reads the file the model asked for; the Chat upstream gets its content (thought signature kept)', async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'gemini/gemini-3-pro-preview', '--key', t.world.daemon.key]);
    expect(s.key.source).toBe('flag');
    const file = join(t.box.work, 'notes.txt');
    await writeFile(file, 'gemini-secret-phrase: tangerine-17\n');
    scriptToolTurn('gemini', { name: 'Read', arguments: { file_path: file } }, chatToolResult);

    const { parsed } = await runClaude(s, 'What does notes.txt say?', ['--tools', 'Read', '--allowedTools', 'Read']);

    expect(parsed).toMatchObject({ subtype: 'success', is_error: false });
    expect(parsed.result).toContain('tangerine-17');

    const gens = t.world.mocks.gemini.generations();
    expect(gens.length).toBeGreaterThanOrEqual(2);
    expect(gens[0]!.path).toBe('/v1beta/openai/chat/completions');
    expect(gens[0]!.body.model).toBe('gemini-3-pro-preview');
    const names = (gens[0]!.body.tools as Array<{ function: { name: string } }>).map((t) => t.function.name);
    expect(names).toContain('Read');
    const last = gens[gens.length - 1]!;
    const msgs = last.body.messages as Array<{ role: string; content?: unknown; tool_call_id?: string; tool_calls?: Array<{ id: string; function: { name: string }; extra_content?: { google?: { thought_signature?: string } } }> }>;
    const assistant = msgs.find((m) => m.role === 'assistant' && m.tool_calls?.some((c) => c.function.name === 'Read'));
    const tool = msgs.find((m) => m.role === 'tool');
    expect(assistant).toBeDefined();
    expect(tool?.tool_call_id).toBe(assistant!.tool_calls![0]!.id);
    expect(JSON.stringify(tool?.content)).toContain('tangerine-17');
    // Gemini refuses a replayed call without its signature; the mock enforces that, so the second request got it back.
    expect(assistant!.tool_calls![0]!.extra_content?.google?.thought_signature).toBeTruthy();
    for (const g of gens) expectNoServiceKey(g, s.key.value);
  });

  describe('to a DeepSeek reasoner, whose reasoning must come back after a tool call (the mock refuses the turn without it)', () => {
    const thought = 'Run the printf command, then report its output.';
    const ask = (): void => {
      const mock = t.world.mock('customA');
      mock.always(
        (r) => mock.plugin.isGeneration(r),
        (r): Reply => {
          const output = chatToolResult(r);
          return output === undefined
            ? { kind: 'turn', turn: { reasoning: { text: thought }, toolCalls: [{ name: 'Bash', arguments: { command: "printf 'svc-%s\\n' deep", description: 'Print' } }], stream: { chunk: 8 } } }
            : { kind: 'turn', turn: { text: `Tool output received: ${output.trim()}` } };
        },
      );
    };
    const run = async (extra: string[]): Promise<{ parsed: ClaudeResult; stdout: string }> => {
      const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'ca/deepseek-reasoner', '--key', t.world.daemon.key]);
      ask();
      // runClaude also checks that nothing was refused (a refused thinking setting costs Claude Code a resend)
      const res = await runClaude(s, 'Print the marker with the shell.', ['--tools', 'Bash', '--allowedTools', 'Bash(printf:*)', ...extra]);
      expect(res.parsed).toMatchObject({ type: 'result', subtype: 'success', is_error: false });
      expect(res.parsed.result).toContain('Tool output received: svc-deep');
      const gens = t.world.mocks.customA.generations();
      const assistant = (gens[gens.length - 1]!.body.messages as Array<{ role: string; tool_calls?: unknown[]; reasoning_content?: string }>).find((m) => m.role === 'assistant' && m.tool_calls);
      expect(assistant?.reasoning_content).toBe(thought);
      return res;
    };
    /** The thinking blocks Claude Code received, from its stream-json output. */
    const thinkingShown = (stdout: string): Array<{ thinking?: string }> =>
      stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; message?: { content?: Array<{ type: string; thinking?: string }> } })
        .filter((e) => e.type === 'assistant')
        .flatMap((e) => e.message?.content ?? [])
        .filter((b) => b.type === 'thinking');

    it('display "omitted" (what -p sends): the tool loop completes, DeepSeek getting its reasoning back from the signature', async () => {
      await run([]);
    });

    it('display "updates" (what Claude Code printing a stream sends, as under the Agent SDK): accepted, the reasoning shown', async () => {
      // the last --output-format wins: stream-json prints each assistant message before the result line
      const { stdout } = await run(['--output-format', 'stream-json', '--verbose']);
      expect(thinkingShown(stdout)).toEqual([expect.objectContaining({ thinking: thought })]);
    });
  });

  it('interactive, in a terminal, as people use it (thinking display "updates", safeguards and their betas): answered, nothing refused', async () => {
    if ('missing' in claude) return;
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'openai/gpt-5.4', '--key', t.world.daemon.key]);
    const mock = t.world.mocks.openai;
    mock.always((r) => mock.plugin.isGeneration(r), (): Reply => ({ kind: 'turn', turn: { text: 'Hello from the terminal.' } }));
    const configDir = join(t.box.home, '.claude-tty');
    await mkdir(configDir, { recursive: true });
    // onboarding done and this folder trusted, as after a first run: the session goes straight to the prompt
    await writeFile(join(configDir, '.claude.json'), JSON.stringify({ hasCompletedOnboarding: true, projects: { [t.box.work]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } } }));
    const env: Record<string, string> = { ...t.box.env, CLAUDE_CONFIG_DIR: configDir, TERM: 'xterm-256color', ...s.env };
    for (const name of s.unset) delete env[name];
    const since = new Date().toISOString();
    // `script` gives it a terminal (util-linux, in every Debian); the session stays open, so it is ended once answered
    const child = spawn('script', ['-qfc', `'${claude.path}' 'Say hello.'`, '/dev/null'], { env, cwd: t.box.work, detached: true, stdio: 'ignore' });
    try {
      const deadline = Date.now() + RUN_TIMEOUT;
      let answered = false;
      while (!answered && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 250));
        answered = mock.generations().length > 0 && (await refusedSince(t.world.daemon, since)).logged >= mock.generations().length;
      }
      expect(answered, 'the session sent its prompt and the daemon answered it').toBe(true);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }
    expect((await refusedSince(t.world.daemon, since)).refused, 'requests the daemon refused').toEqual([]);
    expect(JSON.stringify(mock.generations()[0]!.body.input)).toContain('Say hello.');
  });

  it('to a local server that writes its reasoning inline as <think>…</think>: Claude Code gets a clean answer', async () => {
    const s = await envJson(t.world.daemon, 'claude-code', ['--model', 'lm/llama3.1:8b', '--key', t.world.daemon.key]);
    const mock = t.world.mock('local');
    mock.always(
      (r) => mock.plugin.isGeneration(r),
      (): Reply => ({ kind: 'turn', turn: { reasoning: { text: 'The user greets me; greet back.' }, reasoningInline: true, text: 'Hello from the local model.', stream: { chunk: 4 } } }),
    );

    const { parsed } = await runClaude(s, 'Say hello.', ['--tools', '']);

    expect(parsed).toMatchObject({ subtype: 'success', is_error: false });
    // the mock sent `<think>…</think>\n\n` ahead of it, in 4-character pieces
    expect(parsed.result).toBe('Hello from the local model.');
  });

  it('with `svc-proxy run claude` (daemon already running, key saved by `env`): the same tool turn', async () => {
    if ('missing' in claude) return;
    scriptToolTurn('openai', { name: 'Bash', arguments: { command: "printf 'run-%s-%s\\n' marker 9", description: 'Print the marker' } }, responsesToolResult);
    const env = { ...t.box.env, CLAUDE_CONFIG_DIR: join(t.box.home, '.claude'), SVC_PROXY_HOME: t.world.daemon.home };
    const res = await runProcess(
      process.execPath,
      [BIN, 'run', '--model', 'openai/gpt-5.4', 'claude', '-p', 'Print the marker.', '--output-format', 'json', '--no-session-persistence', '--tools', 'Bash', '--allowedTools', 'Bash(printf:*)'],
      { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT },
    );
    if (res.code !== 0) throw new Error(`svc-proxy run claude exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
    const parsed = JSON.parse(res.stdout.trim().split('\n').pop() ?? '') as ClaudeResult;
    expect(parsed).toMatchObject({ subtype: 'success', is_error: false });
    expect(parsed.result).toContain('Tool output received: run-marker-9');
    expect(t.world.mocks.openai.generations().length).toBeGreaterThanOrEqual(2);
  });

  it('in a shell with HTTPS_PROXY/HTTP_PROXY: `run` adds the daemon to NO_PROXY, so Claude Code reaches it directly, not through the proxy', async () => {
    if ('missing' in claude) return;
    // Claude Code sends even a 127.0.0.1 base to HTTP_PROXY; a company proxy cannot reach this machine's loopback
    const proxy = await startForwardProxy();
    try {
      const mock = t.world.mocks.openai;
      mock.always((r) => mock.plugin.isGeneration(r), { kind: 'turn', turn: { text: 'answered directly' } });
      const env = { ...t.box.env, CLAUDE_CONFIG_DIR: join(t.box.home, '.claude'), SVC_PROXY_HOME: t.world.daemon.home, HTTPS_PROXY: proxy.url(), HTTP_PROXY: proxy.url(), NO_PROXY: '.corp.example' };
      const res = await runProcess(process.execPath, [BIN, 'run', '--model', 'openai/gpt-5.4', 'claude', '-p', 'Say hi.', '--output-format', 'json', '--no-session-persistence'], {
        env,
        cwd: t.box.work,
        timeoutMs: RUN_TIMEOUT,
      });
      if (res.code !== 0) throw new Error(`svc-proxy run claude exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}`);
      expect(JSON.parse(res.stdout.trim().split('\n').pop() ?? '')).toMatchObject({ subtype: 'success', result: 'answered directly' });
      expect(proxy.calls.map((c) => c.target)).toEqual([]);
      expect(mock.generations()).toHaveLength(1);
    } finally {
      await proxy.close();
    }
  });
});

// The tool is a devDependency: its absence is a broken install, which must fail, never skip.
if ('missing' in claude) {
  describe('Claude Code CLI through protocol B', () => {
    it('has the tool installed', () => {
      throw new Error(claude.missing);
    });
  });
}
