/**
 * The built JavaScript carries no comments (tsconfig.json `removeComments`): V8 keeps the source
 * text of every module the daemon loads in its heap, two bytes a character once one character is
 * beyond Latin-1 (the comments' dashes and arrows were), about 2 MB for the daemon's modules with
 * the comments, 1 MB without. The comments live in src/; source maps point there.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../daemon/harness.js';

const DIST = join(ROOT, 'dist');
const COMMENT_LINE = /^\s*(\/\*|\/\/(?!# sourceMappingURL=))/;

describe('built JavaScript', () => {
  it('has no comment lines (the daemon would hold their text in memory)', () => {
    // built from today's src/ (a dist/ built before a file was removed keeps its old output)
    const built = (f: string) => ['.ts', '.tsx'].some((ext) => existsSync(join(ROOT, 'src', f.replace(/\.js$/, ext))));
    const files = readdirSync(DIST, { recursive: true, encoding: 'utf8' }).filter((f) => f.endsWith('.js') && built(f));
    expect(files).toContain(join('routing', 'engine.js'));
    const commented = files.filter((f) => readFileSync(join(DIST, f), 'utf8').split('\n').some((line) => COMMENT_LINE.test(line)));
    expect(commented).toEqual([]);
  });
});
