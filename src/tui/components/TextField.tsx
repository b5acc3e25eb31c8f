/**
 * A one-line text input. Enter submits, Esc cancels, Backspace deletes the last character as a
 * person sees it (an emoji, a letter with its accent: never half a surrogate pair), Ctrl-U
 * clears. `hidden` echoes nothing but a count, for credentials: the value lives only in this
 * component until it is handed to the daemon.
 */
import { Box, Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useRef, useState } from 'react';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { useTheme } from '../theme.js';
import { graphemes, textWidth } from '../../util/text-width.js';
import { fullestFitting } from '../fit-wording.js';
import { fieldLine, HINT_LINES } from '../field-line.js';
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

// Bracketed-paste markers and other escape sequences are never part of the value.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_TEXT = /\x1b\[[0-9;]*[~A-Za-z]|[\x00-\x1f\x7f]/g;

/** What a hidden value shows: how many characters it has, in fewer words where there is less room. */
function hiddenText(value: string, width: number): string {
  const n = graphemes(value).length;
  return n === 0 ? '(hidden)' : fullestFitting([`(hidden, ${n} characters)`, `(hidden, ${n})`, `(${n})`], width);
}

export function TextField({ label, width, initial = '', hidden = false, hint, problem, wayOut = true, rows = 2, onSubmit, onCancel, onChange }: TextFieldProps) {
  const theme = useTheme();
  // The ref sees keys that arrive before React re-renders (a paste followed by Enter).
  const value = useRef(initial);
  const [shown, setShown] = useState(initial);
  useCaptureKeys(true);

  const set = (v: string) => {
    value.current = v;
    setShown(v);
    onChange?.(v);
  };

  useKeys((input, key) => {
    if (key.return) return onSubmit(value.current);
    if (key.escape) return onCancel();
    if (key.backspace || key.delete) return set(graphemes(value.current).slice(0, -1).join(''));
    if (key.ctrl && input === 'u') return set('');
    if (key.ctrl || key.meta || key.tab || key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageUp || key.pageDown) return;
    const text = input.replace(NOT_TEXT, '');
    if (text) set(value.current + text);
  });

  // the label in the words that fit, then the hidden count or the value's end that fits
  const line = fieldLine(label, hidden ? '' : shown, width);
  const room = width - textWidth(line.label) - 2;
  const problemLines = problem && rows > 1 ? wrapLines(problem, width, rows - 1) : [];
  const hintRows = Math.min(HINT_LINES, rows - 1 - problemLines.length);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate-end">
        <Text bold>{line.label}</Text> {hidden ? <Text color={theme.muted}>{hiddenText(shown, room)}</Text> : line.value}
        <Text inverse> </Text>
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
