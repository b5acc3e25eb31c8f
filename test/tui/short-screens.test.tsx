/**
 * The Keys, Groups, Providers and Stats screens in a terminal 10 rows tall (ink-testing-library,
 * a real in-process daemon): what goes below a table gives way before the table's header and rows.
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';
import { lines } from './harness.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

const tui = tuiOnSharedDaemon(async (d) => {
  await d.admin('POST', '/admin/keys', { name: 'laptop' });
  await d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'fast', targets: ['openai/gpt-5'] }] });
  d.deps.log(makeEntry({ provider: 'openai', status: 200 }));
});

// each screen: its title, then what must stay under it (a table's header and first row, a list's first row)
const SCREENS = [
  { key: '2', title: 'Service keys', below: [/^NAME/, /^laptop/] },
  { key: '3', title: 'Model groups', below: [/^▸ work/] },
  { key: '4', title: 'Providers', below: [/^NAME/, /^anthropic/] },
  { key: '5', title: 'Usage', below: [/^PROVIDER/, /^openai/] },
];

describe('screens in a short terminal', () => {
  for (const [columns, rows] of [[20, 10], [30, 10], [80, 10]] as const) {
    it(`at ${columns}x${rows} each keeps its title, a table's header and first row`, async () => {
      const h = await tui.open(columns, rows);
      for (const s of SCREENS) {
        await h.press(s.key);
        const what = `${s.title} at ${columns}x${rows}`;
        const frame = await h.waitFor((f) => lines(f)[2]!.startsWith(s.title) && s.below.every((re) => lines(f).some((l) => re.test(l))), what).catch((err: Error) => {
          throw new Error(`${what}: ${err.message}`);
        });
        const all = lines(frame);
        expect(all, what).toHaveLength(rows - 1);
        for (const l of all) expect(textWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(columns);
        // in order, right under the title
        s.below.forEach((re, i) => expect(all[3 + i], what).toMatch(re));
      }
    });
  }
});
