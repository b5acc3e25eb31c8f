/** Pieces of `svc-proxy env|run` that need no CLI: PATH lookup, the tool's environment, the default shell. */
import { chmod, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { defaultShell } from '../../src/cli/tools/render.js';
import { findExecutable, toolEnv } from '../../src/cli/tools/spawn-tool.js';
import { outlastMs, outlastSeconds } from '../../src/cli/tools/tool-limits.js';
import { findTool, TOOLS } from '../../src/cli/tools/index.js';
import { combine } from '../../src/cli/tools/model-facts.js';
import type { ToolInput, ToolProfile } from '../../src/cli/tools/types.js';
import type { ModelInput } from '../../src/providers/models.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterAll(removeTempDirs);

describe('findExecutable', () => {
  it('takes the first executable file on PATH; skips directories and files without the x bit', async () => {
    const root = await tempStateDir('svc-path-');
    const [a, b, c] = ['a', 'b', 'c'].map((d) => join(root, d));
    await Promise.all([a, b, c].map((d) => mkdir(d!)));
    await mkdir(join(a!, 'tool')); // a directory of that name
    await writeFile(join(b!, 'tool'), '#!/bin/sh\n'); // not executable
    await writeFile(join(c!, 'tool'), '#!/bin/sh\n');
    await chmod(join(c!, 'tool'), 0o755);
    expect(findExecutable('tool', { PATH: [a, b, c].join(':') }, 'linux')).toBe(join(c!, 'tool'));
    expect(findExecutable('tool', { PATH: [a, b].join(':') }, 'linux')).toBeUndefined();
    expect(findExecutable('tool', {}, 'linux')).toBeUndefined();
    expect(findExecutable(join(c!, 'tool'), { PATH: '' }, 'linux')).toBe(join(c!, 'tool'));
  });

  it('on Windows tries the PATHEXT extensions (npm installs tools as .cmd shims)', async () => {
    const dir = await tempStateDir('svc-pathext-');
    await writeFile(join(dir, 'claude.CMD'), '@echo off\n');
    expect(findExecutable('claude', { Path: dir, PATHEXT: '.EXE;.CMD' }, 'win32')).toBe(join(dir, 'claude.CMD'));
    expect(findExecutable('claude', { Path: dir, PATHEXT: '.EXE' }, 'win32')).toBeUndefined();
  });
});

describe('toolEnv', () => {
  it('keeps the environment, sets the tool variables over it, removes the conflicting ones', () => {
    const env = toolEnv({ PATH: '/bin', ANTHROPIC_API_KEY: 'real', ANTHROPIC_BASE_URL: 'https://api.anthropic.com', EMPTY: undefined }, [['ANTHROPIC_BASE_URL', 'http://127.0.0.1:4545/protocol-b']], ['ANTHROPIC_API_KEY']);
    expect(env).toEqual({ PATH: '/bin', ANTHROPIC_BASE_URL: 'http://127.0.0.1:4545/protocol-b' });
  });
});

describe('outlastMs / outlastSeconds', () => {
  it('a minute past the daemon’s wait; whole seconds round up, so they still outlast it', () => {
    expect(outlastMs({ upstreamWaitMs: 1_210_000 })).toBe(1_270_000);
    expect(outlastSeconds({ upstreamWaitMs: 1_210_000 })).toBe(1270);
    expect(outlastSeconds({ upstreamWaitMs: 1_210_001 })).toBe(1271);
  });
});

describe('defaultShell', () => {
  it('fish or PowerShell when $SHELL says so, PowerShell on Windows without $SHELL, else sh', () => {
    expect(defaultShell({ SHELL: '/usr/local/bin/fish' }, 'darwin')).toBe('fish');
    expect(defaultShell({ SHELL: '/usr/bin/pwsh' }, 'linux')).toBe('powershell');
    expect(defaultShell({ SHELL: '/bin/zsh' }, 'darwin')).toBe('sh');
    expect(defaultShell({}, 'win32')).toBe('powershell');
    expect(defaultShell({ SHELL: 'C:\\Program Files\\Git\\usr\\bin\\bash.exe' }, 'win32')).toBe('sh');
    expect(defaultShell({}, 'linux')).toBe('sh');
  });
});

describe('tool profiles', () => {
  it('ids and aliases are unique and found case-insensitively', () => {
    const names = TOOLS.flatMap((t) => [t.id, ...t.aliases]);
    expect(new Set(names).size).toBe(names.length);
    expect(findTool('Claude')?.id).toBe('claude-code');
    expect(findTool(' codex-cli ')?.id).toBe('codex');
    expect(findTool('emacs')).toBeUndefined();
  });

  it('every profile puts the key and the base URL somewhere the tool reads them', () => {
    for (const t of TOOLS) {
      const s = t.setup({ baseUrl: 'http://127.0.0.1:1/base', key: 'sk-svc-proxy-K', model: 'p/m', upstreamWaitMs: 910_000 });
      const env = Object.fromEntries(s.env);
      // goose takes the base as a host and a path (OPENAI_HOST + OPENAI_BASE_PATH), joined by a slash.
      const joined = env.OPENAI_BASE_PATH ? `${env.OPENAI_HOST}/${env.OPENAI_BASE_PATH}` : '';
      const everything = JSON.stringify([s.env, s.file, s.settings, s.runArgs, joined]);
      expect(everything, `${t.id} hands over the base URL`).toContain('http://127.0.0.1:1/base');
      expect(everything, `${t.id} hands over the key`).toContain('sk-svc-proxy-K');
    }
  });

  it('a known context window reaches the profiles that use one: Claude Code’s, Codex’s and goose’s compaction, the model entries of opencode, Crush, Continue and Zed', () => {
    const base = { baseUrl: 'http://127.0.0.1:1/base', key: 'sk-svc-proxy-K', model: 'local/qwen3-coder', upstreamWaitMs: 910_000 };
    const users = TOOLS.filter((t) => t.usesModelFacts).map((t) => t.id);
    expect(users).toEqual(['claude-code', 'codex', 'opencode', 'crush', 'goose', 'continue', 'zed']);
    const known = (id: string) => findTool(id)!.setup({ ...base, contextWindow: 32_768 });
    const unknown = (id: string) => findTool(id)!.setup(base);

    expect(Object.fromEntries(known('claude-code').env).CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('32768');
    expect(known('claude-code').notes.join(' ')).not.toMatch(/context window/);
    expect(Object.fromEntries(unknown('claude-code').env)).not.toHaveProperty('CLAUDE_CODE_MAX_CONTEXT_TOKENS');
    expect(unknown('claude-code').notes.join(' ')).toMatch(/context window of local\/qwen3-coder is not known here.*CLAUDE_CODE_MAX_CONTEXT_TOKENS/);
    // a group name that is one of Claude Code's own: it keeps its own window and does not read the variable (README, Context windows)
    for (const contextWindow of [undefined, 32_768]) {
      const own = findTool('claude-code')!.setup({ ...base, group: 'cc', model: 'claude-sonnet-4-5', ...(contextWindow ? { contextWindow } : {}) });
      const notes = own.notes.join(' ');
      expect(notes).toContain('Claude Code takes claude-sonnet-4-5 for one of its own models');
      expect(notes).not.toMatch(/1,000,000/);
    }
    // a name of the group's own is one Claude Code does not know: the usual note
    expect(findTool('claude-code')!.setup({ ...base, group: 'cc', model: 'big' }).notes.join(' ')).toMatch(/context window of big is not known here/);

    expect(known('crush').file!.content).toContain('"context_window": 32768');
    expect(known('crush').notes.join(' ')).toMatch(/context_window is what the provider's model list states/);
    expect(unknown('crush').file!.content).toContain('"context_window": 200000');
    expect(known('crush').file!.content).not.toContain('can_reason');
    expect(unknown('crush').notes.join(' ')).toMatch(/"can_reason": true if it reasons, and "supports_attachments": true if it reads images/);
    const reasoning = findTool('crush')!.setup({ ...base, reasons: true, inputs: ['image', 'pdf'] });
    expect(JSON.parse(reasoning.file!.content).providers['svc-proxy'].models[0]).toMatchObject({ can_reason: true, supports_attachments: true });
    expect(reasoning.notes.join(' ')).not.toMatch(/can_reason|supports_attachments/);
    // known not to reason (gpt-4o): no thinking offered, and no note to turn it on
    const notReasoning = findTool('crush')!.setup({ ...base, reasons: false, inputs: ['image', 'pdf'] });
    expect(JSON.parse(notReasoning.file!.content).providers['svc-proxy'].models[0]).not.toHaveProperty('can_reason');
    expect(notReasoning.notes.join(' ')).not.toMatch(/can_reason/);
    // goose: the window it compacts by, only where known (else its own 128,000 or what it knows of the name)
    expect(Object.fromEntries(known('goose').env).GOOSE_CONTEXT_LIMIT).toBe('32768');
    expect(Object.fromEntries(unknown('goose').env)).not.toHaveProperty('GOOSE_CONTEXT_LIMIT');
    // Codex: the window it compacts by, and reasoning only for a model known to reason
    expect(known('codex').file!.content).toContain('model_context_window = 32768\n');
    expect(known('codex').runArgs).toContain('model_context_window=32768');
    expect(known('codex').file!.content).not.toContain('model_reasoning_effort');
    expect(unknown('codex').file!.content).not.toContain('model_context_window');
    const reasoningCodex = findTool('codex')!.setup({ ...base, reasons: true });
    expect(reasoningCodex.runArgs).toEqual(expect.arrayContaining(['model_reasoning_effort="medium"', 'model_reasoning_summary="auto"']));
    expect(known('continue').file!.content).toContain('      contextLength: 32768\n');
    expect(known('continue').file!.content).not.toContain('capabilities');
    expect(unknown('continue').notes.join(' ')).toMatch(/contextLength 200000 is a stand-in.*tool_use if it calls tools .*image_input if it reads images/);
    const agentic = findTool('continue')!.setup({ ...base, callsTools: true, inputs: [] });
    expect(agentic.file!.content).toContain('    capabilities: [tool_use]\n');
    expect(agentic.notes.join(' ')).not.toMatch(/tool_use/);
    expect(known('zed').file!.content).toContain('"max_tokens": 32768');
    const zedCapabilities = (input: Partial<ToolInput>) => JSON.parse(findTool('zed')!.setup({ ...base, ...input }).file!.content).language_models.openai_compatible['svc-proxy'].available_models[0].capabilities;
    expect(zedCapabilities({ inputs: ['image', 'pdf'] })).toEqual({ tools: true, images: true, parallel_tool_calls: false, prompt_cache_key: false });
    expect(zedCapabilities({})).toEqual({ tools: true, images: false, parallel_tool_calls: false, prompt_cache_key: false });
    expect(unknown('zed').notes.join(' ')).toMatch(/capabilities.images/);
    expect(known('zed').notes.join(' ')).not.toMatch(/stand-in/);
    expect(unknown('zed').notes.join(' ')).toMatch(/stand-in/);
  });

  it('a documented max output replaces the 32,000 stand-in: opencode limit.output, Crush default_max_tokens, Continue maxTokens (its contextLength given the output back)', () => {
    const base = { baseUrl: 'http://127.0.0.1:1/base', key: 'sk-svc-proxy-K', model: 'openai/gpt-5-pro', upstreamWaitMs: 910_000 };
    const documented = { ...base, contextWindow: 128_000, maxOutput: 272_000, outputBesideWindow: true };
    const opencodeEntry = (input: ToolInput) =>
      (JSON.parse(Object.fromEntries(findTool('opencode')!.setup(input).env).OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, { limit: unknown }> }> }).provider['svc-proxy']!.models['openai/gpt-5-pro']!;
    expect(opencodeEntry(documented).limit).toEqual({ context: 128_000, input: 128_000, output: 272_000 });
    // a window that holds the output too (Claude's, OpenRouter's): no `input`, so opencode compacts at the window
    // less the output, never at the window less 20,000 with the whole output still to ask for
    expect(opencodeEntry({ ...base, contextWindow: 200_000, maxOutput: 64_000 }).limit).toEqual({ context: 200_000, output: 64_000 });

    const crush = findTool('crush')!.setup(documented);
    expect(JSON.parse(crush.file!.content).providers['svc-proxy'].models[0]).toMatchObject({ context_window: 128_000, default_max_tokens: 272_000 });
    // a max output stated without a window: only the window is called a stand-in
    const outputOnly = findTool('crush')!.setup({ ...base, maxOutput: 8_192 }).notes.join(' ');
    expect(outputOnly).toContain("context_window 200000 is a stand-in: set your model's own; default_max_tokens is its max output as its provider states it.");
    // where both come from: OpenAI's pages here, Anthropic's or Gemini's list elsewhere (not "the pages" for every provider)
    expect(crush.notes.join(' ')).toContain("context_window and default_max_tokens are the model's window and max output as its provider states them (OpenAI's model pages, Anthropic's or Gemini's model list).");
    expect(crush.notes.join(' ')).not.toMatch(/stand-in/);

    // Continue keeps maxTokens out of contextLength: 128,000 in + 272,000 out, else it would refuse to send
    const continueFile = findTool('continue')!.setup(documented).file!.content;
    expect(continueFile).toContain('      contextLength: 400000\n      maxTokens: 272000\n');
    // a window without a documented output keeps the stand-in, and the window as it is
    expect(findTool('continue')!.setup({ ...base, contextWindow: 32_768 }).file!.content).toContain('      contextLength: 32768\n      maxTokens: 32000\n');
  });

  it('Continue: a window that holds the output as well (Anthropic’s max_input_tokens, beside its listed max_tokens) is its contextLength as it is', () => {
    // Anthropic counts both against one limit ("input length and `max_tokens` exceed context limit: 188162 + 32000 > 200000"):
    // 200,000 + 64,000 would let Continue fill all 200,000 with the prompt and still ask for 64,000
    const listed = { baseUrl: 'http://127.0.0.1:1/base', key: 'sk-svc-proxy-K', model: 'anthropic/claude-sonnet-4-5', upstreamWaitMs: 910_000, contextWindow: 200_000, maxOutput: 64_000 };
    expect(findTool('continue')!.setup(listed).file!.content).toContain('      contextLength: 200000\n      maxTokens: 64000\n');
  });

  it('opencode’s model entry states what is known of the model: window (else a stand-in), what it reads, whether it reasons; notes name what is not known', () => {
    const base = { baseUrl: 'http://127.0.0.1:1/base', key: 'sk-svc-proxy-K', model: 'p/m', upstreamWaitMs: 910_000 };
    const entryOf = (s: ReturnType<ToolProfile['setup']>) =>
      (JSON.parse(Object.fromEntries(s.env).OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, unknown> }> }).provider['svc-proxy']!.models['p/m'];
    const opencode = findTool('opencode')!;

    const known = opencode.setup({ ...base, contextWindow: 400_000, inputs: ['image', 'pdf'], reasons: true });
    expect(entryOf(known)).toEqual({
      name: 'p/m',
      // a window not said to be the input alone: no limit.input (the window less the output is where it compacts)
      limit: { context: 400_000, output: 32_000 },
      reasoning: true,
      attachment: true,
      modalities: { input: ['text', 'image', 'pdf'], output: ['text'] },
    });
    expect(known.notes).toEqual([]);
    expect(JSON.parse(known.file!.content)).toEqual(JSON.parse(Object.fromEntries(known.env).OPENCODE_CONFIG_CONTENT!));

    const unknown = opencode.setup(base);
    expect(entryOf(unknown)).toEqual({ name: 'p/m', limit: { context: 200_000, output: 32_000 } });
    expect(unknown.notes.join('\n')).toMatch(/limit.context 200000 .* stand-in/);
    expect(unknown.notes.join('\n')).toMatch(/text only .*"modalities"/);
    expect(unknown.notes.join('\n')).toMatch(/"reasoning": true/);
    // known not to reason (gpt-4o): no reasoning, and no note to turn it on
    const notReasoning = opencode.setup({ ...base, reasons: false });
    expect(entryOf(notReasoning)).not.toHaveProperty('reasoning');
    expect(notReasoning.notes.join('\n')).not.toMatch(/"reasoning": true/);
    // known to read nothing besides text (OpenRouter says so): text only, no attachments
    expect(entryOf(opencode.setup({ ...base, inputs: [] }))).not.toHaveProperty('modalities');
  });
});

describe('model facts', () => {
  it('a group name’s targets: the smallest window stated, inputs all of them read, reasoning or tools only if all have them', () => {
    const claude = { contextWindow: 200_000, inputs: ['image', 'pdf'] as ModelInput[], reasons: true, callsTools: true };
    const gpt = { inputs: ['image', 'pdf'] as ModelInput[], reasons: true, callsTools: true };
    const qwen = { contextWindow: 262_144, inputs: ['image'] as ModelInput[], reasons: false, callsTools: true };
    const local = {};
    expect(combine([claude])).toEqual(claude);
    expect(combine([claude, gpt])).toEqual({ contextWindow: 200_000, inputs: ['image', 'pdf'], reasons: true, callsTools: true });
    // one target known not to reason: the name is known not to (no note asks to turn it on)
    expect(combine([gpt, qwen])).toEqual({ contextWindow: 262_144, inputs: ['image'], reasons: false, callsTools: true });
    expect(combine([claude, local])).toEqual({ contextWindow: 200_000 });
    expect(combine([qwen, local])).toEqual({ contextWindow: 262_144, reasons: false });
    expect(combine([])).toEqual({});
  });

  it('a max output only when every target states one, then the smallest: no target is asked for more than it writes', () => {
    const gpt5 = { contextWindow: 272_000, maxOutput: 128_000 };
    const gpt4o = { contextWindow: 111_616, maxOutput: 16_384 };
    const claude = { contextWindow: 200_000 };
    expect(combine([gpt5, gpt4o])).toEqual({ contextWindow: 111_616, maxOutput: 16_384 });
    expect(combine([gpt5, claude])).toEqual({ contextWindow: 200_000 });
    // the output is beside the window only when it is so for every target: Anthropic's window holds its output
    expect(combine([{ ...gpt5, outputBesideWindow: true }, { ...gpt4o, outputBesideWindow: true }])).toEqual({ contextWindow: 111_616, maxOutput: 16_384, outputBesideWindow: true });
    expect(combine([{ ...gpt5, outputBesideWindow: true }, { contextWindow: 200_000, maxOutput: 64_000 }])).toEqual({ contextWindow: 200_000, maxOutput: 64_000 });
  });
});
