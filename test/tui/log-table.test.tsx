import { describe, expect, it } from 'vitest';
import { errorText } from '../../src/tui/hooks/use-resource.js';
import { fitColumns } from '../../src/tui/log/columns.js';
import { LogTable } from '../../src/tui/screens/LogTable.js';
import { makeEntry } from '../log/make-entry.js';
import { textWidth } from '../../src/util/text-width.js';
import { frameOf } from './frame-of.js';

function tableFrame(entries: ReturnType<typeof makeEntry>[], width = 120): string {
  return frameOf(<LogTable entries={entries} columns={fitColumns(width)} selectedId={null} rows={entries.length} empty="none" />);
}

// eslint-disable-next-line no-control-regex -- what must not reach the terminal
const CONTROL = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f]/;
// eslint-disable-next-line no-control-regex -- Ink's own styling (bold header) is fine
const SGR = /\x1b\[[0-9;]*m/g;

describe('LogTable and text from clients and upstreams', () => {
  it('shows escape and control codes in model ids, key names and answered-by as printable text', () => {
    const frame = tableFrame([
      makeEntry({
        keyName: 'k\x1b[2J',
        modelAsked: 'gpt\x1b]0;pwned\x07',
        provider: 'openai',
        model: 'm\x9b31m\r',
      }),
    ]);
    expect(frame.replace(SGR, '')).not.toMatch(CONTROL);
    expect(frame).toContain('gpt\ufffd]0;pwned\ufffd');
  });
});

describe('errorText', () => {
  it('makes an error message from the daemon or an upstream printable (log footer, catalog, flash)', () => {
    expect(errorText(new Error('bad\x1b]52;c;aGk=\x07 answer'))).toBe('bad\ufffd]52;c;aGk=\ufffd answer');
    expect(errorText('plain\r')).toBe('plain\ufffd');
  });
});

describe('LogTable and wide text', () => {
  it('keeps the columns under their headers with CJK, emoji and combining marks in cells', () => {
    const frame = tableFrame([
      makeEntry({ keyName: '日本語のキー', modelAsked: 'openai/模型👍🏽-mini', provider: 'openai', model: 'gpt-5' }),
      makeEntry({ keyName: 'cafe\u0301', modelAsked: 'a/\u0301\u0301\u0301x', provider: '🧑‍💻', model: '中' }),
    ], 80);
    const [header, ...rows] = frame.split('\n');
    // cells where a right-aligned column ends, on screen
    const endOf = (line: string, text: string) => textWidth(line.slice(0, line.indexOf(text) + text.length));
    expect(rows).toHaveLength(2);
    for (const r of rows) {
      expect(endOf(r, '200')).toBe(endOf(header!, 'ST'));
      expect(endOf(r, '10/5')).toBe(endOf(header!, 'TOKENS'));
    }
  });
});
