/**
 * Colours of the TUI, or none at all: NO_COLOR (https://no-color.org) turns every colour off while
 * bold, dim and inverse stay (they are not colours). Ink's chalk does not read NO_COLOR itself, so
 * components take their colours from here and never name one directly.
 */
import { createContext, useContext } from 'react';

export interface Theme {
  colour: boolean;
  ok: string | undefined;
  warn: string | undefined;
  error: string | undefined;
  accent: string | undefined;
  muted: string | undefined;
}

export function createTheme(env: Record<string, string | undefined>): Theme {
  // Any non-empty NO_COLOR value disables colour, as the convention says.
  const colour = !env.NO_COLOR;
  return colour
    ? { colour, ok: 'green', warn: 'yellow', error: 'red', accent: 'cyan', muted: 'gray' }
    : { colour, ok: undefined, warn: undefined, error: undefined, accent: undefined, muted: undefined };
}

/** Colour of an HTTP status: 2xx/3xx ok, 4xx warn, 5xx or no answer (0) error. */
export function statusColour(theme: Theme, status: number): string | undefined {
  if (status === 0 || status >= 500) return theme.error;
  if (status >= 400) return theme.warn;
  return theme.ok;
}

export const ThemeContext = createContext<Theme>(createTheme({}));

export function useTheme(): Theme {
  return useContext(ThemeContext);
}
