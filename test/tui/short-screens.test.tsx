/**
 * The Keys, Groups, Providers and Stats screens in short and narrow terminals (ink-testing-library,
 * a real in-process daemon): what goes below a table gives way before the table's header and rows;
 * a heading says what it can whole.
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { makeEntry } from '../log/make-entry.js';
import { lines } from './harness.js';
import { showsScreen } from './screen-shown.js';
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

describe('screen headings in a narrow terminal', () => {
  const HEADINGS: Record<string, { at80: string; at20: string; loaded: string }> = {
    '2': { at80: 'Service keys 1 active, 0 revoked · n new · d revoke', at20: 'Service keys 1', loaded: 'laptop' },
    '3': { at80: 'Model groups 1 · a add group · n add name · e edit · [ ] reorder · d remove', at20: 'Model groups 1', loaded: 'work' },
    // at 80 it used to end "· e add endp…"
    '4': { at80: 'Providers c connect · d disconnect/remove · u base URL · h headers', at20: 'Providers c connect', loaded: 'anthropic' },
    '5': { at80: 'Usage last 24 hours, by provider · b by provider/model/key · t window', at20: 'Usage 24h provider', loaded: 'openai' },
  };
  it('say what the screen shows in the fullest wording that fits, then only whole key hints', async () => {
    for (const columns of [80, 60, 40, 30, 20]) {
      const h = await tui.open(columns, 24);
      for (const [key, want] of Object.entries(HEADINGS)) {
        await h.press(key);
        const frame = await h.waitFor((f) => showsScreen(f, key) && lines(f).slice(3).some((l) => l.includes(want.loaded)), `screen ${key} at ${columns}`);
        const heading = lines(frame)[2]!.trimEnd();
        const what = `screen ${key} at ${columns}: ${heading}`;
        expect(heading, what).not.toContain('…');
        expect(textWidth(heading), what).toBeLessThanOrEqual(columns);
        if (columns === 80) expect(heading, what).toBe(want.at80);
        if (columns === 20) expect(heading, what).toBe(want.at20);
        // past the title and what it shows, each part is a whole hint that the full heading has
        const hints = want.at80.split(' · ').slice(1);
        for (const part of heading.split(' · ').slice(1)) expect(hints, what).toContain(part);
      }
    }
  });
});

describe('the bottom line of a narrow terminal', () => {
  it("stays the global keys while a screen's question wraps past its rows", async () => {
    const h = await tui.open(20, 10);
    await h.press('2');
    await h.waitFor((f) => showsScreen(f, '2') && f.includes('laptop'), 'the key');
    await h.press('d');
    const frame = await h.waitFor((f) => f.includes('Revoke key'), 'the question');
    const all = lines(frame);
    expect(all).toHaveLength(9);
    expect(all.at(-1)!.trimEnd()).toBe('? help · q quit');
    for (const l of all) expect(textWidth(l), l).toBeLessThanOrEqual(20);
    await h.press('n');
    await h.waitFor((f) => !f.includes('Revoke key'), 'no revoke');
  });

  it('a yes/no question takes its short wording, so its [y/N] stays in view', async () => {
    const h = await tui.open(20, 10);
    await h.press('2');
    await h.waitFor((f) => showsScreen(f, '2') && f.includes('laptop'), 'the key');
    await h.press('d');
    let frame = await h.waitFor((f) => f.includes('Revoke key'), 'the question');
    expect(frame.replace(/\s+/g, ' ')).toContain('Revoke key "laptop"? [y/N]');
    await h.press('n');
    await h.press('3');
    await h.waitFor((f) => showsScreen(f, '3') && f.includes('▸ work'), 'the group');
    await h.press('d');
    frame = await h.waitFor((f) => f.includes('Remove group'), 'the question');
    expect(frame.replace(/\s+/g, ' ')).toContain('Remove group "work"? [y/N]');
    await h.press('n');
    await h.waitFor((f) => !f.includes('Remove group'), 'no removal');
  });
});

describe('a message under a list in the shortest terminals', () => {
  // at 7 rows the heading, a table and a two-line message were a row more than the screen: the
  // table's header and row were drawn on one line, one over the other, and the message was cut
  for (const [columns, rows] of [[20, 7], [40, 7], [80, 7], [80, 8]] as const) {
    it(`at ${columns}x${rows} leaves a table's header and row whole and shows the message's start`, async () => {
      const what = `${columns}x${rows}`;
      const h = await tui.open(columns, rows);
      const within = (frame: string) => {
        expect(lines(frame), `${what}:\n${frame}`).toHaveLength(rows - 1);
        for (const l of lines(frame)) expect(textWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(columns);
      };
      const lineAfter = (frame: string, first: RegExp) => lines(frame)[lines(frame).findIndex((l) => first.test(l)) + 1] ?? '';

      await h.press('4');
      await h.waitFor((f) => showsScreen(f, '4') && f.includes('anthropic'), 'the providers');
      await h.press('d');
      let f = await h.waitFor((fr) => fr.includes('anthropic is not'), `the note at ${what}`);
      within(f);
      expect(lineAfter(f, /^NAME /), `${what}:\n${f}`).toMatch(/^anthropic +(built-in +)?no/);
      expect(lineAfter(f, /^anthropic /), `${what}:\n${f}`).toMatch(/^anthropic is not/);
      if (columns >= 40) expect(f.replace(/\s+/g, ' '), what).toContain('anthropic is not connected: no key is stored for it, so nothing was removed.');

      await h.press('3');
      await h.waitFor((fr) => showsScreen(fr, '3') && fr.includes('▸ work'), 'the group');
      await h.press('e');
      f = await h.waitFor((fr) => fr.includes('Select a model'), `the note at ${what}`);
      within(f);
      // the group's row whole, the message's first line under it (the base URLs between them where there is room)
      expect(lines(f).some((l) => l.startsWith('▸ work (1 name)')), `${what}:\n${f}`).toBe(true);
      expect(lines(f).some((l) => l.startsWith('Select a model name')), `${what}:\n${f}`).toBe(true);
    });
  }
});

describe("a group's base URLs in a short terminal", () => {
  // at 80x8 one row was left for them, and Ink's squeeze showed B alone, without its heading or A
  for (const [columns, rows, shown] of [[80, 8, 0], [80, 9, 2], [80, 10, 3]] as const) {
    it(`at ${columns}x${rows} show ${shown ? `their last ${shown} lines` : 'none, the list keeping the row'}`, async () => {
      const h = await tui.open(columns, rows);
      await h.press('3');
      const f = await h.waitFor((fr) => showsScreen(fr, '3') && fr.includes('▸ work'), 'the group');
      const all = lines(f);
      const urls = all.filter((l) => /^(Base URLs of work| {2}A \(OpenAI\)| {2}B \(Anthropic\))/.test(l));
      expect(urls.map((l) => l.slice(0, 12)), `${columns}x${rows}:\n${f}`).toEqual(['Base URLs of', '  A (OpenAI)', '  B (Anthrop'].slice(3 - shown));
      if (shown === 0) expect(all.some((l) => l.startsWith('    fast →')), f).toBe(true);
    });
  }
});
