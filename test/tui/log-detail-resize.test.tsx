/**
 * The detail of a request scrolled to its end, then the terminal grows taller: the view shows the
 * detail from its first line again, not from where the shorter terminal had it scrolled with blank
 * rows under its end.
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

describe('a request detail when the terminal is resized', () => {
  it('scrolled to its end in a short terminal, shows its first line once the terminal has room for all of it', async () => {
    h = await startTui({ size: { columns: 40, rows: 12 } });
    h.log(makeEntry({ id: 'req_resize_detail', modelAsked: 'openai/gpt-5' }));
    await h.waitFor((f) => f.includes('openai/gpt-5'), 'the request');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('Request req_resize_detail'), 'the detail');
    await h.press(KEYS.end);
    const scrolled = await h.waitFor((f) => !f.includes('Request req_resize_detail') && f.includes('Attempts'), 'the detail at its end');
    expect(scrolled).not.toContain('model asked');

    h.ui.rerender(<App link={h.link} theme={createTheme({})} env={{}} size={{ columns: 80, rows: 40 }} feed={{ flushMs: 50 }} statsPollMs={300} />);
    const grown = await h.waitFor((f) => lines(f).length === 39, 'the taller frame');
    expect(grown).toContain('Request req_resize_detail');
    expect(grown).toContain('model asked');
    expect(grown).toContain('Attempts (1)');
  });
});
