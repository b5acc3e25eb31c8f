/**
 * `svc-proxy env` in-process, without a daemon: tool list, each profile's output, the key choice
 * (created, saved and reused, --new-key, --key, SVC_PROXY_KEY, revoked keys), --group/--model
 * checks, shells and JSON. The real tools using this output are in test/e2e/tools-*.test.ts.
 */
import { spawnSync } from 'node:child_process';
import { chmod, mkdir, readFile, realpath, rmdir, stat, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';

let home: string;
let env: Record<string, string | undefined>;
const cli = (args: string[], extraEnv: Record<string, string> = {}) => runCli(args, { env: { ...env, ...extraEnv } });

/** `env <tool> --json`, parsed; fails the test on a non-zero exit. */
async function envJson(args: string[], extraEnv: Record<string, string> = {}) {
  const res = await cli(['env', ...args, '--json'], extraEnv);
  if (res.code !== 0) throw new Error(`env ${args.join(' ')} exited ${res.code}: ${res.stderr}`);
  return JSON.parse(res.stdout) as {
    tool: string;
    baseUrl: string;
    group: string | null;
    model: string | null;
    key: { id: string; name: string; source: string; value: string };
    env: Record<string, string>;
    unset: string[];
    file: { path: string; format: string; content: string } | null;
    settings: Array<{ label: string; value: string }> | null;
    runArgs: string[];
    notes: string[];
  };
}

beforeEach(async () => {
  home = await tempStateDir('svc-env-');
  env = { SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), SHELL: '/bin/bash' };
});
afterAll(removeTempDirs);

describe('svc-proxy env: tools and usage errors', () => {
  it('--list names every tool, as a table and as JSON', async () => {
    const text = await cli(['env', '--list']);
    expect(text.code).toBe(0);
    for (const id of ['claude-code', 'codex', 'openai', 'anthropic', 'aider', 'opencode', 'qwen', 'crush', 'goose', 'continue', 'cline', 'cursor', 'zed']) expect(text.stdout).toMatch(new RegExp(`^${id}\\s`, 'm'));
    const json = JSON.parse((await cli(['env', '--list', '--json'])).stdout) as Array<{ id: string; protocol: string; run: boolean }>;
    expect(json.find((t) => t.id === 'claude-code')).toMatchObject({ protocol: 'b', run: true });
    expect(json.find((t) => t.id === 'cursor')).toMatchObject({ protocol: 'a', run: false });
    expect(json.filter((t) => ['qwen', 'crush', 'goose', 'zed'].includes(t.id)).map((t) => [t.id, t.protocol, t.run])).toEqual([
      ['qwen', 'a', true],
      ['crush', 'b', false],
      ['goose', 'a', true],
      ['zed', 'a', false],
    ]);
  });

  it("--list says what README's table of tools says: aliases, base, how each is set up, whether run starts it", async () => {
    const readme = await readFile(new URL('../../README.md', import.meta.url), 'utf8');
    // | `claude-code` (`claude`) | B | environment | yes | …
    const documented = [...readme.matchAll(/^\| `([a-z-]+)`(?: \(`([a-z-]+)`\))? \| ([AB])(?: \([^)]*\))? \| ([^|]+?) \| (yes|—)/gm)].map((m) => [m[1], m[2] ?? '', m[3], m[4], m[5] === 'yes' ? 'yes' : '-']);
    const [header, ...lines] = (await cli(['env', '--list'])).stdout.split('\n');
    // columns where the header's titles start
    const starts = ['TOOL', 'ALSO', 'NAME', 'BASE', 'SET UP THROUGH', 'RUN'].map((t) => header!.indexOf(t));
    const cell = (line: string, i: number) => line.slice(starts[i], starts[i + 1]).trim();
    const listed = lines.slice(0, lines.indexOf('')).map((l) => [cell(l, 0), cell(l, 1), cell(l, 3), cell(l, 4), cell(l, 5)]);
    expect(listed).toHaveLength(13);
    expect(documented).toEqual(listed);
  });

  it('no tool, an unknown tool, conflicting flags and bad values are usage errors (2), and create no key', async () => {
    expect((await cli(['env'])).code).toBe(2);
    const unknown = await cli(['env', 'vim']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown tool "vim". Known: claude-code, codex/);
    expect((await cli(['env', '--list', 'codex'])).code).toBe(2);
    expect((await cli(['env', 'codex', '--key', 'x', '--new-key'])).code).toBe(2);
    expect((await cli(['env', 'codex', '--key-name', 'x'])).code).toBe(2);
    expect((await cli(['env', 'codex', '--shell', 'tcsh'])).code).toBe(2);
    expect((await cli(['env', 'claude-code', '--config-file'])).code).toBe(2);
    expect((await cli(['env', 'codex', '--config-file', '--json'])).code).toBe(2);
    const bare = await cli(['env', 'claude-code', '--model', 'gpt-5']);
    expect(bare.code).toBe(2);
    expect(bare.stderr).toMatch(/must be provider\/model/);
    for (const tool of ['opencode', 'qwen', 'crush', 'continue', 'cline', 'zed']) {
      const res = await cli(['env', tool]);
      expect(res.code, tool).toBe(2);
      expect(res.stderr).toMatch(/needs a model/);
    }
    expect((await cli(['key', 'list', '--json'])).stdout.trim()).toBe('[]');
  });

  it('an unknown provider in --model only warns (the daemon may detect a local server)', async () => {
    const res = await cli(['env', 'openai', '--model', 'nowhere/model-x']);
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/warning: "nowhere" is not a provider/);
    // the local servers the daemon finds by itself are known without a config entry
    const local = await cli(['env', 'openai', '--model', 'lmstudio/qwen3']);
    expect(local.code).toBe(0);
    expect(local.stderr).not.toMatch(/warning/);
  });
});

describe('svc-proxy env/run: a model id that would break the lines printed', () => {
  it('refuses a newline or another control character in --model with a clear error, and creates no key', async () => {
    for (const model of ['openai/gpt-5\ntouch /tmp/pwned', 'openai/gpt\x1b]0;x\x07', 'anthropic/\rclaude', 'openai/gpt\u0085x']) {
      const res = await cli(['env', 'claude-code', '--model', model]);
      expect(res.code, JSON.stringify(model)).toBe(2);
      expect(res.stderr).toMatch(/--model .*control character/);
      expect(res.stdout).toBe('');
    }
    const grouped = await cli(['env', 'claude-code', '--group', 'work', '--model', 'coder\nexport X=1']);
    expect(grouped.code).toBe(2);
    expect(grouped.stderr).toMatch(/--model .*control character/);
    expect((await cli(['key', 'list', '--json'])).stdout.trim()).toBe('[]');
  });

  it('run refuses it too, before starting the daemon or the tool', async () => {
    const bin = await tempStateDir('svc-run-bin-');
    const marker = join(bin, 'ran');
    await writeFile(join(bin, 'claude'), `#!/bin/sh\ntouch '${marker}'\n`, { mode: 0o755 });
    const res = await cli(['run', '--model', 'openai/gpt-5\nrm -rf ~', 'claude'], { PATH: `${bin}:${process.env.PATH ?? ''}` });
    expect(res.code, res.stderr).toBe(2);
    expect(res.stderr).toMatch(/--model .*control character/);
    await expect(stat(marker)).rejects.toThrow();
    await expect(stat(join(home, 'daemon.pid'))).rejects.toThrow();
  });
});

describe('svc-proxy env: which key', () => {
  it('creates a key named after the tool once, saves it (0600) and reuses it; a revoked one is replaced', async () => {
    const first = await cli(['env', 'claude-code', '--model', 'anthropic/claude-sonnet-4-5']);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(/created key "claude-code" \(key_\w+\) for Claude Code, saved in .*tool-keys\.json/);
    expect(first.stderr).toMatch(/the daemon is not running/);
    const key = /ANTHROPIC_AUTH_TOKEN='(sk-svc-proxy-\w+)'/.exec(first.stdout)?.[1];
    expect(key).toBeDefined();
    const file = join(home, 'tool-keys.json');
    expect((await stat(file)).mode & 0o777).toBe(0o600);
    expect(await readFile(file, 'utf8')).toContain(key!);

    const again = await envJson(['claude-code']);
    expect(again.key).toMatchObject({ value: key, name: 'claude-code', source: 'saved' });

    expect((await cli(['key', 'revoke', 'claude-code'])).code).toBe(0);
    const replaced = await envJson(['claude', '--model', 'anthropic/claude-sonnet-4-5']); // alias
    expect(replaced.key.source).toBe('created');
    expect(replaced.key.name).toBe('claude-code');
    expect(replaced.key.value).not.toBe(key);
  });

  /** The keys config.json holds, by name and state. */
  const keyList = async () => (JSON.parse((await cli(['key', 'list', '--json'])).stdout) as Array<{ name: string; state: string }>).map((k) => [k.name, k.state]);

  it('tool-keys.json a folder: no key is made (it could not be saved), and the save error is reported', async () => {
    await mkdir(join(home, 'tool-keys.json'));
    const failed = await cli(['env', 'codex']);
    expect(failed.code).toBe(1);
    expect(failed.stdout).toBe('');
    const file = join(home, 'tool-keys.json');
    const why = `Cannot save the key in ${file}: it is a folder, not a file. Move that folder away; the next svc-proxy env or run makes the file anew.`;
    expect(failed.stderr).toContain(`svc-proxy: ${why}\n`);
    expect(failed.stderr).not.toContain('created key');
    const json = await cli(['env', 'codex', '--json']);
    expect(json.code).toBe(1);
    expect(JSON.parse(json.stdout)).toEqual({ error: { code: 'tool_keys_unwritable', message: why, file } });
    expect(await keyList()).toEqual([]);

    await rmdir(join(home, 'tool-keys.json'));
    const next = await envJson(['codex']);
    expect(next.key).toMatchObject({ name: 'codex', source: 'created' });
  });

  it('a save the file system refuses otherwise (a link through a file) names the path and the reason, with the same code', async () => {
    const blocker = join(home, 'not-a-folder');
    await writeFile(blocker, '');
    const link = join(home, 'tool-keys.json');
    await symlink(join(blocker, 'tool-keys.json'), link);
    const res = await cli(['env', 'codex', '--json']);
    expect(res.code).toBe(1);
    const { error } = JSON.parse(res.stdout) as { error: { code: string; message: string; file: string } };
    expect(error.code).toBe('tool_keys_unwritable');
    expect(error.file).toBe(link);
    expect(error.message).toMatch(new RegExp(`^Cannot save the key in ${link}: ENOTDIR: not a directory.*\\. Fix that path, or move it away; the next svc-proxy env or run makes the file anew\\.$`));
    expect(await keyList()).toEqual([]);
  });

  it('tool-keys.json linked to a folder: the link is what to change, and the folder is the `file`', async () => {
    const folder = join(home, 'dotfiles');
    await mkdir(folder);
    const link = join(home, 'tool-keys.json');
    await symlink(folder, link);
    const target = await realpath(folder); // where the link resolves (macOS's /var is /private/var)
    const res = await cli(['env', 'codex', '--json']);
    expect(res.code).toBe(1);
    expect(JSON.parse(res.stdout)).toEqual({
      error: {
        code: 'tool_keys_unwritable',
        message: `Cannot save the key in ${link}: it is a link to a folder (${target}), not to a file. Point the link at a file, or remove it; the next svc-proxy env or run makes the file anew.`,
        file: target,
      },
    });
    expect(await keyList()).toEqual([]);
  });

  it('tool-keys.json linked to a file others can read: the target is made 0600 at the next save, and stderr says so', async () => {
    const dotfiles = join(await tempStateDir('svc-dotfiles-'), 'svc-proxy');
    await mkdir(dotfiles);
    const target = join(dotfiles, 'tool-keys.json');
    await writeFile(target, '{"version":1,"tools":{}}\n');
    await chmod(target, 0o644);
    const link = join(home, 'tool-keys.json');
    await symlink(target, link);
    const res = await cli(['env', 'codex']);
    expect(res.code).toBe(0);
    expect((await stat(target)).mode & 0o777).toBe(0o600);
    // one line: the read before the save does not first warn of what the save then fixes
    expect(res.stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'))).toEqual([
      `svc-proxy: warning: ${link} (a link to ${target}) could be read by group or others (0644); it holds service keys, so svc-proxy made it 0600`,
    ]);
    expect(await readFile(target, 'utf8')).toContain('"codex"');
  });

  it('tool-keys.json others can read: using a saved key warns once on stderr with the chmod, and leaves the file as it is', async () => {
    const created = await envJson(['codex']);
    const file = join(home, 'tool-keys.json');
    await chmod(file, 0o640);
    const warning = `svc-proxy: warning: ${file} holds service keys and can be read by group or others (0640): chmod 600 ${file}`;
    for (const args of [['env', 'codex'], ['env', 'openai', '--key', 'codex']]) {
      const res = await cli(args);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout).toContain(created.key.value);
      expect(res.stderr.split('\n').filter((l) => l.startsWith('svc-proxy: warning:'))).toEqual([warning]);
      expect(res.stderr).not.toContain(created.key.value);
    }
    expect((await stat(file)).mode & 0o777).toBe(0o640);
  });

  it('--new-key makes a fresh key (next free name, or the one given) and it becomes the saved one', async () => {
    const a = await envJson(['codex']);
    const b = await envJson(['codex', '--new-key']);
    expect(b.key).toMatchObject({ name: 'codex-2', source: 'new' });
    expect(b.key.value).not.toBe(a.key.value);
    expect((await envJson(['codex'])).key.value).toBe(b.key.value);
    const named = await envJson(['codex', '--new-key', '--key-name', 'ci-bot']);
    expect(named.key).toMatchObject({ name: 'ci-bot', source: 'new' });
    const taken = await cli(['env', 'codex', '--new-key', '--key-name', 'ci-bot']);
    expect(taken.code).toBe(1);
    expect(taken.stderr).toMatch(/already exists/);
    // --new-key takes no value, so a tool name after it stays the tool name.
    const before = await envJson(['openai']);
    const fresh = await envJson(['--new-key', 'openai']);
    expect(fresh.key).toMatchObject({ name: 'openai-2', source: 'new' });
    expect(fresh.key.value).not.toBe(before.key.value);
  });

  it('--key takes a full key (active only) or the name of a saved key; a key it never saw cannot be printed', async () => {
    const created = JSON.parse((await cli(['key', 'create', '--name', 'laptop', '--json'])).stdout) as { key: string; id: string };
    const byValue = await envJson(['openai', '--key', created.key]);
    expect(byValue.key).toMatchObject({ id: created.id, name: 'laptop', source: 'flag' });
    expect(byValue.env.OPENAI_API_KEY).toBe(created.key);

    const hashOnly = await cli(['env', 'openai', '--key', 'laptop']);
    expect(hashOnly.code).toBe(1);
    expect(hashOnly.stderr).toMatch(/stores only a hash of key "laptop"/);
    const nobody = await cli(['env', 'openai', '--key', 'nobody']);
    expect(nobody.code).toBe(1);
    expect(nobody.stderr).toMatch(/No active key named "nobody"/);

    const saved = await envJson(['claude-code']);
    expect((await envJson(['openai', '--key', 'claude-code'])).key).toMatchObject({ value: saved.key.value, source: 'saved' });
    expect((await envJson(['openai', '--key', saved.key.id])).key.value).toBe(saved.key.value);

    await cli(['key', 'revoke', 'laptop']);
    const revoked = await cli(['env', 'openai', '--key', created.key]);
    expect(revoked.code).toBe(1);
    expect(revoked.stderr).toMatch(/not an active key/);
    expect((await cli(['env', 'openai', '--key', 'sk-svc-proxy-unknown'])).code).toBe(1);
  });

  it('SVC_PROXY_KEY supplies the key when no flag does (and must be active)', async () => {
    const created = JSON.parse((await cli(['key', 'create', '--name', 'shell', '--json'])).stdout) as { key: string };
    const res = await envJson(['anthropic'], { SVC_PROXY_KEY: created.key });
    expect(res.key).toMatchObject({ name: 'shell', source: 'env' });
    expect(res.env.ANTHROPIC_API_KEY).toBe(created.key);
    const bad = await cli(['env', 'anthropic'], { SVC_PROXY_KEY: 'sk-svc-proxy-revoked-or-unknown' });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toMatch(/SVC_PROXY_KEY is not an active key/);
  });
});

describe('svc-proxy env: profiles', () => {
  it('claude-code: protocol B base, AUTH_TOKEN, every model variable, traffic off, API key removed', async () => {
    const s = await envJson(['claude-code', '--model', 'openai/gpt-5.5']);
    expect(s.baseUrl).toBe('http://127.0.0.1:4545/protocol-b');
    expect(s.env).toEqual({
      ANTHROPIC_BASE_URL: 'http://127.0.0.1:4545/protocol-b',
      ANTHROPIC_AUTH_TOKEN: s.key.value,
      CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
      // Default upstream limits: connect 10 s + headers 600 s + a stream's first event 600 s, plus a minute.
      API_FORCE_IDLE_TIMEOUT: '0',
      API_TIMEOUT_MS: '1270000',
      ANTHROPIC_MODEL: 'openai/gpt-5.5',
      ANTHROPIC_DEFAULT_OPUS_MODEL: 'openai/gpt-5.5',
      ANTHROPIC_DEFAULT_SONNET_MODEL: 'openai/gpt-5.5',
      ANTHROPIC_DEFAULT_HAIKU_MODEL: 'openai/gpt-5.5',
      ANTHROPIC_SMALL_FAST_MODEL: 'openai/gpt-5.5',
      CLAUDE_CODE_SUBAGENT_MODEL: 'openai/gpt-5.5',
    });
    expect(s.unset).toEqual(['ANTHROPIC_API_KEY']);
    expect((await envJson(['claude-code'])).notes.join(' ')).toMatch(/add --model provider\/model/);
  });

  it("an OpenAI model whose page states its window: every tool that takes one gets the input OpenAI takes, with no daemon to ask", async () => {
    // 400,000 less 128,000 of output: Claude Code compacts before it, and OpenAI refuses more input
    expect((await envJson(['claude-code', '--model', 'openai/gpt-5-mini'])).env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('272000');
    expect((await envJson(['goose', '--model', 'openai/gpt-5-mini-2025-08-07'])).env.GOOSE_CONTEXT_LIMIT).toBe('272000');
    expect((await envJson(['codex', '--model', 'openai/gpt-5-codex'])).file!.content).toContain('model_context_window = 272000');
    const opencode = JSON.parse((await envJson(['opencode', '--model', 'openai/gpt-5-pro'])).env.OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, { limit: { context: number } }> }> };
    expect(Object.values(opencode.provider)[0]!.models['openai/gpt-5-pro']!.limit.context).toBe(128_000);
    // the documented max output, where the tool takes one (a 32,000 stand-in otherwise)
    const crushGpt5 = JSON.parse((await envJson(['crush', '--model', 'openai/gpt-5'])).file!.content) as { providers: Record<string, { models: unknown[] }> };
    expect(crushGpt5.providers['svc-proxy']!.models[0]).toMatchObject({ context_window: 272_000, default_max_tokens: 128_000 });
    expect((await envJson(['continue', '--model', 'openai/gpt-4o-mini'])).file!.content).toContain('      contextLength: 128000\n      maxTokens: 16384\n');
    // the most used models, from gateway and vendor pages that agree
    expect((await envJson(['claude-code', '--model', 'openai/gpt-5'])).env.CLAUDE_CODE_MAX_CONTEXT_TOKENS).toBe('272000');
    expect((await envJson(['goose', '--model', 'openai/gpt-4o'])).env.GOOSE_CONTEXT_LIMIT).toBe('111616');
    // one no page was read for, or the pages disagree on, stays unknown, and the note says so
    const unknown = await envJson(['claude-code', '--model', 'openai/gpt-5.5']);
    expect(unknown.env).not.toHaveProperty('CLAUDE_CODE_MAX_CONTEXT_TOKENS');
    expect(unknown.notes.join(' ')).toMatch(/context window of openai\/gpt-5.5 is not known here/);
  });

  it('an OpenAI model of a family that does not reason (gpt-4o, gpt-4.1) is not said to reason; a reasoning family, or an id not known here, is', async () => {
    type Opencode = { provider: Record<string, { models: Record<string, Record<string, unknown>> }> };
    const opencodeEntry = async (model: string) => {
      const s = await envJson(['opencode', '--model', model]);
      return { entry: (JSON.parse(s.env.OPENCODE_CONFIG_CONTENT!) as Opencode).provider['svc-proxy']!.models[model]!, notes: s.notes.join(' ') };
    };
    const crushEntry = async (model: string) => {
      const s = await envJson(['crush', '--model', model]);
      return { entry: (JSON.parse(s.file!.content) as { providers: Record<string, { models: Array<Record<string, unknown>> }> }).providers['svc-proxy']!.models[0]!, notes: s.notes.join(' ') };
    };
    for (const model of ['openai/gpt-4o', 'openai/gpt-4.1-mini', 'openai/gpt-5-chat-latest']) {
      const opencode = await opencodeEntry(model);
      // opencode offers no --variant effort levels, Crush no thinking, and neither note asks to turn them on
      expect(opencode.entry).not.toHaveProperty('reasoning');
      expect(opencode.entry).toMatchObject({ attachment: true });
      expect(opencode.notes).not.toMatch(/"reasoning": true/);
      const crush = await crushEntry(model);
      expect(crush.entry).not.toHaveProperty('can_reason');
      expect(crush.entry).toMatchObject({ supports_attachments: true });
      expect(crush.notes).not.toMatch(/can_reason/);
      // Codex is given no reasoning settings for it
      expect((await envJson(['codex', '--model', model])).file!.content).not.toContain('model_reasoning_effort');
    }
    for (const model of ['openai/o3', 'openai/gpt-5.4', 'openai/gpt-6']) {
      expect((await opencodeEntry(model)).entry).toMatchObject({ reasoning: true });
      expect((await crushEntry(model)).entry).toMatchObject({ can_reason: true });
      expect((await envJson(['codex', '--model', model])).file!.content).toContain('model_reasoning_effort = "medium"');
    }
  });

  it('an OpenAI model of a family that reads text only (gpt-3.5, o3-mini, o1-mini) is not said to read images or PDFs, and no note asks to turn them on', async () => {
    for (const model of ['openai/gpt-3.5-turbo', 'openai/o3-mini-2025-01-31', 'openai/o1-mini', 'openai/gpt-4-0613']) {
      const opencode = await envJson(['opencode', '--model', model]);
      const entry = (JSON.parse(opencode.env.OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, Record<string, unknown>> }> }).provider['svc-proxy']!.models[model]!;
      expect(entry, model).not.toHaveProperty('attachment');
      expect(entry, model).not.toHaveProperty('modalities');
      expect(opencode.notes.join(' '), model).not.toMatch(/"modalities"/);
      const crush = await envJson(['crush', '--model', model]);
      expect(crush.file!.content, model).not.toContain('supports_attachments');
      expect(crush.notes.join(' '), model).not.toMatch(/supports_attachments/);
      const cont = await envJson(['continue', '--model', model]);
      expect(cont.file!.content, model).toContain('    capabilities: [tool_use]\n');
      expect(cont.notes.join(' '), model).not.toMatch(/image_input/);
      const zed = await envJson(['zed', '--model', model]);
      expect(zed.file!.content, model).toContain('"images": false');
      expect(zed.notes.join(' '), model).not.toMatch(/capabilities.images/);
    }
    // the families since gpt-4o, and gpt-4-turbo (vision since its 2024-04-09 release), read both
    for (const model of ['openai/gpt-4o', 'openai/gpt-4.1-mini', 'openai/o3', 'openai/gpt-4-turbo', 'openai/gpt-6']) {
      const opencode = await envJson(['opencode', '--model', model]);
      expect(JSON.parse(opencode.env.OPENCODE_CONFIG_CONTENT!).provider['svc-proxy'].models[model], model).toMatchObject({ attachment: true, modalities: { input: ['text', 'image', 'pdf'] } });
    }
  });

  it('codex: profile file with the Responses wire API and env_key; web_search off unless the model is openai or anthropic, multi-agent tools on; the same as -c overrides', async () => {
    const s = await envJson(['codex', '--model', 'gemini/gemini-2.5-pro']);
    expect(s.env).toEqual({ SVC_PROXY_KEY: s.key.value });
    expect(s.file!.path).toBe('~/.codex/svc-proxy.config.toml');
    const toml = s.file!.content;
    expect(toml).toBe(
      [
        'model_provider = "svc-proxy"',
        'model = "gemini/gemini-2.5-pro"',
        '# Web search runs only on openai/… and anthropic/… models through svc-proxy; other providers refuse it.',
        'web_search = "disabled"',
        // Gemini reasons: without these Codex sends no reasoning for a name it does not know
        '# Codex sends no reasoning for a model name it does not know; these are its defaults for its own GPT-5 models.',
        'model_reasoning_effort = "medium"',
        'model_reasoning_summary = "auto"',
        '# No usage analytics sent to OpenAI.',
        'analytics.enabled = false',
        '',
        '[model_providers.svc-proxy]',
        'name = "svc-proxy"',
        'base_url = "http://127.0.0.1:4545/protocol-a/v1"',
        'env_key = "SVC_PROXY_KEY"',
        'wire_api = "responses"',
        '',
      ].join('\n'),
    );
    expect(s.runArgs).toEqual([
      '-c', 'model_provider="svc-proxy"',
      '-c', 'model="gemini/gemini-2.5-pro"',
      '-c', 'web_search="disabled"',
      '-c', 'model_reasoning_effort="medium"',
      '-c', 'model_reasoning_summary="auto"',
      '-c', 'analytics.enabled=false',
      '-c', 'model_providers.svc-proxy.name="svc-proxy"',
      '-c', 'model_providers.svc-proxy.base_url="http://127.0.0.1:4545/protocol-a/v1"',
      '-c', 'model_providers.svc-proxy.env_key="SVC_PROXY_KEY"',
      '-c', 'model_providers.svc-proxy.wire_api="responses"',
    ]);
    for (const model of ['openai/gpt-5.4', 'anthropic/claude-sonnet-4-5']) {
      const searches = await envJson(['codex', '--model', model]);
      expect(searches.file!.content).not.toContain('web_search');
      expect(searches.runArgs).not.toContain('web_search="disabled"');
      expect(searches.runArgs.some((a) => a.startsWith('agents.'))).toBe(false);
    }
    expect(s.runArgs.some((a) => a.startsWith('agents.'))).toBe(false);
    const only = await cli(['env', 'codex', '--model', 'gemini/gemini-2.5-pro', '--config-file']);
    expect(only.stdout).toBe(toml);
  });

  it('openai / anthropic / aider: the variables each reads', async () => {
    const o = await envJson(['openai']);
    expect(o.env).toEqual({ OPENAI_BASE_URL: 'http://127.0.0.1:4545/protocol-a/v1', OPENAI_API_KEY: o.key.value });
    const a = await envJson(['anthropic']);
    expect(a.env).toEqual({ ANTHROPIC_BASE_URL: 'http://127.0.0.1:4545/protocol-b', ANTHROPIC_API_KEY: a.key.value });
    const aider = await envJson(['aider', '--model', 'gemini/gemini-2.5-pro']);
    expect(aider.env).toMatchObject({ OPENAI_API_BASE: 'http://127.0.0.1:4545/protocol-a/v1', AIDER_MODEL: 'openai/gemini/gemini-2.5-pro', AIDER_WEAK_MODEL: 'openai/gemini/gemini-2.5-pro' });
    // past the daemon's longest first-byte wait (connect 10 s + headers 600 s + first event 600 s) and a minute
    expect(aider.env.AIDER_TIMEOUT).toBe('1270');
  });

  it('opencode: inline config in OPENCODE_CONFIG_CONTENT (key by {env:SVC_PROXY_KEY}), the same JSON as a file', async () => {
    const s = await envJson(['opencode', '--model', 'openrouter/qwen/qwen3-coder']);
    const inline = JSON.parse(s.env.OPENCODE_CONFIG_CONTENT!) as { model: string; provider: Record<string, unknown> };
    expect(inline.model).toBe('svc-proxy/openrouter/qwen/qwen3-coder');
    expect(inline.provider['svc-proxy']).toMatchObject({
      npm: '@ai-sdk/openai-compatible',
      // outlasts the daemon's own longest wait for a first byte (10 s + 600 s + 600 s, plus a minute)
      options: { baseURL: 'http://127.0.0.1:4545/protocol-a/v1', apiKey: '{env:SVC_PROXY_KEY}', headerTimeout: 1_270_000 },
      models: { 'openrouter/qwen/qwen3-coder': { name: 'openrouter/qwen/qwen3-coder' } },
    });
    expect(s.env.SVC_PROXY_KEY).toBe(s.key.value);
    expect(JSON.parse(s.file!.content)).toEqual(inline);
    expect(s.env.OPENCODE_CONFIG_CONTENT).not.toContain(s.key.value);
    // no daemon to list OpenRouter's models: the window is a stand-in, and nothing is said of images or reasoning
    expect(inline.provider['svc-proxy']).toMatchObject({ models: { 'openrouter/qwen/qwen3-coder': { limit: { context: 200_000, output: 32_000 } } } });
    expect(s.notes.join('\n')).toMatch(/stand-in[\s\S]*text only[\s\S]*"reasoning": true/);
    // Claude reads images and PDFs and reasons, whether or not a daemon runs to list it
    const claude = JSON.parse((await envJson(['opencode', '--model', 'anthropic/claude-sonnet-4-5'])).env.OPENCODE_CONFIG_CONTENT!) as typeof inline;
    expect(claude.provider['svc-proxy']).toMatchObject({
      models: { 'anthropic/claude-sonnet-4-5': { reasoning: true, attachment: true, modalities: { input: ['text', 'image', 'pdf'], output: ['text'] } } },
    });
  });

  it('qwen: the openai auth type by its three variables, its request and stream limits past the daemon’s, usage statistics off; run forces auth type and model', async () => {
    const s = await envJson(['qwen', '--model', 'anthropic/claude-sonnet-4-5']);
    expect(s.env).toEqual({
      OPENAI_BASE_URL: 'http://127.0.0.1:4545/protocol-a/v1',
      OPENAI_API_KEY: s.key.value,
      OPENAI_MODEL: 'anthropic/claude-sonnet-4-5',
      // 10 s + 600 s + 600 s, plus a minute: Qwen Code's own 120 s request timeout would resend a long prefill
      QWEN_CODE_API_TIMEOUT_MS: '1270000',
      QWEN_STREAM_IDLE_TIMEOUT_MS: '1270000',
      QWEN_USAGE_STATISTICS_ENABLED: 'false',
    });
    expect(s.unset).toEqual(['QWEN_OAUTH']);
    expect(s.runArgs).toEqual(['--auth-type', 'openai', '--model', 'anthropic/claude-sonnet-4-5']);
    expect(s.notes.join(' ')).toMatch(/--auth-type openai --model anthropic\/claude-sonnet-4-5/);
    expect((await envJson(['qwen-code', '--model', 'openai/gpt-5.4'])).env.OPENAI_MODEL).toBe('openai/gpt-5.4'); // alias
  });

  it('crush: a protocol B provider in crush.json (key by $SVC_PROXY_KEY), both model slots, its request timeout past the daemon’s, metrics off', async () => {
    const s = await envJson(['crush', '--model', 'openai/gpt-5.5']);
    expect(s.baseUrl).toBe('http://127.0.0.1:4545/protocol-b');
    expect(s.env).toEqual({ SVC_PROXY_KEY: s.key.value });
    expect(s.file!.path).toBe('~/.config/crush/crush.json');
    expect(JSON.parse(s.file!.content)).toEqual({
      $schema: 'https://charm.land/crush.json',
      providers: {
        'svc-proxy': {
          name: 'svc-proxy',
          type: 'anthropic',
          base_url: 'http://127.0.0.1:4545/protocol-b',
          api_key: '$SVC_PROXY_KEY',
          // GPT reasons and reads images: Crush offers thinking and keeps attached images for it
          models: [{ id: 'openai/gpt-5.5', name: 'openai/gpt-5.5', context_window: 200_000, default_max_tokens: 32_000, can_reason: true, supports_attachments: true }],
        },
      },
      models: { large: { provider: 'svc-proxy', model: 'openai/gpt-5.5' }, small: { provider: 'svc-proxy', model: 'openai/gpt-5.5' } },
      // seconds: Crush's default of 60 s without a byte ended a long prefill
      options: { request_timeout: 1270, disable_metrics: true },
    });
    expect(s.file!.content).not.toContain(s.key.value);
    expect(s.runArgs).toEqual([]);
    expect(s.notes.join(' ')).toMatch(/stand-ins/);
    expect((await cli(['env', 'crush', '--model', 'openai/gpt-5.5', '--config-file'])).stdout).toBe(s.file!.content);
  });

  it('goose: its openai provider by variables, host and path split from the base, its whole-request timeout past the daemon’s, telemetry off', async () => {
    const s = await envJson(['goose', '--model', 'gemini/gemini-2.5-pro']);
    expect(s.env).toEqual({
      GOOSE_PROVIDER: 'openai',
      GOOSE_MODEL: 'gemini/gemini-2.5-pro',
      OPENAI_HOST: 'http://127.0.0.1:4545',
      OPENAI_BASE_PATH: 'protocol-a/v1/chat/completions',
      OPENAI_API_KEY: s.key.value,
      OPENAI_TIMEOUT: '1270',
      GOOSE_TELEMETRY_ENABLED: 'false',
    });
    expect(s.runArgs).toEqual([]);
    const bare = await envJson(['goose']);
    expect(bare.env.GOOSE_MODEL).toBeUndefined();
    expect(bare.notes.join(' ')).toMatch(/GOOSE_MODEL from its config\.yaml/);
  });

  it('zed: an openai_compatible provider for settings.json without the key, which goes in Agent settings or SVC_PROXY_API_KEY', async () => {
    const s = await envJson(['zed', '--model', 'anthropic/claude-sonnet-4-5']);
    expect(JSON.parse(s.file!.content)).toEqual({
      language_models: {
        openai_compatible: {
          'svc-proxy': {
            api_url: 'http://127.0.0.1:4545/protocol-a/v1',
            // Claude reads images: Zed sends them only to a model said to
            available_models: [
              {
                name: 'anthropic/claude-sonnet-4-5',
                display_name: 'anthropic/claude-sonnet-4-5 (svc-proxy)',
                max_tokens: 200_000,
                capabilities: { tools: true, images: true, parallel_tool_calls: false, prompt_cache_key: false },
              },
            ],
          },
        },
      },
    });
    expect(s.file!.content).not.toContain(s.key.value);
    expect(s.env).toEqual({ SVC_PROXY_API_KEY: s.key.value });
    expect(s.settings).toEqual([{ label: 'Agent settings → LLM Providers → svc-proxy → API key', value: s.key.value }]);
    const text = await cli(['env', 'zed', '--model', 'anthropic/claude-sonnet-4-5']);
    expect(text.stdout.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual([`export SVC_PROXY_API_KEY='${s.key.value}'`]);
  });

  it('continue, cline, cursor: a config entry or the settings to type, printed as comments; cursor says why loopback fails', async () => {
    const c = await cli(['env', 'continue', '--model', 'anthropic/claude-sonnet-4-5']);
    expect(c.stdout).toMatch(/^# {7}apiBase: "http:\/\/127\.0\.0\.1:4545\/protocol-a\/v1"$/m);
    expect(c.stdout.split('\n').filter((l) => l && !l.startsWith('#'))).toEqual([]);
    // Claude calls tools and reads images: Continue's agent mode and image uploads need it said
    const entry = (await envJson(['continue', '--model', 'anthropic/claude-sonnet-4-5'])).file!.content;
    // a whole file: Continue refuses one without name and version
    expect(entry.split('\n').slice(0, 4)).toEqual(['name: svc-proxy', 'version: 1.0.0', 'schema: v1', 'models:']);
    expect(entry.split('\n').slice(-6)).toEqual(['    roles: [chat, edit, apply]', '    capabilities: [tool_use, image_input]', '    defaultCompletionOptions:', '      contextLength: 200000', '      maxTokens: 32000', '']);
    const cline = await cli(['env', 'cline', '--model', 'openai/gpt-5.4']);
    expect(cline.stdout).toMatch(/^# {3}API Provider: OpenAI Compatible$/m);
    expect(cline.stdout).toMatch(/^# {3}Model ID: openai\/gpt-5\.4$/m);
    const cursor = await envJson(['cursor']);
    expect(cursor.settings).toContainEqual({ label: 'Override OpenAI Base URL', value: 'http://127.0.0.1:4545/protocol-a/v1' });
    expect(cursor.notes.join(' ')).toMatch(/Cursor's servers/);
  });
});

describe('svc-proxy env: groups, address, shells', () => {
  async function writeConfig(extra: Record<string, unknown>): Promise<void> {
    await writeFile(join(home, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, ...extra }), { mode: 0o600 });
  }

  it('--group points at the group base; the model must be one of its names; the port and upstream limits come from settings', async () => {
    await writeConfig({
      settings: { port: 4999, headersTimeoutMs: 1_800_000, idleTimeoutMs: 900_000 },
      groups: { team: { created: new Date().toISOString(), models: [{ name: 'claude-sonnet-4-5', targets: ['openai/gpt-5.4'] }] } },
    });
    const s = await envJson(['claude-code', '--group', 'team', '--model', 'claude-sonnet-4-5']);
    expect(s.env.ANTHROPIC_BASE_URL).toBe('http://127.0.0.1:4999/g/team/protocol-b');
    expect(s.env.ANTHROPIC_MODEL).toBe('claude-sonnet-4-5');
    // Claude Code outlasts the daemon's raised limits (10 s + 1,800 s + 1,800 s, plus a minute).
    expect(s.env.API_TIMEOUT_MS).toBe('3670000');
    const oc = JSON.parse((await envJson(['opencode', '--group', 'team', '--model', 'claude-sonnet-4-5'])).env.OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { options: { headerTimeout: number } }> };
    expect(oc.provider['svc-proxy']!.options.headerTimeout).toBe(3_670_000);
    expect((await envJson(['codex', '--group', 'team'])).file!.content).toContain('base_url = "http://127.0.0.1:4999/g/team/protocol-a/v1"');
    // The new tools' own limits outlast the raised daemon limits too (3,670 s), in their units.
    const qwen = await envJson(['qwen', '--group', 'team', '--model', 'claude-sonnet-4-5']);
    expect(qwen.env).toMatchObject({ OPENAI_BASE_URL: 'http://127.0.0.1:4999/g/team/protocol-a/v1', OPENAI_MODEL: 'claude-sonnet-4-5', QWEN_CODE_API_TIMEOUT_MS: '3670000', QWEN_STREAM_IDLE_TIMEOUT_MS: '3670000' });
    const crush = JSON.parse((await envJson(['crush', '--group', 'team', '--model', 'claude-sonnet-4-5'])).file!.content) as { providers: Record<string, { base_url: string }>; options: { request_timeout: number } };
    expect(crush.providers['svc-proxy']!.base_url).toBe('http://127.0.0.1:4999/g/team/protocol-b');
    expect(crush.options.request_timeout).toBe(3670);
    expect((await envJson(['aider', '--group', 'team', '--model', 'claude-sonnet-4-5'])).env.AIDER_TIMEOUT).toBe('3670');
    expect((await envJson(['goose', '--group', 'team', '--model', 'claude-sonnet-4-5'])).env).toMatchObject({
      OPENAI_HOST: 'http://127.0.0.1:4999',
      OPENAI_BASE_PATH: 'g/team/protocol-a/v1/chat/completions',
      OPENAI_TIMEOUT: '3670',
    });
    expect((await envJson(['zed', '--group', 'team', '--model', 'claude-sonnet-4-5'])).file!.content).toContain('"api_url": "http://127.0.0.1:4999/g/team/protocol-a/v1"');
    const notInGroup = await cli(['env', 'claude-code', '--group', 'team', '--model', 'gpt-5']);
    expect(notInGroup.code).toBe(1);
    expect(notInGroup.stderr).toMatch(/Group "team" has no model named "gpt-5". Its names: claude-sonnet-4-5/);
    const noGroup = await cli(['env', 'claude-code', '--group', 'nope']);
    expect(noGroup.code).toBe(1);
    expect(noGroup.stderr).toMatch(/No group named "nope". Groups: team/);
  });

  it('sh output survives eval in a real shell, quotes included; fish and PowerShell have their own syntax', async () => {
    const sh = await cli(['env', 'claude-code', '--model', "openai/it's-a-test"]);
    const evaluated = spawnSync('/bin/sh', ['-c', 'ANTHROPIC_API_KEY=leftover; eval "$1"; printf "%s|%s" "$ANTHROPIC_MODEL" "${ANTHROPIC_API_KEY-unset}"', 'sh', sh.stdout], { encoding: 'utf8' });
    expect(evaluated.stdout).toBe("openai/it's-a-test|unset");

    const fish = (await cli(['env', 'claude-code', '--model', "openai/it's", '--shell', 'fish'])).stdout;
    expect(fish).toContain("set -gx ANTHROPIC_MODEL 'openai/it\\'s'");
    expect(fish).toContain('set -e ANTHROPIC_API_KEY');
    const ps = (await cli(['env', 'claude-code', '--model', "openai/it's", '--shell', 'pwsh'])).stdout;
    expect(ps).toContain("$env:ANTHROPIC_MODEL = 'openai/it''s'");
    expect(ps).toContain('Remove-Item Env:ANTHROPIC_API_KEY -ErrorAction SilentlyContinue');
    // The new tools' output evaluates as printed: qwen's conflicting variable removed, goose's split base intact.
    const qwenSh = (await cli(['env', 'qwen', '--model', 'openai/gpt-5.4'])).stdout;
    const qwenEval = spawnSync('/bin/sh', ['-c', 'QWEN_OAUTH=1; eval "$1"; printf "%s|%s|%s" "$OPENAI_MODEL" "$QWEN_CODE_API_TIMEOUT_MS" "${QWEN_OAUTH-unset}"', 'sh', qwenSh], { encoding: 'utf8' });
    expect(qwenEval.stdout).toBe('openai/gpt-5.4|1270000|unset');
    const gooseSh = (await cli(['env', 'goose', '--model', 'openai/gpt-5.4'])).stdout;
    const gooseEval = spawnSync('/bin/sh', ['-c', 'eval "$1"; printf "%s/%s" "$OPENAI_HOST" "$OPENAI_BASE_PATH"', 'sh', gooseSh], { encoding: 'utf8' });
    expect(gooseEval.stdout).toBe('http://127.0.0.1:4545/protocol-a/v1/chat/completions');
    for (const shell of ['sh', 'fish', 'powershell']) {
      const crushOut = (await cli(['env', 'crush', '--model', 'openai/gpt-5.4', '--shell', shell])).stdout;
      expect(crushOut.split('\n').filter((l) => l && !l.startsWith('#')), shell).toHaveLength(1); // only the key; the file is comments
    }
    expect((await cli(['env', 'goose', '--shell', 'fish'])).stdout).toContain("set -gx OPENAI_BASE_PATH 'protocol-a/v1/chat/completions'");
    expect((await cli(['env', 'qwen', '--model', 'openai/gpt-5.4', '--shell', 'pwsh'])).stdout).toContain('Remove-Item Env:QWEN_OAUTH -ErrorAction SilentlyContinue');
    // Without --shell the shell comes from $SHELL.
    expect((await cli(['env', 'openai'], { SHELL: '/usr/bin/fish' })).stdout).toMatch(/^set -gx OPENAI_BASE_URL /m);
  });
});

describe('svc-proxy env in a shell with a proxy', () => {
  it('adds the daemon’s host to NO_PROXY and no_proxy when a proxy variable is set, keeping what was there', async () => {
    const out = await envJson(['claude-code'], { HTTPS_PROXY: 'http://proxy.corp:3128', NO_PROXY: '.corp.example,10.0.0.0/8' });
    expect(out.env.NO_PROXY).toBe('.corp.example,10.0.0.0/8,127.0.0.1');
    expect(out.env.no_proxy).toBe('.corp.example,10.0.0.0/8,127.0.0.1');
    expect(out.notes).toContain('HTTPS_PROXY is set: NO_PROXY now also names 127.0.0.1, so the tool reaches svc-proxy directly rather than through that proxy.');
    const shell = (await cli(['env', 'codex'], { http_proxy: 'http://proxy.corp:3128' })).stdout;
    expect(shell).toContain("export NO_PROXY='127.0.0.1'");
    expect(shell).toContain("export no_proxy='127.0.0.1'");
  });

  it('leaves NO_PROXY alone without a proxy variable, when it already names the host or *, and for app settings', async () => {
    expect((await envJson(['claude-code'])).env.NO_PROXY).toBeUndefined();
    expect((await envJson(['claude-code'], { NO_PROXY: 'example.com' })).env.NO_PROXY).toBeUndefined();
    for (const noProxy of ['localhost, 127.0.0.1', '*']) {
      const out = await envJson(['claude-code'], { HTTPS_PROXY: 'http://proxy.corp:3128', no_proxy: noProxy });
      expect(out.env.NO_PROXY, noProxy).toBeUndefined();
      expect(out.notes.join('\n')).not.toContain('NO_PROXY');
    }
    const cursor = await envJson(['cursor'], { HTTPS_PROXY: 'http://proxy.corp:3128' });
    expect(cursor.env).toEqual({});
  });
});
