/**
 * A request selected far down the log, then the terminal made shorter: the selected row stays in
 * view (the one Enter opens), rather than the window keeping its place and the row going off screen.
 */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { App } from '../../src/tui/App.js';
import { createTheme } from '../../src/tui/theme.js';
import { removeTempDirs } from '../daemon/harness.js';
import { makeEntry } from '../log/make-entry.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

describe('the log selection when the terminal gets shorter', () => {
  it('keeps the selected row on screen', async () => {
    h = await startTui({ size: { columns: 60, rows: 30 } });
    for (let i = 0; i < 30; i++) h.log(makeEntry({ modelAsked: `a/row${i}x` }));
    await h.waitFor((f) => f.includes('LIVE 30'), 'the requests');
    // newest first: twenty rows down is a/row10x, near the bottom of the table
    for (let i = 0; i < 20; i++) await h.press(KEYS.down);
    expect(h.frame()).toContain('a/row10x');

    h.ui.rerender(<App link={h.link} theme={createTheme({})} env={{}} size={{ columns: 60, rows: 12 }} feed={{ flushMs: 50 }} statsPollMs={300} />);
    const short = await h.waitFor((f) => lines(f).length === 11, 'the shorter frame');
    expect(short).toContain('a/row10x');
    await h.press(KEYS.enter);
    expect(await h.waitFor((f) => f.includes('model asked'), 'the detail')).toContain('a/row10x');
  });
});
