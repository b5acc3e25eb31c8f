/** A single-quoted word for a POSIX shell (sh, bash, zsh): `'` inside becomes `'\''`. */
export function quoteSh(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}
