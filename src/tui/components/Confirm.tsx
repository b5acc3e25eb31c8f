/**
 * A yes/no question; only "y" says yes (Enter, Esc and "n" say no). With `waiting` it is not ready
 * for a yes yet (something it names is still being found out): that shows in place of [y/N] and y
 * does nothing, while no still works.
 */
import { Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { useTheme } from '../theme.js';
import { wrapLines } from '../wrap-lines.js';

export interface ConfirmProps {
  question: string;
  /** Why there is no yes yet, e.g. "checking groups…". */
  waiting?: string;
  onYes(): void;
  onNo(): void;
}

/**
 * The fullest of a question's wordings that, with its [y/N], wraps onto at most `lines` lines at
 * `width`; else the shortest. Cut off by the screen's edge, a narrow terminal lost the [y/N].
 */
export function fittingQuestion(wordings: readonly string[], width: number, lines: number): string {
  return wordings.find((w) => wrapLines(`${w} [y/N]`, width, lines + 1).length <= lines) ?? wordings.at(-1)!;
}

export function Confirm({ question, waiting, onYes, onNo }: ConfirmProps) {
  const theme = useTheme();
  useCaptureKeys(true);
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') {
      if (!waiting) onYes();
    } else if (input === 'n' || input === 'N' || key.escape || key.return) onNo();
  });
  return (
    <Text wrap="wrap">
      <Text color={theme.warn} bold>
        {question}
      </Text>{' '}
      {waiting ? <Text color={theme.muted}>[{waiting}]</Text> : '[y/N]'}
    </Text>
  );
}
