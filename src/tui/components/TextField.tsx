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
import { graphemes } from '../../util/text-width.js';

export interface TextFieldProps {
  label: string;
  initial?: string;
  hidden?: boolean;
  hint?: string;
  onSubmit(value: string): void;
  onCancel(): void;
  /** Called on every change (the log's live text filter). */
  onChange?(value: string): void;
}

// Bracketed-paste markers and other escape sequences are never part of the value.
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const NOT_TEXT = /\x1b\[[0-9;]*[~A-Za-z]|[\x00-\x1f\x7f]/g;

export function TextField({ label, initial = '', hidden = false, hint, onSubmit, onCancel, onChange }: TextFieldProps) {
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

  return (
    <Box flexDirection="column">
      <Text wrap="truncate-start">
        <Text bold>{label}</Text> {hidden ? <Text color={theme.muted}>{shown.length ? `(hidden, ${graphemes(shown).length} characters)` : '(hidden)'}</Text> : shown}
        <Text inverse> </Text>
      </Text>
      {hint ? (
        <Text color={theme.muted} dimColor wrap="truncate-end">
          {hint}
        </Text>
      ) : null}
    </Box>
  );
}
