import { describe, expect, it } from 'vitest';
import { wizardRoom, wizardRows, wizardWanted } from '../../src/tui/wizard-rows.js';

const HINT = 'e.g. api-key; authorization means Bearer';

describe('a wizard in the rows it has', () => {
  it('wants its title, the earlier answers, the question, its hint and a refusal', () => {
    expect(wizardWanted(6)).toBe(9);
    expect(wizardRows(9, 80, 5, HINT, 'Type a or b.')).toEqual({ title: true, answers: 5, hint: 1, problem: ['Type a or b.'] });
  });

  it('wraps the hint onto two lines where it needs them, taking an earlier answer\'s row, … only past two', () => {
    expect(wizardRows(9, 30, 5, HINT, undefined)).toEqual({ title: true, answers: 5, hint: 2, problem: [] });
    expect(wizardRows(5, 30, 5, HINT, undefined)).toEqual({ title: true, answers: 1, hint: 2, problem: [] });
    expect(wizardRows(3, 30, 5, HINT, undefined)).toEqual({ title: true, answers: 0, hint: 1, problem: [] });
  });

  it('in fewer rows gives up the earliest answers, then the hint, then the title; the refusal wraps, … past its rows', () => {
    expect(wizardRows(5, 80, 5, HINT, 'Type a or b.')).toEqual({ title: true, answers: 1, hint: 1, problem: ['Type a or b.'] });
    expect(wizardRows(3, 80, 5, HINT, undefined)).toEqual({ title: true, answers: 0, hint: 1, problem: [] });
    expect(wizardRows(3, 20, 5, HINT, 'Give at least one provider/model target.')).toEqual({ title: false, answers: 0, hint: 0, problem: ['Give at least one', 'provider/model targ…'] });
    expect(wizardRows(1, 20, 5, HINT, 'Type a or b.')).toEqual({ title: false, answers: 0, hint: 0, problem: [] });
  });

  it('keeps the list over it while that leaves it five rows, else takes all but the heading', () => {
    expect(wizardRoom(9, 21, 3)).toBe(9);
    expect(wizardRoom(9, 8, 3)).toBe(5);
    expect(wizardRoom(9, 6, 3)).toBe(5);
    expect(wizardRoom(5, 6, 2)).toBe(5);
    expect(wizardRoom(5, 8, 2)).toBe(5);
    expect(wizardRoom(2, 3, 2)).toBe(2);
  });
});
