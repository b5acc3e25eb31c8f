/**
 * The app shell in a fake terminal (Ink's own render, so the terminal size, resizes and exit are
 * the real code paths): screen switching, help, quitting, keys owned by an open field, layout at
 * 80×24 and after a resize, and losing and regaining the daemon.
 */
import { EventEmitter } from 'node:events';
import { render } from 'ink';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/cli/admin-client.js';
import { App, type AppProps } from '../../src/tui/App.js';
import { DaemonLink } from '../../src/tui/daemon-link.js';
import { GLOBAL_KEYS, SCREEN_KEYS, SCREENS } from '../../src/tui/screens/screens.js';
import { createTheme } from '../../src/tui/theme.js';
import { textWidth } from '../../src/util/text-width.js';
import { removeTempDirs } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, settleInk, sleep, startTui, type TuiHarness } from './harness.js';
import { SCREEN_TOPS, showsScreen } from './screen-shown.js';

class FakeStdout extends EventEmitter {
  isTTY = true;
  frames: string[] = [];
  constructor(
    public columns: number,
    public rows: number,
  ) {
    super();
  }
  write = (s: string) => {
    this.frames.push(s);
    return true;
  };
  last(): string {
    return this.frames.at(-1) ?? '';
  }
  resize(columns: number, rows: number) {
    this.columns = columns;
    this.rows = rows;
    this.emit('resize');
  }
}

class FakeStdin extends EventEmitter {
  isTTY = true;
  private data: string | null = null;
  setEncoding() {}
  setRawMode() {}
  resume() {}
  pause() {}
  ref() {}
  unref() {}
  read = () => {
    const d = this.data;
    this.data = null;
    return d;
  };
  write(d: string) {
    this.data = d;
    this.emit('readable');
    this.emit('data', d);
  }
}

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});
afterAll(removeTempDirs);

async function until(check: () => boolean, what: string, ms = 5_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(20);
  }
  await settleInk();
}

async function fakeTerminal(d: InProcessDaemon, columns = 80, rows = 24, props: Pick<AppProps, 'notice' | 'foreground'> = {}) {
  const stdout = new FakeStdout(columns, rows);
  const stdin = new FakeStdin();
  const link = new DaemonLink({ open: () => AdminClient.connect(d.daemon.paths, null), retryMs: 100 });
  const app = render(<App link={link} theme={createTheme({})} feed={{ flushMs: 50 }} {...props} />, {
    stdout: stdout as unknown as NodeJS.WriteStream,
    stdin: stdin as unknown as NodeJS.ReadStream,
    debug: true,
    exitOnCtrlC: true,
    patchConsole: false,
  });
  // Ink creates the exit promise on first call: ask before anything can exit.
  const exited = app.waitUntilExit();
  cleanups.push(() => {
    app.unmount();
    link.stop();
  });
  const press = async (...keys: string[]) => {
    for (const k of keys) {
      stdin.write(k);
      await settleInk();
    }
  };
  await until(() => stdout.last().includes('● daemon'), 'the connection');
  return { stdout, stdin, app, press, exited };
}

describe('app shell', () => {
  it('switches screens with 1-5, Tab and Shift-Tab; ? shows the keys; q quits', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d);
    const title = () => t.stdout.last().split('\n')[2] ?? '';
    await t.press('2');
    await until(() => title().startsWith('Service keys'), 'keys');
    await t.press('3');
    await until(() => title().startsWith('Model groups'), 'groups');
    await t.press('4');
    await until(() => title().startsWith('Providers'), 'providers');
    await t.press('5');
    await until(() => title().startsWith('Usage'), 'stats');
    await t.press(KEYS.tab);
    await until(() => title().startsWith('TIME'), 'log (Tab wraps around)');
    await t.press(KEYS.shiftTab);
    await until(() => title().startsWith('Usage'), 'stats (Shift-Tab)');
    await t.press('1', '?');
    await until(() => t.stdout.last().includes('Log screen'), 'the help');
    const help = t.stdout.last();
    for (const text of ['/', 'status filter', 'key filter', 'pause / resume', 'switch screen', 'quit', 'S streamed, F<n> fell back']) expect(help).toContain(text);
    await t.press('x'); // any key closes it
    await until(() => title().startsWith('TIME'), 'the log again');
    await t.press('q');
    await t.exited;
  });

  it('Ctrl-C quits', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d);
    await t.press('\x03');
    await t.exited;
  });

  it('an open text field owns the keyboard: q, digits and ? are typed, not obeyed', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d);
    await t.press('2', 'n');
    await until(() => t.stdout.last().includes('Name for the new key:'), 'the prompt');
    await t.press('q', '1', '?', KEYS.tab);
    await until(() => t.stdout.last().includes('Name for the new key: q1?'), 'the typed text');
    expect(t.stdout.last()).toContain('Service keys');
    await t.press(KEYS.escape);
    await until(() => !t.stdout.last().includes('Name for the new key'), 'the prompt to close');
  });

  it('fills 80×24 minus one line on every screen, and follows a resize', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    d.deps.log(makeEntry({ base: 'group:work', modelAsked: 'fast' }));
    const t = await fakeTerminal(d);
    await until(() => t.stdout.last().includes('fast'), 'the row');
    for (const key of ['1', '2', '3', '4', '5', '?']) {
      await t.press(key);
      await until(() => (key === '?' ? t.stdout.last().includes('Stats screen') : showsScreen(t.stdout.last(), key)), `screen ${key}`);
      const lines = t.stdout.last().split('\n');
      expect(lines, `screen ${key}`).toHaveLength(23);
      for (const l of lines) expect(l.length, `screen ${key}: ${l}`).toBeLessThanOrEqual(80);
      if (key === '?') await t.press('x');
    }
    await t.press('1');
    expect(t.stdout.last()).not.toContain('g/work'); // the base column does not fit at 80
    t.stdout.resize(120, 40);
    await until(() => t.stdout.last().split('\n').length === 39, 'the new height');
    expect(t.stdout.last()).toContain('g/work');
    t.stdout.resize(60, 15);
    await until(() => t.stdout.last().split('\n').length === 14, 'the smaller height');
    for (const l of t.stdout.last().split('\n')) expect(l.length).toBeLessThanOrEqual(60);
  });
});

describe('a narrow terminal', () => {
  it('at 60 and 40 columns the tab bar and the status line fit, every key shown, nothing cut mid-word', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d, 60, 24);
    const port = d.daemon.port;
    for (const columns of [60, 40]) {
      t.stdout.resize(columns, 24);
      for (const s of SCREENS) {
        await t.press(s.key);
        await until(() => t.stdout.last().split('\n')[0]!.includes(` ${s.key} ${s.title} `) && showsScreen(t.stdout.last(), s.key), `${s.title} at ${columns}`);
        const [tabs = '', status = ''] = t.stdout.last().split('\n');
        expect(textWidth(tabs), tabs).toBeLessThanOrEqual(columns);
        expect(tabs, tabs).not.toContain('…');
        for (const k of ['1', '2', '3', '4', '5']) expect(tabs, tabs).toMatch(new RegExp(`(^| )${k}( |$)`));
        expect(tabs.trimEnd(), tabs).toMatch(/ \? help {2}q quit$/);
        expect(textWidth(status), status).toBeLessThanOrEqual(columns);
        const full = `● daemon 127.0.0.1:${port} (pid ${process.pid})`;
        expect(status.trimEnd(), status).toBe(textWidth(full) <= columns ? full : `● daemon 127.0.0.1:${port}`);
      }
    }
  });
});

describe('every width from 20 to 80 columns', () => {
  const WIDTHS = [80, 60, 40, 30, 20];
  const LOG_NOTICE = 'daemon log: /home/someone/.local/state/svc-proxy/daemon.log';
  const squeezed = (text: string) => text.replace(/\s+/g, '');

  it('every screen names itself on the tab bar, the notice is there whole, no line is wider than the terminal', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d, 80, 24, { notice: LOG_NOTICE, foreground: true });
    for (const columns of WIDTHS) {
      t.stdout.resize(columns, 24);
      for (const s of SCREENS) {
        await t.press(s.key);
        const named = (tabs: string) => tabs.includes(` ${s.key} ${s.title} `) || tabs.includes(` ${s.key} ${s.short} `);
        // the screen's own first line, under the notice (however many lines that takes): the tab bar names every screen where it is wide
        const shown = (all: string[]) => named(all[0]!) && all.slice(2).some((l) => l.startsWith(SCREEN_TOPS[s.key]!));
        await until(() => shown(t.stdout.last().split('\n')), `${s.title} at ${columns}`);
        const frame = t.stdout.last();
        const lines = frame.split('\n');
        expect(lines, `${s.title} at ${columns}`).toHaveLength(23);
        for (const l of lines) expect(textWidth(l), `${s.title} at ${columns}: ${l}`).toBeLessThanOrEqual(columns);
        expect(lines[0], `${s.title} at ${columns}`).not.toContain('…');
        expect(lines[0]!.trimEnd(), `${s.title} at ${columns}`).toMatch(/ \?( help( {2}q quit)?)?$/);
        expect(squeezed(frame), `${s.title} at ${columns}`).toContain(squeezed(LOG_NOTICE));
      }
    }
  });

  it("the Log footer shows only key hints that fit whole, the first one from 30 columns", async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d, 80, 24);
    await t.press('l');
    const hints = ['/ filter', 's status', 'k key', 'space pause', 'Enter details'];
    for (const columns of [80, 60, 40, 30, 20]) {
      t.stdout.resize(columns, 24);
      // the frame at the new width (each narrower than the one before), not the last one at the old
      await until(() => t.stdout.last().split('\n').every((l) => textWidth(l) <= columns), `the frame at ${columns}`);
      const footer = t.stdout.last().split('\n').find((l) => l.startsWith('LIVE'))!;
      expect(footer, `${columns}`).toMatch(/^LIVE 0 requests/);
      expect(footer, `${columns}`).not.toContain('…');
      expect(textWidth(footer), `${columns}`).toBeLessThanOrEqual(columns);
      const shown = footer.split(' · ').slice(1).map((h) => h.trimEnd());
      expect(shown, `${columns}`).toEqual(hints.slice(0, shown.length));
      if (columns >= 30) expect(shown.length, `${columns}`).toBeGreaterThan(0);
    }
  });

  it('the help fits every width and height: rows whole, each key at the start of its row, how to close or scroll it last', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d, 80, 24);
    await t.press('l');
    const keys = [...SCREEN_KEYS.log, ...GLOBAL_KEYS].map((k) => k[0]);
    for (const rows of [24, 12]) {
      for (const columns of WIDTHS) {
        t.stdout.resize(columns, rows);
        await t.press('?');
        await until(() => /Everywhere|closes?\b|\d+–\d+/.test(t.stdout.last()), `help at ${columns}x${rows}`);
        await sleep(100);
        const lines = t.stdout.last().split('\n').slice(2);
        const at = `help at ${columns}x${rows}`;
        for (const l of lines) expect(textWidth(l), `${at}: ${l}`).toBeLessThanOrEqual(columns);
        // the help's own last line, above the global keys a narrow terminal shows on the bottom line
        const last = lines.filter((l) => l.trim() && l.trim() !== '? help · q quit').at(-1)!.trim();
        // how to close it, or (too short for every row) which rows show and how to scroll: help-scroll.test.tsx
        expect(last, at).toMatch(/^(Press any key to close\.|Any key closes\.|(rows )?1–\d+(\/| of )\d+\b.*)$/);
        // a key shown starts its row, two cells in, never after another row's words
        const shown = keys.filter((k) => lines.some((l) => l.includes(k.split(' ')[0]!) && l.startsWith(`  ${k.split(' ')[0]}`)));
        if (rows === 24 && columns >= 60) expect(shown, at).toEqual(keys);
        expect(lines.filter((l) => l.includes('Everywhere')).every((l) => l.trim() === 'Everywhere'), at).toBe(true);
        await t.press('x');
        await until(() => t.stdout.last().includes('LIVE'), `help closed at ${columns}x${rows}`);
      }
    }
  });

  it('in a short terminal the notice keeps to a quarter of the rows and each screen keeps its heading', async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    const t = await fakeTerminal(d, 80, 12, { notice: LOG_NOTICE, foreground: true });
    for (const columns of [30, 20]) {
      t.stdout.resize(columns, 12);
      for (const s of SCREENS) {
        await t.press(s.key);
        await until(() => showsScreen(t.stdout.last(), s.key, 4), `${s.title} at ${columns}`);
        const lines = t.stdout.last().split('\n');
        expect(lines, `${s.title} at ${columns}`).toHaveLength(11);
        for (const l of lines) expect(textWidth(l), `${s.title} at ${columns}: ${l}`).toBeLessThanOrEqual(columns);
        // tabs, status, two notice lines (a quarter of the nine rows under the top two), then the screen
        expect(lines[3]!.trimEnd().endsWith('…'), `${s.title} at ${columns}: ${lines[3]}`).toBe(true);
        expect(lines[4], `${s.title} at ${columns}`).toMatch(new RegExp(`^${SCREEN_TOPS[s.key]}`));
      }
    }
  });

  it("an action's message is wrapped whole, not cut", async () => {
    const d = await startInProcess();
    cleanups.push(() => d.daemon.stop());
    await d.admin('POST', '/admin/keys', { name: 'laptop-claude-code-long-refactor' });
    const t = await fakeTerminal(d);
    await t.press('2');
    await until(() => t.stdout.last().includes('laptop-claude'), 'the key');
    await t.press('d');
    await until(() => t.stdout.last().includes('[y/N]'), 'the question');
    await t.press('y');
    const said = '✓ Key "laptop-claude-code-long-refactor" revoked: it no longer works.';
    await until(() => t.stdout.last().includes(said), 'the message');
    for (const columns of WIDTHS) {
      t.stdout.resize(columns, 24);
      await until(() => t.stdout.last().split('\n').every((l) => textWidth(l) <= columns), `the frame at ${columns}`);
      const frame = t.stdout.last();
      expect(squeezed(frame), `at ${columns}`).toContain(squeezed(said));
      expect(frame, `at ${columns}`).not.toMatch(/revoked: it no…|works\.…/);
    }
  });
});

describe('daemon loss', () => {
  let h: TuiHarness | undefined;
  let second: InProcessDaemon | undefined;
  afterEach(async () => {
    await h?.close();
    await second?.daemon.stop();
    h = second = undefined;
  });

  it('shows "daemon stopped — reconnecting", then reconnects to the new daemon and its live log', async () => {
    h = await startTui();
    h.log(makeEntry({ modelAsked: 'old/one' }));
    await h.waitFor((f) => f.includes('old/one'), 'the first row');
    await h.d.daemon.stop('test');
    let f = await h.waitFor((fr) => fr.includes('daemon stopped — reconnecting'), 'the lost banner');
    expect(f).toContain('old/one'); // what was shown stays
    // An action meanwhile says the daemon is away instead of doing nothing.
    await h.press('2', 'n');
    await h.waitFor((fr) => fr.includes('Name for the new key:'), 'the prompt');
    await h.type('while-away');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('The daemon is not reachable right now; nothing was changed.'), 'the away note');
    await h.press('1');
    second = await startInProcess({ stateDir: h.d.dir });
    const port = second.daemon.port;
    f = await h.waitFor((fr) => fr.includes(`● daemon 127.0.0.1:${port}`), 'the reconnect');
    expect(f).not.toContain('reconnecting');
    second.deps.log(makeEntry({ modelAsked: 'new/one' }));
    f = await h.waitFor((fr) => fr.includes('new/one'), 'the new live row');
    expect(f).toContain('old/one');
    // Management goes to the new daemon too.
    await h.press('2', 'n');
    await h.waitFor((fr) => fr.includes('Name for the new key:'), 'the prompt');
    await h.type('after-restart');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Key "after-restart" created'), 'the key');
    const keys = (await second.admin('GET', '/admin/keys')).json() as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).toEqual(['after-restart']);
  });
});
