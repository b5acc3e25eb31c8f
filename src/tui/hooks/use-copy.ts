/**
 * Copying a text to the clipboard through the terminal Ink draws on (clipboard/), with the
 * environment that says whether that terminal is inside tmux or GNU screen (App's `env`).
 */
import { useStdout } from 'ink';
import { createContext, useContext } from 'react';
import { copyToClipboard, type Copied } from '../clipboard/copy-to-clipboard.js';

export const TerminalEnvContext = createContext<Record<string, string | undefined>>({});

export function useCopy(): (text: string) => Promise<Copied> {
  const env = useContext(TerminalEnvContext);
  const { stdout } = useStdout();
  // written as it is, not through Ink's write (which redraws the frame around it): it draws nothing
  return (text) => copyToClipboard(text, stdout, env);
}
