/** The package version, read from package.json (two levels up from both src/config and dist/config). */
import { readFileSync } from 'node:fs';

let cached: string | undefined;

export function packageVersion(): string {
  if (cached === undefined) {
    const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version?: string };
    cached = pkg.version ?? '0.0.0';
  }
  return cached;
}
