/**
 * The Log and Keys tables in narrow terminals (ink-testing-library, a real in-process daemon): the
 * columns that matter most show, each at its own place, whole or cut with ….
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';
import { lines } from './harness.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

const tui = tuiOnSharedDaemon(async (d) => {
  await d.admin('POST', '/admin/keys', { name: 'laptop' });
  d.deps.log(makeEntry({ keyName: 'laptop', modelAsked: 'anthropic/claude-sonnet-4-5', status: 429, errorCode: 'rate_limited' }));
});

const fits = (frame: string, columns: number) => {
  for (const l of lines(frame)) expect(textWidth(l), `${columns}: ${l}`).toBeLessThanOrEqual(columns);
};

describe('tables in a narrow terminal', () => {
  it('the Log shows time, model and status at 20 to 40 columns', async () => {
    for (const columns of [20, 30, 40]) {
      const h = await tui.open(columns, 12);
      const frame = await h.waitFor((f) => f.includes('LIVE 1'), `the row at ${columns}`);
      fits(frame, columns);
      const all = lines(frame);
      const header = all.find((l) => l.startsWith('TIME'))!;
      expect(header, `${columns}`).toMatch(/^TIME +MODEL +ST\b/);
      const row = all[all.indexOf(header) + 1]!.trimEnd();
      const what = `${columns}: ${row}`;
      expect(row, what).toMatch(/^\d\d:\d\d:\d\d /);
      expect(row, what).toMatch(/ 429(\s|$)/);
      const model = row.slice(9).split(/\s+/)[0]!;
      expect(model.endsWith('…') ? 'anthropic/claude-sonnet-4-5'.startsWith(model.slice(0, -1)) : model === 'anthropic/claude-sonnet-4-5', what).toBe(true);
    }
  });

  it('Keys shows name, prefix and state at 20 to 40 columns', async () => {
    for (const columns of [20, 30, 40]) {
      const h = await tui.open(columns, 12);
      await h.press('2');
      const frame = await h.waitFor((f) => lines(f).some((l) => l.startsWith('lapt')), `the key at ${columns}`);
      fits(frame, columns);
      const all = lines(frame);
      const header = all.find((l) => l.startsWith('NAME'))!;
      expect(header, `${columns}`).toMatch(/^NAME +PRE.* +STATE$/);
      const row = all[all.indexOf(header) + 1]!.trimEnd();
      expect(row, `${columns}: ${row}`).toMatch(/^laptop +sk-\S* +active$/);
    }
  });
});
