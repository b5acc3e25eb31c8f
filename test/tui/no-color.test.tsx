/** NO_COLOR turns every colour off (bold and inverse stay); without it, statuses are coloured. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';

// Ink's chalk decides its colour level when it loads; tests do not run in a terminal.
vi.hoisted(() => {
  process.env.FORCE_COLOR = '1';
});

import { removeTempDirs } from '../daemon/harness.js';
import { makeEntry } from '../log/make-entry.js';
import { startTui, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';
import { colourSequences } from './sgr.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);


describe('colour', () => {
  it('colours the status of a request by class', async () => {
    h = await startTui();
    h.log(makeEntry({ status: 503, modelAsked: 'x/broken' }), makeEntry({ status: 200, modelAsked: 'x/fine' }));
    const f = await h.waitFor((fr) => fr.includes('x/broken') && fr.includes('x/fine'), 'rows');
    // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
    expect(f).toMatch(/\x1b\[31m(\x1b\[1m)?503/); // red (and bold) 5xx
    // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
    expect(f).toMatch(/\x1b\[32m200/); // green 2xx
  });

  it('colours a stream cut part-way red: logged 200 with the error that ended it', async () => {
    h = await startTui();
    h.log(makeEntry({ status: 200, streamed: true, errorCode: 'key_revoked', modelAsked: 'x/cut' }));
    const f = await h.waitFor((fr) => fr.includes('x/cut'), 'the row');
    // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
    expect(f).toMatch(/\x1b\[31m200/);
    // and in its detail, the request's status and the attempt the stream was cut on
    h.log(makeEntry({ status: 200, streamed: true, errorCode: 'key_revoked', modelAsked: 'x/cut', attempts: [{ target: 'openai/gpt-5', status: 200, latencyMs: 5, errorCode: 'key_revoked' }] }));
    await h.waitFor((fr) => fr.split('x/cut').length === 3, 'both rows');
    await h.press('\r');
    const detail = await h.waitFor((fr) => fr.includes('openai/gpt-5  200'), 'the detail');
    const statusLine = detail.split('\n').find((l) => /status\s/.test(l)) ?? '';
    // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
    expect(statusLine).toMatch(/\x1b\[31m200/);
    // eslint-disable-next-line no-control-regex -- matching escape sequences is the point
    expect(detail).toMatch(/\x1b\[31m\s*1\. openai\/gpt-5 {2}200/);
  });

  it('NO_COLOR: no colour anywhere, on any screen', async () => {
    h = await startTui({ env: { NO_COLOR: '1' } });
    h.log(makeEntry({ status: 503, modelAsked: 'x/broken' }), makeEntry({ status: 429, modelAsked: 'x/limited' }));
    await h.waitFor((fr) => fr.includes('x/broken') && fr.includes('x/limited'), 'rows');
    // each screen rendered before the next key, so every one is among the frames checked below
    for (const key of ['2', '3', '4', '5']) {
      await h.press(key);
      await h.waitFor((fr) => showsScreen(fr, key), `screen ${key}`);
    }
    await h.press('?');
    await h.waitFor((fr) => fr.includes('Stats screen'), 'the help');
    await h.press('x', '1');
    await h.waitFor((fr) => fr.includes('x/broken'), 'the log again');
    expect(h.ui.frames.length).toBeGreaterThan(5);
    for (const frame of h.ui.frames) expect(colourSequences(frame)).toEqual([]);
    // Emphasis that is not colour stays: the current tab is inverse.
    expect(h.frame()).toContain('\x1b[7m');
  });
});
