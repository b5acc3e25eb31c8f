import { Box } from 'ink';
import { describe, expect, it } from 'vitest';
import { TextField } from '../../src/tui/components/TextField.js';
import { KeyRouter, KeyRouterProvider } from '../../src/tui/hooks/use-keys.js';
import { textWidth } from '../../src/util/text-width.js';
import { frameOf } from './frame-of.js';

const LABEL = ['Name for the new key:', 'Key name:', 'Name:'];

/** The field alone in a box of `width` columns, as a screen lays it out. */
const field = (width: number, props: { initial?: string; hidden?: boolean; hint?: string; rows?: number; problem?: string }) =>
  frameOf(
    <KeyRouterProvider value={new KeyRouter()}>
      <Box width={width}>
        <TextField label={LABEL} width={width} {...props} onSubmit={() => undefined} onCancel={() => undefined} />
      </Box>
    </KeyRouterProvider>,
  );

describe('TextField', () => {
  it('counts a hidden value in characters as a person sees them, not UTF-16 units', () => {
    const frame = frameOf(
      <KeyRouterProvider value={new KeyRouter()}>
        <TextField label="Key" width={80} hidden initial={'ab👍🏽e\u0301'} onSubmit={() => undefined} onCancel={() => undefined} />
      </KeyRouterProvider>,
    );
    expect(frame).toContain('(hidden, 4 characters)');
    expect(frame).not.toContain('👍');
  });

  it('in a narrow terminal keeps a whole wording of its label and the end of what was typed, at the cursor', () => {
    const typed = 'a-very-long-key-name-typed-here';
    for (const width of [20, 30, 40, 80]) {
      const line = field(width, { initial: typed }).split('\n')[0]!.trimEnd();
      const what = `${width}: ${line}`;
      expect(textWidth(line), what).toBeLessThanOrEqual(width);
      const label = LABEL.find((l) => line.startsWith(`${l} `));
      expect(label, what).toBeDefined();
      // the fullest wording that leaves the value a third of the line
      if (width >= 40) expect(label, what).toBe(LABEL[0]);
      const value = line.slice(label!.length + 1);
      // the end of it, the start left off with …, and room for more than a word's end
      expect(value === typed || (value.startsWith('…') && typed.endsWith(value.slice(1))), what).toBe(true);
      expect(textWidth(value), what).toBeGreaterThanOrEqual(8);
    }
  });

  it('a hidden value says how many characters it has in the words that fit', () => {
    for (const width of [20, 30, 40]) {
      const line = field(width, { hidden: true, initial: 'sk-0123456789abcdef' }).split('\n')[0]!.trimEnd();
      expect(textWidth(line), `${width}: ${line}`).toBeLessThanOrEqual(width);
      expect(line, `${width}`).toMatch(/\((hidden, )?19( characters)?\)$/);
      expect(line, `${width}`).not.toContain('…');
    }
  });

  it('wraps its hint onto the lines it has, up to two, the way out first; … only past them', () => {
    const hint = 'e.g. laptop-claude · Enter creates it';
    for (const width of [20, 30, 40]) {
      const [, ...under] = field(width, { hint, rows: 3 }).split('\n').map((l) => l.trimEnd());
      const what = `${width}: ${under.join(' / ')}`;
      expect(under.length, what).toBeLessThanOrEqual(2);
      expect(under[0]!.startsWith('Esc cancel · '), what).toBe(true);
      for (const line of under) expect(textWidth(line), what).toBeLessThanOrEqual(width);
      const shown = under.join(' ');
      // whole where two lines hold it, else cut at the end of the second
      if (width >= 40) expect(shown, what).toBe(`Esc cancel · ${hint}`);
      else expect(shown.endsWith('…') && `Esc cancel · ${hint}`.startsWith(shown.slice(0, -1)), what).toBe(true);
      expect(shown, what).toContain(width >= 30 ? 'laptop-claude' : 'e.g.');
    }
    // with a row for the hint and no more, one line
    expect(field(30, { hint, rows: 2 }).split('\n')).toHaveLength(2);
  });

  it('a refusal’s reason leaves the hint’s first line, the way out, its row where there are three', () => {
    const problem = 'An active key named "ci" already exists; pick another name or revoke that one first.';
    const [, reason, wayOut, ...more] = field(40, { hint: 'e.g. laptop-claude', problem, rows: 3 }).split('\n').map((l) => l.trimEnd());
    expect(reason!.startsWith('An active key') && reason!.endsWith('…')).toBe(true);
    expect(wayOut).toBe('Esc cancel · e.g. laptop-claude');
    expect(more).toEqual([]);
  });
});
