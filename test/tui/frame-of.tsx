/** One component rendered once without colour, for tests of its text: the frame, then unmounted. */
import { render } from 'ink-testing-library';
import type { ReactNode } from 'react';
import { createTheme, ThemeContext } from '../../src/tui/theme.js';

export function frameOf(node: ReactNode): string {
  const ui = render(<ThemeContext.Provider value={createTheme({ NO_COLOR: '1' })}>{node}</ThemeContext.Provider>);
  const frame = ui.lastFrame() ?? '';
  ui.unmount();
  return frame;
}
