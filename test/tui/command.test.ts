/** `svc-proxy tui` / `ui` as a command: refuses without a terminal, and stays out of other commands' way. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { BIN, ROOT, cleanEnv, removeTempDirs, runCli, tempStateDir } from '../daemon/harness.js';

const HOOK = fileURLToPath(new URL('./fixtures/record-imports.mjs', import.meta.url));
afterAll(removeTempDirs);

describe('svc-proxy tui', () => {
  it('needs an interactive terminal: exit 2 with a pointer to logs --follow (alias ui too)', async () => {
    const home = await tempStateDir();
    for (const cmd of ['tui', 'ui']) {
      const res = await runCli([cmd], { env: { SVC_PROXY_HOME: home } });
      expect(res.code).toBe(2);
      expect(res.stderr).toContain('The TUI needs an interactive terminal');
      expect(res.stderr).toContain('svc-proxy logs --follow');
    }
    // Refused before anything else: no daemon was started for it.
    const paths = statePaths(home);
    expect(existsSync(paths.pidFile)).toBe(false);
    expect(existsSync(paths.runtimeFile)).toBe(false);
  });

  it('is listed in the help with its alias', async () => {
    const res = await runCli(['--help']);
    // every screen it has, Stats too
    expect(res.stdout).toMatch(/tui\|ui\s+terminal UI: live request log, keys, groups, providers, stats/);
    const sub = await runCli(['tui', '--help']);
    expect(sub.code).toBe(0);
    expect(sub.stdout.replace(/\s+/g, ' ')).toContain('Terminal UI: live request log, service keys, model groups, providers, stats');
  });

  describe.skipIf(!existsSync(join(ROOT, 'dist', 'cli', 'main.js')))('loading (built binary)', () => {
    const dirs: string[] = [];
    afterAll(async () => {
      for (const d of dirs) await rm(d, { recursive: true, force: true });
    });

    function loaded(args: string[], home: string): string[] {
      const record = join(home, 'imports.txt');
      const res = spawnSync(process.execPath, ['--import', HOOK, ...args], {
        cwd: ROOT,
        env: cleanEnv({ SVC_PROXY_HOME: home, RECORD_IMPORTS_TO: record }) as NodeJS.ProcessEnv,
        encoding: 'utf8',
        timeout: 20_000,
      });
      expect(res.status, res.stderr).toBe(0);
      return existsSync(record) ? readFileSync(record, 'utf8').split('\n').filter(Boolean) : [];
    }
    const uiPackages = (urls: string[]) => urls.filter((u) => /\/node_modules\/(ink|react|react-reconciler|yoga-layout)\//.test(u));

    it('--version and other commands never load React or Ink; the TUI module does', async () => {
      const home = await mkdtemp(join(tmpdir(), 'svc-tui-lazy-'));
      dirs.push(home);
      expect(uiPackages(loaded([BIN, '--version'], home))).toEqual([]);
      expect(uiPackages(loaded([BIN, 'key', 'list'], home))).toEqual([]);
      expect(uiPackages(loaded([BIN, 'start', '--help'], home))).toEqual([]);
      // The control: importing the TUI does load them (so the check above can fail).
      const tui = uiPackages(loaded(['--input-type=module', '-e', `await import(${JSON.stringify(join(ROOT, 'dist', 'tui', 'run.js'))})`], home));
      expect(tui.some((u) => u.includes('/node_modules/ink/'))).toBe(true);
      expect(tui.some((u) => u.includes('/node_modules/react/'))).toBe(true);
    });
  });
});
