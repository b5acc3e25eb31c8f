/**
 * `config check` reads config.json once: its warnings (a key written twice, an unknown field) are
 * about the text it validated. Here the file is replaced by an editor's save right after the check
 * opened it; a second read would report on the new text, or on "{}" had it vanished meanwhile.
 */
import { renameSync, writeFileSync } from 'node:fs';
import type * as FsPromises from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { removeTempDirs, runCli, tempStateDir } from '../daemon/harness.js';

/** Called after each open of a path, once the handle is there. */
const afterOpen = vi.hoisted(() => ({ hook: (_path: string) => {} }));

vi.mock('node:fs/promises', async (importOriginal) => {
  const real = await importOriginal<typeof FsPromises>();
  const open: typeof real.open = async (...args) => {
    const handle = await real.open(...args);
    afterOpen.hook(String(args[0]));
    return handle;
  };
  return { ...real, default: { ...real, open }, open };
});

afterEach(async () => {
  afterOpen.hook = () => {};
  await removeTempDirs();
});

describe('config check', () => {
  it('reports on the text it validated, though the file is replaced after it was opened', async () => {
    const home = await tempStateDir();
    const file = join(home, 'config.json');
    writeFileSync(file, `{"version":${CONFIG_VERSION},"settings":{"port":5000}}\n`, { mode: 0o600 });
    let opens = 0;
    afterOpen.hook = (path) => {
      if (path !== file || ++opens > 1) return;
      writeFileSync(`${file}.new`, `{"version":${CONFIG_VERSION},"settings":{"port":5000,"port":5001,"colour":"blue"}}\n`);
      renameSync(`${file}.new`, file);
    };
    const res = await runCli(['config', 'check'], { env: { SVC_PROXY_HOME: home } });
    expect(res).toMatchObject({ code: 0, stdout: `${file} is valid.\n` });
    expect(opens).toBe(1);
  });
});
