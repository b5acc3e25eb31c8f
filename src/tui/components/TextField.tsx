/**
 * A one-line text input with a cursor, edited as a shell line is: Left/Right, Home/End (Ctrl-A,
 * Ctrl-E) move it; Backspace erases before it, Delete (Ctrl-D) at it, Ctrl-W the word before it,
 * Ctrl-U all; typed or pasted text goes in at it (text-edit.ts). Enter submits, Esc cancels.
 * `hidden` echoes nothing but a count, for credentials: the value lives only in this component
 * until it is handed to the daemon; its cursor stays at the end, as one cannot see where else it is.
 */
import { Box, Text, type Key } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useRef, useState } from 'react';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { useTheme } from '../theme.js';
import { graphemes, textWidth } from '../../util/text-width.js';
import { fullestFitting } from '../fit-wording.js';
import { fieldLine, HINT_LINES } from '../field-line.js';
import { fieldView } from '../field-view.js';
import { atEnd, end, eraseAt, eraseBefore, eraseWordBefore, home, insert, left, right, type Edit } from '../text-edit.js';
import { wrapLines } from '../wrap-lines.js';

/** How to leave a field without an answer. */
export const WAY_OUT = 'Esc cancel';

export interface TextFieldProps {
  /** Fullest wording first: a narrow terminal shows the fullest that leaves the value room. */
  label: string | readonly string[];
  width: number;
  initial?: string;
  hidden?: boolean;
  hint?: string;
  /** Why what was typed was refused: under the field in the error colour, before the hint (it is what to fix). */
  problem?: string;
  /** Whether its hint line starts with the way out (a wizard says it once, on its title). */
  wayOut?: boolean;
  /** Rows it has, the field's own first: its hint wraps onto the rest, up to HINT_LINES, … past them. */
  rows?: number;
  onSubmit(value: string): void;
  onCancel(): void;
  /** Called on every change (the log's live text filter). */
  onChange?(value: string): void;
}

// Control characters (a pasted Tab) are never part of the value; escape sequences reach no field:
// Ink names them or flags them meta, and the key root drops bracketed-paste marks (use-keys.ts).
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_TEXT = /[\x00-\x1f\x7f]/g;

/** What a hidden value shows: how many characters it has, in fewer words where there is less room. */
function hiddenText(value: string, width: number): string {
  const n = graphemes(value).length;
  return n === 0 ? '(hidden)' : fullestFitting([`(hidden, ${n} characters)`, `(hidden, ${n})`, `(${n})`], width);
}

/** What a key does to the value and its cursor; undefined for a key that is not editing. */
function editFor(e: Edit, input: string, key: Key, hidden: boolean): Edit | undefined {
  // Ink marks a Backspace with Alt `meta`, as it does any key after Esc
  if (key.backspace) return key.meta ? eraseWordBefore(e) : eraseBefore(e);
  if (key.delete || (key.ctrl && input === 'd')) return eraseAt(e);
  if (key.ctrl && input === 'u') return atEnd('');
  if (key.ctrl && input === 'w') return eraseWordBefore(e);
  const move = key.leftArrow ? left : key.rightArrow ? right : key.home || (key.ctrl && input === 'a') ? home : key.end || (key.ctrl && input === 'e') ? end : undefined;
  if (move) return hidden ? undefined : move(e);
  if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.pageUp || key.pageDown) return undefined;
  const text = input.replace(NOT_TEXT, '');
  return text ? insert(e, text) : undefined;
}

export function TextField({ label, width, initial = '', hidden = false, hint, problem, wayOut = true, rows = 2, onSubmit, onCancel, onChange }: TextFieldProps) {
  const theme = useTheme();
  // the label in the words that fit; the value scrolls in the rest, its cursor a cell of its own
  const shownLabel = fieldLine(label, '', width).label;
  const room = width - textWidth(shownLabel) - 1;
  // The ref sees keys that arrive before React re-renders (a paste followed by Enter); `start`:
  // the first grapheme in view, kept from key to key so the view moves only as the cursor needs.
  const edit = useRef({ ...atEnd(initial), start: Infinity });
  const [shown, setShown] = useState(edit.current);
  useCaptureKeys(true);

  useKeys((input, key) => {
    if (key.return) return onSubmit(edit.current.value);
    if (key.escape) return onCancel();
    const next = editFor(edit.current, input, key, hidden);
    if (!next) return;
    const changed = next.value !== edit.current.value;
    edit.current = { ...next, start: fieldView(next.value, next.cursor, room, edit.current.start).start };
    setShown(edit.current);
    if (changed) onChange?.(next.value);
  });

  const view = fieldView(shown.value, shown.cursor, room, shown.start);
  // the hint's first line (the way out) keeps its row under a reason, where there are three
  const problemLines = problem && rows > 1 ? wrapLines(problem, width, rows - 1 - (hint && rows > 2 ? 1 : 0)) : [];
  const hintRows = Math.min(HINT_LINES, rows - 1 - problemLines.length);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{shownLabel}</Text>{' '}
        {hidden ? (
          <>
            <Text color={theme.muted}>{hiddenText(shown.value, room - 1)}</Text>
            <Text inverse> </Text>
          </>
        ) : (
          <>
            {view.before}
            <Text inverse>{view.at}</Text>
            {view.after}
          </>
        )}
      </Text>
      {problemLines.map((text, i) => (
        <Text key={`p${i}`} color={theme.error} wrap="truncate-end">
          {text}
        </Text>
      ))}
      {hint && hintRows > 0
        ? // the way out first, so a narrow terminal cutting the hint keeps it
          wrapLines(`${wayOut ? `${WAY_OUT} · ` : ''}${hint}`, width, hintRows).map((text, i) => (
            <Text key={i} color={theme.muted} dimColor wrap="truncate-end">
              {text}
            </Text>
          ))
        : null}
    </Box>
  );
}
