/** The private config file `svc-proxy run` writes for a tool that reads its settings from a file (cli/tools/run-config-file.ts). */
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { writeRunConfig } from '../../src/cli/tools/run-config-file.js';

const dirs: string[] = [];
afterAll(async () => {
  for (const d of dirs) await rm(d, { recursive: true, force: true });
});

describe('the run config file', () => {
  it('is private while the tool runs, gone after, and a killed run’s leftover goes at the next run', async () => {
    const state = await mkdtemp(join(tmpdir(), 'svc-runcfg-'));
    dirs.push(state);
    // a run killed outright (its process is gone) and one still running (this process's parent)
    const dead = spawnSync(process.execPath, ['-e', '0']).pid;
    await mkdir(join(state, 'run'), { recursive: true });
    await writeFile(join(state, 'run', `continue-${dead}.yaml`), 'apiKey: sk-svc-proxy-old');
    await writeFile(join(state, 'run', `continue-${process.ppid}.yaml`), 'apiKey: sk-svc-proxy-other');

    const file = await writeRunConfig(state, 'continue', { content: 'name: svc-proxy\n', extension: 'yaml' });
    expect(file.path).toBe(join(state, 'run', `continue-${process.pid}.yaml`));
    expect(await readFile(file.path, 'utf8')).toBe('name: svc-proxy\n');
    if (process.platform !== 'win32') {
      expect((await stat(file.path)).mode & 0o777).toBe(0o600);
      expect((await stat(join(state, 'run'))).mode & 0o777).toBe(0o700);
    }
    expect((await readdir(join(state, 'run'))).sort()).toEqual([`continue-${process.pid}.yaml`, `continue-${process.ppid}.yaml`].sort());
    await file.remove();
    expect(await readdir(join(state, 'run'))).toEqual([`continue-${process.ppid}.yaml`]);
  });
});
