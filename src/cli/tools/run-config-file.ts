/**
 * The private config file `svc-proxy run` writes for a tool that takes its settings only from a
 * file (ToolSetup.runConfig): `run/<tool>-<pid>.<ext>` in the state dir (0700 directory, 0600
 * file, the service key in it as in tool-keys.json beside it), removed when the tool ends. A run
 * killed outright leaves its file behind; the next run removes those whose process is gone.
 */
import { chmod, mkdir, readdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { processAlive } from '../../config/file-lock.js';

export interface RunConfigFile {
  path: string;
  remove(): Promise<void>;
}

export async function writeRunConfig(stateDir: string, toolId: string, config: { content: string; extension: string }): Promise<RunConfigFile> {
  const dir = join(stateDir, 'run');
  await mkdir(dir, { recursive: true, mode: 0o700 });
  if (process.platform !== 'win32') await chmod(dir, 0o700);
  await removeLeftovers(dir);
  const path = join(dir, `${toolId}-${process.pid}.${config.extension}`);
  await writeFile(path, config.content, { mode: 0o600 });
  return { path, remove: () => rm(path, { force: true }) };
}

async function removeLeftovers(dir: string): Promise<void> {
  for (const name of await readdir(dir).catch(() => [] as string[])) {
    const pid = Number(/-(\d+)\.[a-z]+$/.exec(name)?.[1]);
    if (Number.isInteger(pid) && pid > 0 && pid !== process.pid && !processAlive(pid)) await rm(join(dir, name), { force: true });
  }
}
