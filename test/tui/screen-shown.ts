/**
 * Whether a frame shows a screen: the line each screen starts with, under the tab bar and status
 * line. The tab bar cannot tell: at most widths it lists every key (and every title), so a wait on
 * it is over before a switch renders, and a test then reads the screen it came from.
 */
import { stripVTControlCharacters } from 'node:util';

// what each screen's key opens with: the Log its table header, the others their heading
export const SCREEN_TOPS: Readonly<Record<string, string>> = {
  '1': 'TIME',
  '2': 'Service keys',
  '3': 'Model groups',
  '4': 'Providers',
  '5': 'Usage',
};

/**
 * Whether `frame` shows the screen of `key`, its first line at `line` (2: under the tab bar and
 * status line). Styles do not count: a heading is bold even without colour.
 */
export function showsScreen(frame: string, key: string, line = 2): boolean {
  const top = SCREEN_TOPS[key];
  if (top === undefined) throw new Error(`no screen has the key ${key}`);
  return stripVTControlCharacters(frame).split('\n')[line]?.startsWith(top) ?? false;
}
