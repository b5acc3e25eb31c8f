/** A yes/no question; only "y" says yes (Enter, Esc and "n" say no). */
import { Text } from 'ink';
import { useKeys } from '../hooks/use-keys.js';
import { useCaptureKeys } from '../hooks/use-capture.js';
import { useTheme } from '../theme.js';

export interface ConfirmProps {
  question: string;
  onYes(): void;
  onNo(): void;
}

export function Confirm({ question, onYes, onNo }: ConfirmProps) {
  const theme = useTheme();
  useCaptureKeys(true);
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') onYes();
    else if (input === 'n' || input === 'N' || key.escape || key.return) onNo();
  });
  return (
    <Text wrap="wrap">
      <Text color={theme.warn} bold>
        {question}
      </Text>{' '}
      [y/N]
    </Text>
  );
}
