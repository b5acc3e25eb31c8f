/**
 * A bench script's children (mock, gateways, daemons) go with it however it is stopped: Ctrl-C,
 * and SIGTERM from `timeout` or a service manager, which without a handler ended the script
 * without its exit handler and left them running.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../daemon/harness.js';

const SCRIPT = `
import { spawn } from 'node:child_process';
import { superviseChildren } from ${JSON.stringify(join(ROOT, 'bench', 'lib.js'))};
const children = superviseChildren('test', 60_000);
const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' });
children.push(child);
console.log(child.pid);
setInterval(() => {}, 1000);
`;

/** Running: a killed child whose parent is gone may stay a zombie (state Z) where nothing reaps it. */
function alive(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z';
  } catch {
    return false;
  }
}

async function childGoneAfter(signal: NodeJS.Signals): Promise<boolean> {
  const script = spawn(process.execPath, ['--input-type=module', '-e', SCRIPT], { stdio: ['ignore', 'pipe', 'inherit'] });
  const [line] = (await once(script.stdout, 'data')) as [Buffer];
  const pid = Number(String(line).trim());
  expect(alive(pid)).toBe(true);
  script.kill(signal);
  await once(script, 'exit');
  for (let i = 0; i < 50 && alive(pid); i++) await new Promise((r) => setTimeout(r, 20));
  const gone = !alive(pid);
  if (!gone) process.kill(pid, 'SIGKILL');
  return gone;
}

describe('superviseChildren', () => {
  it.each(['SIGINT', 'SIGTERM', 'SIGHUP'] as const)('kills the children when the script gets %s', async (signal) => {
    expect(await childGoneAfter(signal)).toBe(true);
  });
});
