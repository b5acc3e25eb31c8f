import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { OperationError } from '../../src/config/errors.js';
import {
  addGroup,
  connectedVia,
  listGroups,
  parseModelSpec,
  removeGroup,
  setGroupModel,
  showGroup,
  unsetGroupModel,
  validateGroupSlug,
  validateModelName,
  validateTargets,
} from '../../src/config/groups.js';
import { defaultConfig, type Config } from '../../src/config/schema.js';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';

let dir: string;
let store: ConfigStore;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-groups-'));
  store = await ConfigStore.open(statePaths(dir));
  await store.update((c) => {
    c.endpoints.vllm = { url: 'http://127.0.0.1:8000/v1', format: 'a', hasCredential: false, created: '2025-01-01T00:00:00Z' };
    c.locals.ollama = { url: 'http://127.0.0.1:11434', created: '2025-01-01T00:00:00Z', detected: true };
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

async function rejectsWith(p: Promise<unknown>, code: string, status?: number): Promise<OperationError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(OperationError);
  expect((err as OperationError).code).toBe(code);
  if (status) expect((err as OperationError).status).toBe(status);
  return err as OperationError;
}

describe('validation', () => {
  const config: Config = { ...defaultConfig(), endpoints: { vllm: { url: 'http://x', format: 'a', hasCredential: false, created: '' } } };

  it('slugs are URL-safe', () => {
    expect(validateGroupSlug('coding')).toBe('coding');
    expect(validateGroupSlug('team-1_a')).toBe('team-1_a');
    for (const bad of ['', 'Coding', 'a/b', 'a b', '-x', 'é', 'a'.repeat(64), 'a?b']) {
      expect(() => validateGroupSlug(bad)).toThrow(OperationError);
    }
  });

  it('names take anything a client sends, except empty and control characters', () => {
    for (const ok of ['claude-sonnet-4-5', 'gpt-5', 'anthropic/claude-3.5-sonnet', 'models/gemini-2.5-pro', 'a=b', 'Claude Sonnet 4.5']) {
      expect(validateModelName(ok)).toBe(ok);
    }
    expect(validateModelName('  gpt-5 ')).toBe('gpt-5');
    for (const bad of ['', '   ', 'a\nb', 'a\u0000b', 'x'.repeat(257), 42]) expect(() => validateModelName(bad)).toThrow(OperationError);
  });

  it('targets are provider/model with a known provider, kept in order, no duplicates', () => {
    expect(validateTargets(config, 'anthropic/claude-sonnet-4-5, openai/gpt-5')).toEqual(['anthropic/claude-sonnet-4-5', 'openai/gpt-5']);
    // split at the first slash: the model part may hold more slashes (OpenRouter ids)
    expect(validateTargets(config, ['openrouter/anthropic/claude-3.5-sonnet', 'vllm/Qwen/Qwen3-8B'])).toEqual([
      'openrouter/anthropic/claude-3.5-sonnet',
      'vllm/Qwen/Qwen3-8B',
    ]);
    const bad: [unknown, string][] = [
      ['gpt-5', 'must be written provider/model'],
      ['openai/', 'must be written provider/model'],
      ['/gpt-5', 'must be written provider/model'],
      ['nope/gpt-5', 'unknown provider "nope". Known: anthropic, openai, openrouter, gemini, vllm'],
      ['openai/gpt 5', 'cannot contain spaces'],
      ['openai/gpt-5,openai/gpt-5', 'listed twice'],
      ['', 'at least one target'],
      [' , ', 'at least one target'],
      [42, 'must be a list'],
    ];
    for (const [input, message] of bad) expect(() => validateTargets(config, input)).toThrow(message);
    expect(() => validateTargets(config, Array.from({ length: 17 }, (_, i) => `openai/m${i}`))).toThrow(/At most 16/);
  });

  it('--model specs split at the first "="', () => {
    expect(parseModelSpec('gpt-5=openai/gpt-5,anthropic/claude')).toEqual({ name: 'gpt-5', targets: 'openai/gpt-5,anthropic/claude' });
    expect(parseModelSpec('a/b.c=openai/x')).toEqual({ name: 'a/b.c', targets: 'openai/x' });
    expect(() => parseModelSpec('gpt-5')).toThrow(/must be <name>=/);
  });
});

describe('group operations on config.json', () => {
  it('add, set (replace in place / append), unset, list, remove', async () => {
    const added = await addGroup(store, {
      slug: 'coding',
      models: [
        { name: 'claude-sonnet-4-5', targets: 'anthropic/claude-sonnet-4-5,openrouter/anthropic/claude-sonnet-4.5' },
        { name: 'gpt-5', targets: ['openai/gpt-5'] },
      ],
    });
    expect(added.models).toHaveLength(2);
    await rejectsWith(addGroup(store, { slug: 'coding' }), 'group_exists', 409);

    const replaced = await setGroupModel(store, 'coding', 'claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5,anthropic/claude-sonnet-4-5');
    expect(replaced.replaced).toBe(true);
    expect(replaced.models.map((m) => m.name)).toEqual(['claude-sonnet-4-5', 'gpt-5']); // position kept
    expect(replaced.models[0]!.targets).toEqual(['openrouter/anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5']);
    const appended = await setGroupModel(store, 'coding', 'local/qwen', 'ollama/qwen3:8b');
    expect(appended.replaced).toBe(false);
    expect(appended.models.map((m) => m.name)).toEqual(['claude-sonnet-4-5', 'gpt-5', 'local/qwen']);

    await unsetGroupModel(store, 'coding', 'gpt-5');
    const err = await rejectsWith(unsetGroupModel(store, 'coding', 'gpt-5'), 'model_not_found', 404);
    expect(err.message).toContain('claude-sonnet-4-5, local/qwen');

    // what is on disk is what list says
    const onDisk = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8')) as Config;
    expect(onDisk.groups.coding!.models.map((m) => m.name)).toEqual(['claude-sonnet-4-5', 'local/qwen']);
    expect(listGroups(store.current())).toEqual([{ slug: 'coding', created: added.created, models: onDisk.groups.coding!.models }]);

    await removeGroup(store, 'coding');
    expect(listGroups(store.current())).toEqual([]);
    await rejectsWith(removeGroup(store, 'coding'), 'group_not_found', 404);
    await rejectsWith(setGroupModel(store, 'coding', 'x', 'openai/gpt-5'), 'group_not_found', 404);
  });

  it('refuses bad input without touching the file', async () => {
    await addGroup(store, { slug: 'empty' });
    const before = await readFile(join(dir, 'config.json'), 'utf8');
    await rejectsWith(addGroup(store, { slug: 'Bad Slug' }), 'invalid_slug', 400);
    await rejectsWith(addGroup(store, { slug: 'two', models: [{ name: 'a', targets: 'openai/x' }, { name: 'a', targets: 'openai/y' }] }), 'duplicate_model_name');
    await rejectsWith(addGroup(store, { slug: 'three', models: [{ name: 'a', targets: 'nobody/x' }] }), 'unknown_provider', 404);
    // a provider part no endpoint or local server could ever be named is malformed (400), not missing
    const upper = await rejectsWith(setGroupModel(store, 'empty', 'a', 'Foo/x'), 'invalid_target', 400);
    expect(upper.message).toBe('Target "Foo/x": "Foo" cannot be a provider name (lowercase letters, digits, "-" or "_").');
    const cased = await rejectsWith(setGroupModel(store, 'empty', 'a', 'OpenAI/gpt-5'), 'invalid_target', 400);
    expect(cased.message).toContain('Did you mean openai/gpt-5?');
    await rejectsWith(setGroupModel(store, 'empty', 'a', 'gpt-5'), 'invalid_target');
    await rejectsWith(setGroupModel(store, 'empty', 'a', `anthropic/${'m'.repeat(300)}`), 'invalid_target');
    await rejectsWith(setGroupModel(store, 'empty', '', 'openai/gpt-5'), 'invalid_model_name');
    await rejectsWith(addGroup(store, { slug: 'four', models: 'nope' }), 'invalid_argument');
    expect(await readFile(join(dir, 'config.json'), 'utf8')).toBe(before);
  });

  it('show: targets in order with connection problems flagged, and both base URLs', async () => {
    await addGroup(store, {
      slug: 'mix',
      models: [
        { name: 'big', targets: 'anthropic/claude-opus-4-1,openai/gpt-5,vllm/qwen,ollama/llama3' },
        { name: 'small', targets: 'gemini/gemini-2.5-flash,openai/gpt-5' },
      ],
    });
    await store.update((c) => {
      c.providers.gemini = { enabled: false };
      delete c.endpoints.vllm; // removed after the group was made
    });
    const asked: string[] = [];
    const detail = await showGroup(store.current(), 'mix', {
      host: '127.0.0.1',
      port: 4545,
      connected: (slug) => {
        asked.push(slug);
        return slug === 'anthropic' || slug === 'ollama';
      },
    });
    expect(detail.baseUrls).toEqual({ a: 'http://127.0.0.1:4545/g/mix/protocol-a/v1', b: 'http://127.0.0.1:4545/g/mix/protocol-b' });
    expect(detail.models[0]!.targets.map((t) => [t.target, t.connected, t.problem])).toEqual([
      ['anthropic/claude-opus-4-1', true, undefined],
      ['openai/gpt-5', false, 'not connected'],
      ['vllm/qwen', false, 'unknown provider "vllm" (removed?)'],
      ['ollama/llama3', true, undefined],
    ]);
    expect(detail.models[1]!.targets.map((t) => t.problem)).toEqual(['provider disabled', 'not connected']);
    expect(asked.filter((s) => s === 'openai')).toHaveLength(1); // one check per upstream
    // a wildcard bind is dialled on loopback
    expect((await showGroup(store.current(), 'mix', { host: '0.0.0.0', port: 9, connected: () => true })).baseUrls.b).toBe('http://127.0.0.1:9/g/mix/protocol-b');
    await rejectsWith(showGroup(store.current(), 'nope', { host: '127.0.0.1', port: 1, connected: () => true }), 'group_not_found', 404);
  });
});

describe('connectedVia', () => {
  it('locals and credential-less endpoints need nothing; the rest need a resolvable credential', async () => {
    const config: Config = {
      ...defaultConfig(),
      endpoints: {
        open: { url: 'http://x', format: 'a', hasCredential: false, created: '' },
        locked: { url: 'http://y', format: 'b', hasCredential: true, created: '' },
      },
    };
    const have = new Set(['anthropic']);
    const check = connectedVia(config, {
      resolve: async (slug) => {
        if (slug === 'broken') throw new Error('keychain gone');
        return have.has(slug) ? { value: 'x' } : undefined;
      },
    });
    expect(await check('anthropic', 'provider')).toBe(true);
    expect(await check('openai', 'provider')).toBe(false);
    expect(await check('open', 'endpoint')).toBe(true);
    expect(await check('locked', 'endpoint')).toBe(false);
    expect(await check('ollama', 'local')).toBe(true);
    expect(await check('broken', 'provider')).toBe(false);
  });
});
