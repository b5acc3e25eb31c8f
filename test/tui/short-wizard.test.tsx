/**
 * The add-endpoint wizard in short and narrow terminals (ink-testing-library, a real in-process
 * daemon): the question being asked and why an answer was refused stay on screen, with the way
 * out, at every step.
 */
import { describe, expect, it } from 'vitest';
import { textWidth } from '../../src/util/text-width.js';
import { KEYS, lines, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';
import { tuiOnSharedDaemon } from './shared-daemon.js';

const tui = tuiOnSharedDaemon(async (d) => {
  await d.admin('POST', '/admin/groups', { slug: 'work', models: [] });
});

/** Each step: what to type, the question's label (in one of its wordings), the refusal it gets. */
const STEPS = [
  { answer: '', label: /^Name(?: \(used as provider in model ids\))?:/, problem: 'A name is needed.' },
  { answer: 'corp', label: /^Name/, problem: undefined },
  { answer: '', label: /^Base URL:/, problem: 'A URL is needed.' },
  { answer: 'http://127.0.0.1:9/v1', label: /^Base URL:/, problem: undefined },
  { answer: 'x', label: /^Format/, problem: 'Type a or b.' },
  { answer: 'a', label: /^Format/, problem: undefined },
  { answer: '', label: /^(Header that carries|Key header)/, problem: undefined },
  { answer: 'oops', label: /^(Fixed headers|Headers:)/, problem: '"oops" must be name=value.' },
] as const;

async function answer(h: TuiHarness, text: string) {
  if (text) await h.type(text);
  await h.press(KEYS.enter);
}

function expectInView(frame: string, columns: number, rows: number, label: RegExp, problem: string | undefined, what: string) {
  const all = lines(frame);
  expect(all, what).toHaveLength(rows - 1);
  for (const l of all) expect(textWidth(l), `${what}: ${l}`).toBeLessThanOrEqual(columns);
  expect(all.some((l) => label.test(l)), `${what}: the question\n${frame}`).toBe(true);
  // the refusal whole, however it wraps
  if (problem) expect(all.join(' ').replace(/\s+/g, ' '), `${what}: the refusal\n${frame}`).toContain(problem);
  expect(frame, `${what}: the way out\n${frame}`).toContain('Esc cancel');
}

describe('the add-endpoint wizard in a short terminal', () => {
  for (const [columns, rows] of [[20, 10], [30, 10], [40, 10], [30, 12], [40, 15], [80, 12], [80, 15]] as const) {
    it(`at ${columns}x${rows} keeps the question, its refusal and Esc in view at every step`, async () => {
      const h = await tui.open(columns, rows);
      await h.press('4');
      await h.waitFor((f) => showsScreen(f, '4') && f.includes('anthropic'), 'the providers');
      await h.press('e');
      await h.waitFor((f) => lines(f).some((l) => STEPS[0].label.test(l)), 'the wizard');
      for (const [i, step] of STEPS.entries()) {
        await answer(h, step.answer);
        const next = step.problem ? step : STEPS[i + 1];
        if (!next) break;
        const what = `${columns}x${rows} after answering "${step.answer}"`;
        const frame = await h.waitFor((f) => lines(f).some((l) => next.label.test(l)) && (!step.problem || f.replace(/\s+/g, ' ').includes(step.problem.slice(0, 6))), what).catch((err: Error) => {
          throw new Error(`${what}: ${err.message}`);
        });
        expectInView(frame, columns, rows, next.label, step.problem, what);
        if (step.problem) await h.press(KEYS.backspace, KEYS.backspace, KEYS.backspace, KEYS.backspace);
      }
      await h.press(KEYS.escape);
      await h.waitFor((f) => !f.includes('Esc cancel'), 'the wizard gone');
    });
  }
});

describe("the Groups screen's add-name wizard in a short terminal", () => {
  it('at 20x10 keeps the question, its refusal and Esc in view', async () => {
    const h = await tui.open(20, 10);
    await h.press('3');
    await h.waitFor((f) => showsScreen(f, '3') && f.includes('▸ work'), 'the group');
    await h.press('n');
    await h.waitFor((f) => f.includes('Esc cancel'), 'the wizard');
    await answer(h, '');
    const frame = await h.waitFor((f) => f.includes('A model'), 'the refusal');
    expectInView(frame, 20, 10, /^(Model name|Name):/, 'A model name cannot be empty.', '20x10');
    await answer(h, 'fast');
    await answer(h, '');
    expectInView(await h.waitFor((f) => f.includes('Give at'), 'the refusal'), 20, 10, /^Targets:/, 'Give at least one provider/model target.', '20x10');
    await h.press(KEYS.escape);
  });
});

describe('the answers given, over the question', () => {
  // each answer on its line: the fullest label that fits beside it whole
  const ANSWERS: Record<number, readonly string[]> = {
    50: ['Name (used as provider in model ids): corp', 'Base URL: http://127.0.0.1:9/v1', 'Format, a (OpenAI) or b (Anthropic): a', 'Key header (empty: its own): (none)', 'Fixed headers, name=value; … (empty: none): (none)'],
    40: ['Name: corp', 'Base URL: http://127.0.0.1:9/v1', 'Format, a (OpenAI) or b (Anthropic): a', 'Key header (empty: its own): (none)', 'Fixed headers (empty: none): (none)'],
  };
  for (const columns of [50, 40] as const) {
    it(`at ${columns} columns use the full label where it fits beside the answer, a shorter one where not`, async () => {
      const h = await tui.open(columns, 24);
      await h.press('4');
      await h.waitFor((f) => showsScreen(f, '4') && f.includes('anthropic'), 'the providers');
      await h.press('e');
      await h.waitFor((f) => lines(f).some((l) => STEPS[0].label.test(l)), 'the wizard');
      for (const text of ['corp', 'http://127.0.0.1:9/v1', 'a', '', '']) await answer(h, text);
      const frame = await h.waitFor((f) => lines(f).some((l) => l.startsWith('API key')), 'the last question');
      const all = lines(frame).map((l) => l.trimEnd());
      const from = all.findIndex((l) => l.startsWith('Name'));
      expect(all.slice(from, from + 5), frame).toEqual(ANSWERS[columns]);
      for (const l of all) expect(textWidth(l), l).toBeLessThanOrEqual(columns);
      await h.press(KEYS.escape);
    });
  }
});
