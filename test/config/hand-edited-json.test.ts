/**
 * config.json as editors leave it: a UTF-8 byte-order mark (Windows editors) and CRLF line ends
 * are read; what is not JSON — a comment or a comma after the last item, as VS Code allows in its
 * JSON-with-comments settings files, or a file cut short — is refused with its line and column and
 * the slip named (the message goes to daemon.log, `status` and `doctor` as it is).
 */
import { describe, expect, it } from 'vitest';
import { ConfigFileError } from '../../src/config/errors.js';
import { parseConfigText } from '../../src/config/parse.js';

const FILE = '/home/me/.config/svc-proxy/config.json';

function refusal(text: string): string {
  try {
    parseConfigText(text, FILE);
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigFileError);
    return (err as Error).message;
  }
  throw new Error('parsed');
}

describe('a hand-edited config.json', () => {
  it('with a byte-order mark, or CRLF line ends, is read', () => {
    expect(parseConfigText('\uFEFF{"version": 2, "settings": {"logBodies": true}}', FILE).config.settings.logBodies).toBe(true);
    expect(parseConfigText('{\r\n  "version": 2,\r\n  "settings": {\r\n    "logBodies": true\r\n  }\r\n}\r\n', FILE).config.settings.logBodies).toBe(true);
  });

  it('with a comma after the last item is refused at its line and column, saying so', () => {
    const message = refusal('{\r\n  "version": 2,\r\n  "settings": {\r\n    "logBodies": true,\r\n  }\r\n}\r\n');
    expect(message).toMatch(new RegExp(`^${FILE} is not valid JSON at line 5, column 3: .+\\. A comma after the last item is not allowed\\. Fix it by hand`));
  });

  it('with a comment, as VS Code writes JSON with comments, is refused at the comment, saying comments are not allowed', () => {
    const message = refusal('{\n  "version": 2,\n  /* quiet */ "settings": {}\n}\n');
    expect(message).toContain('is not valid JSON at line 3, column 3: ');
    expect(message).toContain('Comments are not allowed: it is plain JSON, not JSON with comments.');
    expect(refusal('{\n  // mine\n  "version": 2\n}')).toContain('at line 2, column 3: ');
  });

  it('cut short is refused where it ends; a value of the wrong type names the setting and what it takes', () => {
    expect(refusal('{\n  "version": 2,\n  "settings": {')).toContain('is not valid JSON at line 3, column 16: ');
    expect(refusal('{"version": 2, "settings": {"logBodies": "yes"}}')).toContain('settings.logBodies: Invalid input: expected boolean, received string');
  });
});
