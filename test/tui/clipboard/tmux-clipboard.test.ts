/** What a real tmux server (one of our own, private socket, no user config) says it does with a program's OSC 52. */
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tmuxClipboard } from '../../../src/tui/clipboard/tmux-clipboard.js';
import { tmuxAvailable } from '../tmux.js';

const run = promisify(execFile);
const socket = `svc-clip-${process.pid}`;
const tmux = (...args: string[]) => run('tmux', ['-L', socket, ...args]);
let env: Record<string, string | undefined>;

describe.skipIf(!tmuxAvailable())('tmux clipboard', () => {
  beforeAll(async () => {
    await tmux('-f', '/dev/null', 'new-session', '-d', '-s', 'clip', 'sleep 600');
    const path = (await tmux('display-message', '-p', '-t', 'clip', '#{socket_path}')).stdout.trim();
    const pane = (await tmux('display-message', '-p', '-t', 'clip', '#{pane_id}')).stdout.trim();
    // what a program in that pane has: TMUX names the server's socket
    env = { PATH: process.env.PATH, TMUX: `${path},0,0`, TMUX_PANE: pane };
  });
  afterAll(async () => {
    await tmux('kill-server').catch(() => undefined);
  });

  it('by default (set-clipboard external, no passthrough) drops it', async () => {
    expect(await tmuxClipboard(env)).toBe('dropped');
  });

  it('with allow-passthrough on hands the wrapped copy on; with set-clipboard on keeps it in a buffer', async () => {
    await tmux('set-option', '-p', '-t', 'clip', 'allow-passthrough', 'on');
    expect(await tmuxClipboard(env)).toBe('passthrough');
    await tmux('set-option', '-g', 'set-clipboard', 'on');
    expect(await tmuxClipboard(env)).toBe('buffer');
  });

  it('cannot be asked of a server that is not there', async () => {
    expect(await tmuxClipboard({ ...env, TMUX: '/nonexistent/tmux-socket,0,0' })).toBeUndefined();
  });
});
