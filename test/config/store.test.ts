import { spawn } from 'node:child_process';
import { readFile, rename, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigFileError, OperationError } from '../../src/config/errors.js';
import { statePaths } from '../../src/config/paths.js';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { ConfigStore } from '../../src/config/store.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterEach(removeTempDirs);

async function freshStore() {
  const paths = statePaths(await tempStateDir());
  return { paths, store: await ConfigStore.open(paths) };
}

describe('ConfigStore', () => {
  it('uses the defaults when config.json does not exist, and writes nothing until asked', async () => {
    const { paths, store } = await freshStore();
    expect(store.current().version).toBe(CONFIG_VERSION);
    expect(store.current().settings.port).toBe(4545);
    expect(store.current().settings.host).toBe('127.0.0.1');
    expect(store.existsOnDisk).toBe(false);
    await expect(stat(paths.config)).rejects.toThrow();
    await store.ensureFile();
    expect(JSON.parse(await readFile(paths.config, 'utf8')).version).toBe(CONFIG_VERSION);
  });

  it('writes atomically with mode 0600 and keeps the previous version in config.json.bak', async () => {
    const { paths, store } = await freshStore();
    await store.update((c) => void (c.settings.port = 5000));
    await store.update((c) => void (c.settings.port = 6000));
    expect(JSON.parse(await readFile(paths.config, 'utf8')).settings.port).toBe(6000);
    expect(JSON.parse(await readFile(paths.configBackup, 'utf8')).settings.port).toBe(5000);
    if (process.platform !== 'win32') expect((await stat(paths.config)).mode & 0o777).toBe(0o600);
    expect(await readFile(paths.config, 'utf8')).not.toContain('.tmp-');
  });

  it('reports a file that is not JSON with its path, and never overwrites it', async () => {
    const dir = await tempStateDir();
    const paths = statePaths(dir);
    await writeFile(paths.config, '{"version": 2, "settings": {', 'utf8');
    const err = await ConfigStore.open(paths).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ConfigFileError);
    expect((err as Error).message).toContain(paths.config);
    expect((err as Error).message).toMatch(/not valid JSON/);
    expect(await readFile(paths.config, 'utf8')).toBe('{"version": 2, "settings": {');
  });

  it('names the field that fails the schema', async () => {
    const paths = statePaths(await tempStateDir());
    await writeFile(paths.config, JSON.stringify({ version: 2, settings: { port: 99999 }, keys: [{ id: 'k' }] }));
    const err = (await ConfigStore.open(paths).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err.message).toContain('settings.port');
    expect(err.message).toContain('keys.0.name');
  });

  it('refuses to write over a file that went bad after it was loaded', async () => {
    const { paths, store } = await freshStore();
    await store.ensureFile();
    await writeFile(paths.config, 'garbage', 'utf8');
    await expect(store.update((c) => void (c.settings.port = 1234))).rejects.toBeInstanceOf(ConfigFileError);
    expect(await readFile(paths.config, 'utf8')).toBe('garbage');
    // The last good snapshot stays in force.
    expect(store.current().settings.port).toBe(4545);
  });

  it('rejects a change that would make the file invalid, writing nothing', async () => {
    const { paths, store } = await freshStore();
    await store.ensureFile();
    const before = await readFile(paths.config, 'utf8');
    const err = await store.update((c) => void (c.settings.port = -5)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(OperationError);
    expect((err as OperationError).code).toBe('invalid_config_change');
    expect(await readFile(paths.config, 'utf8')).toBe(before);
  });

  it('refuses a body budget smaller than the body limit: in a file it loads, and as a change (writing nothing)', async () => {
    const paths = statePaths(await tempStateDir());
    await writeFile(paths.config, JSON.stringify({ version: 2, settings: { bodyLimitBytes: 1000, bodyBudgetBytes: 999 } }));
    const err = (await ConfigStore.open(paths).catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(ConfigFileError);
    expect(err.message).toContain('settings.bodyBudgetBytes: 999 is less than bodyLimitBytes (1000)');
    // the default budget (512 MB) is below a limit raised past it
    await writeFile(paths.config, JSON.stringify({ version: 2, settings: { bodyLimitBytes: 1024 * 1024 * 1024 } }));
    expect(((await ConfigStore.open(paths).catch((e: unknown) => e)) as Error).message).toContain('settings.bodyBudgetBytes');

    await writeFile(paths.config, JSON.stringify({ version: 2, settings: { bodyLimitBytes: 1000, bodyBudgetBytes: 1000 } }));
    const store = await ConfigStore.open(paths);
    const before = await readFile(paths.config, 'utf8');
    const change = (await store.update((c) => void (c.settings.bodyLimitBytes = 1001)).catch((e: unknown) => e)) as OperationError;
    expect(change).toBeInstanceOf(OperationError);
    expect(change.code).toBe('invalid_config_change');
    expect(change.message).toContain('settings.bodyBudgetBytes: 1000 is less than bodyLimitBytes (1001)');
    expect(await readFile(paths.config, 'utf8')).toBe(before);
    expect(store.current().settings.bodyLimitBytes).toBe(1000);
  });

  it('leaves the file alone when the mutation throws', async () => {
    const { paths, store } = await freshStore();
    await store.update((c) => void (c.settings.port = 5001));
    const before = await readFile(paths.config, 'utf8');
    await expect(
      store.update((c) => {
        c.settings.port = 7777;
        throw new Error('changed my mind');
      }),
    ).rejects.toThrow('changed my mind');
    expect(await readFile(paths.config, 'utf8')).toBe(before);
    expect(store.current().settings.port).toBe(5001);
  });

  it('re-reads the file under the lock, so two stores never lose each other\'s writes', async () => {
    const dir = await tempStateDir();
    const a = await ConfigStore.open(statePaths(dir));
    const b = await ConfigStore.open(statePaths(dir));
    await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 ? a : b).update((c) => {
          c.locals[`l${i}`] = { url: `http://127.0.0.1:${2000 + i}`, created: new Date(0).toISOString(), detected: false };
        }),
      ),
    );
    const final = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(final.locals).sort()).toEqual(Array.from({ length: 20 }, (_, i) => `l${i}`).sort());
  });

  it('keeps every write of several processes writing at once', async () => {
    const dir = await tempStateDir();
    const script = fileURLToPath(new URL('./fixtures/concurrent-writer.ts', import.meta.url));
    const writers = ['p1', 'p2', 'p3', 'p4'];
    await Promise.all(
      writers.map(
        (prefix) =>
          new Promise<void>((resolve, reject) => {
            const child = spawn(process.execPath, ['--import', 'tsx', script, dir, prefix, '8'], { stdio: ['ignore', 'ignore', 'pipe'] });
            let err = '';
            child.stderr.on('data', (c: Buffer) => (err += c.toString()));
            child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`writer ${prefix} exited ${code}: ${err}`))));
          }),
      ),
    );
    const final = JSON.parse(await readFile(join(dir, 'config.json'), 'utf8'));
    expect(Object.keys(final.locals)).toHaveLength(32);
    for (const p of writers) for (let i = 0; i < 8; i++) expect(final.locals[`${p}-${i}`]).toBeDefined();
  }, 60_000);

  it('reload() picks up hand edits, ignores its own writes, and keeps the last good config on a bad edit', async () => {
    const { paths, store } = await freshStore();
    const seen: number[] = [];
    store.onChange((c) => seen.push(c.settings.port));
    await store.update((c) => void (c.settings.port = 5555));
    expect(seen).toEqual([5555]);
    expect(await store.reload()).toBe(false); // our own write: nothing new

    const edited = JSON.parse(await readFile(paths.config, 'utf8'));
    edited.settings.port = 6666;
    await writeFile(paths.config, JSON.stringify(edited));
    expect(await store.reload()).toBe(true);
    expect(store.current().settings.port).toBe(6666);
    expect(seen).toEqual([5555, 6666]);

    await writeFile(paths.config, '{ "version": 2, ');
    await expect(store.reload()).rejects.toBeInstanceOf(ConfigFileError);
    expect(store.current().settings.port).toBe(6666);
    expect(seen).toEqual([5555, 6666]);
  });

  it('a file moved away or deleted keeps the config in force, and nothing is written in its place until it is back', async () => {
    const { paths, store } = await freshStore();
    await store.update((c) => void (c.settings.port = 5555));
    const text = await readFile(paths.config, 'utf8');
    await rename(paths.config, `${paths.config}.editing`);
    await expect(store.reload()).rejects.toThrow(/is gone \(moved or deleted while svc-proxy runs\)/);
    expect(store.current().settings.port).toBe(5555);
    // a change meanwhile is refused: it would write a file of defaults over the move
    await expect(store.update((c) => void (c.settings.logBodies = true))).rejects.toBeInstanceOf(ConfigFileError);
    await expect(stat(paths.config)).rejects.toMatchObject({ code: 'ENOENT' });
    await rename(`${paths.config}.editing`, paths.config);
    expect(await store.reload()).toBe(false); // the same text as before
    await store.update((c) => void (c.settings.logBodies = true));
    expect(JSON.parse(await readFile(paths.config, 'utf8')).settings).toMatchObject({ port: 5555, logBodies: true });
    expect(text).toContain('5555');
  });

  it('calls change listeners before update() resolves', async () => {
    const { store } = await freshStore();
    let applied = false;
    store.onChange(() => (applied = true));
    const pending = store.update((c) => void (c.settings.logBodies = true));
    expect(applied).toBe(false);
    await pending;
    expect(applied).toBe(true);
  });

  it('migrates a version 1 file on load and writes the new shape on the next write, keeping the old one in .bak', async () => {
    const paths = statePaths(await tempStateDir());
    const v1 = {
      version: 1,
      port: 4600,
      host: '127.0.0.1',
      logRetentionDays: 3,
      providers: { openai: { baseURL: 'http://127.0.0.1:9999/v1' } },
      customEndpoints: { vllm: { url: 'http://127.0.0.1:8000/v1', format: 'a', created: '2026-01-01T00:00:00.000Z' } },
      keys: [
        {
          id: 'key_old',
          name: 'old',
          hash: 'a'.repeat(64),
          prefix: 'sk-svc-proxy-abcd',
          created: '2026-01-01T00:00:00.000Z',
          revokedAt: '2026-02-01T00:00:00.000Z',
        },
      ],
    };
    await writeFile(paths.config, JSON.stringify(v1));
    const store = await ConfigStore.open(paths);
    const c = store.current();
    expect(c.version).toBe(CONFIG_VERSION);
    expect(c.settings.port).toBe(4600);
    expect(c.settings.logRetentionDays).toBe(3);
    expect(c.providers.openai?.baseUrl).toBe('http://127.0.0.1:9999/v1');
    expect(c.endpoints.vllm?.format).toBe('a');
    expect(c.keys[0]?.revoked).toBe('2026-02-01T00:00:00.000Z');
    expect(JSON.parse(await readFile(paths.config, 'utf8')).version).toBe(1); // untouched until a write
    await store.update(() => undefined);
    expect(JSON.parse(await readFile(paths.config, 'utf8')).version).toBe(CONFIG_VERSION);
    expect(JSON.parse(await readFile(paths.configBackup, 'utf8')).version).toBe(1);
  });

  it('refuses a file from a newer svc-proxy', async () => {
    const paths = statePaths(await tempStateDir());
    await writeFile(paths.config, JSON.stringify({ version: CONFIG_VERSION + 1 }));
    await expect(ConfigStore.open(paths)).rejects.toThrow(/newer svc-proxy/);
  });
});

describe('ConfigStore: reloads racing with writes', () => {
  it('never lets a reload that read the file before a write put the older config back', async () => {
    const { paths, store } = await freshStore();
    await store.ensureFile();
    for (let i = 0; i < 40; i++) {
      await Promise.all([
        store.update((c) => {
          c.locals[`l${i}`] = { url: `http://127.0.0.1:${3000 + i}`, created: new Date(0).toISOString(), detected: false };
        }),
        store.reload().catch(() => false),
        store.reload().catch(() => false),
      ]);
      expect(Object.keys(store.current().locals), `after write ${i}`).toHaveLength(i + 1);
    }
    expect(JSON.parse(await readFile(paths.config, 'utf8')).locals).toEqual(store.current().locals);
  });
});
