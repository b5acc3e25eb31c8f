/**
 * The TUI in a real terminal (tmux, 80×24): the real binary against a running daemon and a mock
 * upstream on 127.0.0.1. A request through the proxy shows up in the log; a key is created (its
 * name mended at the cursor) and revoked with keystrokes and the next request with it gets 401;
 * resize; quitting restores the terminal. A second run starts without a daemon: `tui` starts one and says so, follows it through
 * a stop and a start, and respects NO_COLOR. Ink under CI=true draws only at exit, so the TUI runs
 * with CI=false. Ctrl-modified keys Ink 6 has no name for (ink#901) leave it answering keys.
 */
import { spawnSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONFIG_VERSION } from '../../src/config/schema.js';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { freePort } from '../fixtures/ports.js';
import { colourSequences } from '../tui/sgr.js';
import { TmuxPane, tmuxAvailable } from '../tui/tmux.js';
import { tuiCommand } from './tui-command.js';

const BIN = resolve(fileURLToPath(new URL('../../bin/svc-proxy.cjs', import.meta.url)));
const KEY_RE = /sk-svc-proxy-[A-Za-z0-9]{20,}/;

const hasTmux = tmuxAvailable();
if (!hasTmux) console.warn('[skipped: TUI end-to-end] tmux is not installed');

async function chat(d: TestDaemon, apiKey: string): Promise<number> {
  try {
    const res = await d.openai({ apiKey }).chat.completions.create({ model: 'mock/qwen3-coder', messages: [{ role: 'user', content: 'hello from the tui test' }] });
    expect(res.choices[0]?.message).toBeDefined();
    return 200;
  } catch (err) {
    const status = (err as { status?: number }).status;
    if (typeof status === 'number') return status;
    throw err;
  }
}

describe.skipIf(!hasTmux)('TUI in a real terminal', () => {
  let mock: GenericChatMock;
  let d: TestDaemon;
  let pane: TmuxPane | undefined;

  beforeAll(async () => {
    mock = await new GenericChatMock({ name: 'tui-mock', models: ['qwen3-coder'] }).listen();
    d = await startDaemon({
      setup: (t) => t.cli(['endpoint', 'add', 'mock', '--url', mock.baseUrl, '--format', 'a', '--no-credential']).then(() => undefined),
    });
  });
  afterAll(async () => {
    await pane?.kill();
    await stopDaemon(d);
    await mock.close();
  });

  it('shows a proxied request live; creates and revokes a key by keystrokes; the revoked key gets 401', async () => {
    pane = await TmuxPane.start(tuiCommand(d.home), { columns: 80, rows: 24 });
    let screen = await pane.waitFor((s) => s.includes(`● daemon 127.0.0.1:${d.port}`), 'the TUI to connect');
    expect(screen).toContain('1 Log');
    expect(screen.split('\n')[0]).toMatch(/^svc-proxy\s+1 Log\s+2 Keys\s+3 Groups\s+4 Providers/);

    // One request through the proxy appears in the log, with its key, model, provider and status.
    expect(await chat(d, d.key)).toBe(200);
    screen = await pane.waitFor((s) => /e2e\s+mock\/qwen3.*200/.test(s), 'the request in the log');
    const row = screen.split('\n').find((l) => /e2e\s+mock\/qwen3/.test(l))!;
    expect(row).toMatch(/^\d\d:\d\d:\d\d e2e\s+mock\/qwen3\S*\s+mock\/qwen3-coder\s+200\s+\d+ms/);
    expect(screen).toMatch(/LIVE 1 requests/);
    for (const line of screen.split('\n')) expect(line.length).toBeLessThanOrEqual(80);

    // Create a key: name asked, full key shown once.
    await pane.keys('2');
    await pane.waitFor((s) => s.includes('Service keys'), 'the keys screen');
    await pane.keys('n');
    await pane.waitFor((s) => s.includes('Name for the new key:'), 'the name prompt');
    // typed with a slip at each end, mended at the cursor with the keys a terminal really sends
    // (Delete and Backspace are told apart: \x1b[3~ and \x7f)
    await pane.text('xtui-2x');
    await pane.waitFor((s) => s.includes('Name for the new key: xtui-2x'), 'the name typed');
    await pane.keys('Home', 'DC', 'End', 'BSpace', 'Left');
    await pane.text('e');
    await pane.keys('End');
    await pane.text('e');
    await pane.waitFor((s) => s.includes('Name for the new key: tui-e2e'), 'the name mended');
    await pane.keys('Enter');
    screen = await pane.waitFor((s) => KEY_RE.test(s), 'the new key');
    expect(screen).toContain('Copy it now: it is not shown again.');
    const key = screen.match(KEY_RE)![0];
    expect(key.length).toBeGreaterThanOrEqual(13 + 43);
    expect(await chat(d, key)).toBe(200);

    await pane.keys('Enter');
    screen = await pane.waitFor((s) => /^tui-e2e\s/m.test(s) && !s.includes('Copy it now'), 'the key list');
    expect(screen).not.toContain(key);

    // Revoke it: select it, d, confirm with y.
    await pane.keys('Down', 'd');
    await pane.waitFor((s) => s.includes('Revoke key "tui-e2e"'), 'the confirmation');
    await pane.keys('y');
    await pane.waitFor((s) => s.includes('revoked: it no longer works'), 'the revoke');
    expect(await chat(d, key)).toBe(401);
    expect(await chat(d, d.key)).toBe(200);

    // The log shows the requests made with the new key too.
    await pane.keys('1');
    screen = await pane.waitFor((s) => /LIVE [34] requests/.test(s), 'the log again');
    expect(screen).toMatch(/tui-e2e\s+mock\/qwen3/);

    // A bigger terminal: redrawn in full at the new size, with the base column back.
    await pane.resize(120, 30);
    screen = await pane.waitFor((s) => /TIME\s+KEY\s+BASE\s+MODEL/.test(s), 'the wider layout');
    expect(screen.split('\n')[0]).toMatch(/^svc-proxy\s+1 Log/);
    expect(screen.match(/svc-proxy\s+1 Log/g)).toHaveLength(1);
    await pane.resize(80, 24);
    screen = await pane.waitFor((s) => /TIME\s+KEY\s+MODEL/.test(s) && !/BASE/.test(s.split('\n')[2] ?? ''), 'the narrow layout');
    expect(screen.match(/svc-proxy\s+1 Log/g)).toHaveLength(1);

    // The default colours are on (statuses are coloured).
    expect(colourSequences(await pane.capture(true)).length).toBeGreaterThan(0);

    // q: the TUI exits 0 and the terminal is back as it was (no UI left on the screen).
    await pane.keys('q');
    screen = await pane.waitFor((s) => s.includes('TUI-EXIT=0'), 'the exit');
    expect(screen).not.toContain('1 Log');
    expect(screen).not.toContain('LIVE');
  });

  it('c copies a new key wrapped in a narrow terminal: tmux by default drops it and the TUI says so; with set-clipboard on tmux has it whole', async () => {
    await pane?.kill();
    // TMUX as tmux sets it for the pane: the TUI writes its copy for tmux and asks tmux what it did
    pane = await TmuxPane.start(tuiCommand(d.home, {}, ['TMUX', 'TMUX_PANE']), { columns: 40, rows: 16 });
    await pane.waitFor((s) => s.includes(`127.0.0.1:${d.port}`), 'the TUI to connect');
    await pane.keys('2');
    await pane.waitFor((s) => s.includes('Service keys'), 'the keys screen');
    await pane.keys('n');
    await pane.waitFor((s) => /(Name for the new key|Key name):/.test(s), 'the name prompt');
    await pane.text('clip-e2e');
    await pane.keys('Enter');
    let screen = await pane.waitFor((s) => s.includes('c copy'), 'the new key');
    // two lines at 40 columns: a mouse copy would carry the line break
    const all = screen.split('\n').map((l) => l.trim());
    const from = all.findIndex((l) => l.startsWith('sk-svc-proxy-'));
    expect(all[from]!.length, screen).toBe(40);
    const key = all[from]! + all[from + 1]!;
    expect(key, screen).toMatch(/^sk-svc-proxy-[A-Za-z0-9]{43}$/);

    await pane.keys('c');
    screen = await pane.waitFor((s) => s.includes('Not copied'), 'what tmux did by default');
    expect(screen.replace(/\s+/g, ' ')).toContain('Not copied: tmux drops it; tmux set -g set-clipboard on lets it through.');
    expect(await pane.command('list-buffers')).toBe('');

    await pane.command('set-option', '-g', 'set-clipboard', 'on');
    await pane.keys('c');
    screen = await pane.waitFor((s) => s.includes('Copied to'), 'the copy');
    expect(screen.replace(/\s+/g, ' ')).toContain("Copied to tmux's paste buffer and the terminal's clipboard.");
    expect(await pane.command('show-buffer')).toBe(key);
    expect(await chat(d, key)).toBe(200);

    await pane.keys('Enter');
    screen = await pane.waitFor((s) => /^clip-e2e\s/m.test(s) && !s.includes('Copy it now'), 'the key list');
    expect(screen).not.toContain(key.slice(20));
    // no file of the daemon's (its log, its state) has the key
    for (const file of await filesUnder(d.home)) expect((await readFile(file, 'utf8')).includes(key), file).toBe(false);
  });

  it('Ctrl-modified keys Ink 6 has no name for (xterm Ctrl-F1, Ctrl-F13) do not kill the TUI (ink#901): it still answers keys', async () => {
    await pane?.kill();
    pane = await TmuxPane.start(tuiCommand(d.home), { columns: 80, rows: 24 });
    await pane.waitFor((s) => s.includes(`● daemon 127.0.0.1:${d.port}`), 'the TUI to connect');
    await pane.keys('C-F1');
    await pane.text('\x1b[25;5~'); // Ctrl-F13 as xterm sends it
    await pane.keys('2');
    await pane.waitFor((s) => s.includes('Service keys'), 'the keys screen after Ctrl-F1');
    await pane.keys('n');
    await pane.waitFor((s) => s.includes('Name for the new key:'), 'the name prompt');
    await pane.text('o');
    await pane.keys('C-F1');
    await pane.text('k');
    const screen = await pane.waitFor((s) => s.includes('Name for the new key: ok'), 'the name typed around Ctrl-F1');
    expect(screen).not.toContain('TUI-EXIT');
    expect(screen).not.toContain('[1;5P');
    await pane.keys('C-c');
    await pane.waitFor((s) => s.includes('TUI-EXIT=0'), 'the exit');
  });
});

async function filesUnder(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe.skipIf(!hasTmux)('TUI without a running daemon', () => {
  let home: string;
  let pane: TmuxPane | undefined;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'svc-tui-e2e-'));
    await writeFile(join(home, 'config.json'), JSON.stringify({ version: CONFIG_VERSION, settings: { port: await freePort() } }), { mode: 0o600 });
  });
  afterAll(async () => {
    await pane?.kill();
    spawnSync(process.execPath, [BIN, 'stop'], { env: { ...process.env, SVC_PROXY_HOME: home }, timeout: 20_000 });
    await rm(home, { recursive: true, force: true });
  });

  it('starts the daemon and says so, follows it through stop and start, respects NO_COLOR, Ctrl-C restores', async () => {
    pane = await TmuxPane.start(tuiCommand(home, { NO_COLOR: '1' }), { columns: 80, rows: 24 });
    let screen = await pane.waitFor((s) => s.includes('● daemon 127.0.0.1:'), 'the TUI to start a daemon and connect', 25_000);
    expect(screen).toMatch(/● daemon 127\.0\.0\.1:\d+ \(pid \d+\)\s+No daemon was running: started it\./);

    const env = { ...process.env, SVC_PROXY_HOME: home, CI: 'false' };
    expect(spawnSync(process.execPath, [BIN, 'stop'], { env, timeout: 20_000 }).status).toBe(0);
    screen = await pane.waitFor((s) => s.includes('daemon stopped — reconnecting'), 'the lost banner');
    expect(spawnSync(process.execPath, [BIN, 'start'], { env, timeout: 20_000 }).status).toBe(0);
    screen = await pane.waitFor((s) => s.includes('● daemon 127.0.0.1:') && !s.includes('reconnecting'), 'the reconnect', 20_000);

    // NO_COLOR: bold and inverse only, no colour anywhere on screen.
    await pane.keys('4');
    await pane.waitFor((s) => s.includes('anthropic'), 'the providers screen');
    const raw = await pane.capture(true);
    expect(colourSequences(raw)).toEqual([]);
    // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
    expect(raw).toMatch(/\x1b\[(?:[0-9;]*;)?7(?:;[0-9;]*)?m/); // inverse (the current tab) is not colour

    await pane.keys('C-c');
    screen = await pane.waitFor((s) => s.includes('TUI-EXIT=0'), 'the exit');
    expect(screen).not.toContain('4 Providers');
  });
});

describe.skipIf(!hasTmux)('start --foreground in a terminal', () => {
  let home: string;
  let port: number;
  let pane: TmuxPane | undefined;

  beforeAll(async () => {
    home = await mkdtemp(join(tmpdir(), 'svc-tui-fg-'));
    port = await freePort();
  });
  afterAll(async () => {
    await pane?.kill();
    spawnSync(process.execPath, [BIN, 'stop'], { env: { ...process.env, SVC_PROXY_HOME: home }, timeout: 20_000 });
    await rm(home, { recursive: true, force: true });
  });

  function foregroundCommand(flags: string): string {
    return tuiCommand(home).replace(/ tui; echo/, ` start --foreground --port ${port}${flags}; echo`);
  }

  async function healthy(): Promise<boolean> {
    try {
      return (await fetch(`http://127.0.0.1:${port}/health`)).ok;
    } catch {
      return false;
    }
  }

  it('opens the TUI on the daemon it runs; q closes both; the daemon log goes to daemon.log', async () => {
    pane = await TmuxPane.start(foregroundCommand(''), { columns: 80, rows: 24 });
    const screen = await pane.waitFor((s) => s.includes(`● daemon 127.0.0.1:${port}`), 'the foreground TUI', 25_000);
    expect(screen).toContain('foreground: q stops it');
    expect(screen).toContain('daemon log:');
    expect(await healthy()).toBe(true);
    await pane.keys('q');
    await pane.waitFor((s) => s.includes('TUI-EXIT=0'), 'the exit', 25_000);
    expect(await healthy()).toBe(false);
    expect(await readFile(join(home, 'daemon.log'), 'utf8')).toMatch(/listening|started|stopp/i);
    await pane.kill();
    pane = undefined;
  });

  it('SIGTERM closes the TUI, restores the terminal and stops the daemon', async () => {
    pane = await TmuxPane.start(foregroundCommand(''), { columns: 80, rows: 24 });
    await pane.waitFor((s) => s.includes(`● daemon 127.0.0.1:${port}`), 'the foreground TUI', 25_000);
    // The foreground daemon is the CLI process itself: its pid is in the runtime file.
    const { pid } = JSON.parse(await readFile(join(home, 'daemon.json'), 'utf8')) as { pid: number };
    process.kill(pid, 'SIGTERM');
    const screen = await pane.waitFor((s) => s.includes('TUI-EXIT=0'), 'the exit', 25_000);
    expect(screen).not.toContain('1 Log');
    expect(await healthy()).toBe(false);
    await pane.kill();
    pane = undefined;
  });

  it('--no-tui keeps the plain foreground output', async () => {
    pane = await TmuxPane.start(foregroundCommand(' --no-tui'), { columns: 80, rows: 24 });
    const screen = await pane.waitFor((s) => s.includes('running in the foreground'), 'the plain output', 25_000);
    expect(screen).not.toContain('1 Log');
    expect(await healthy()).toBe(true);
    await pane.keys('C-c');
    await pane.waitFor((s) => s.includes('TUI-EXIT=0'), 'the exit', 25_000);
    expect(await healthy()).toBe(false);
  });
});
