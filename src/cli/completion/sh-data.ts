/** The completion data as a bash/zsh function (`case` works alike in both, and in bash 3.2 on macOS). */

/** A single-quoted word for bash and zsh. */
export function shQuote(text: string): string {
  return `'${text.replaceAll("'", `'\\''`)}'`;
}

/** `__svc_proxy_data KEY` prints the entry (completion-tree.ts), or nothing. */
export function shDataFunction(data: ReadonlyMap<string, string>): string {
  const cases = [...data].map(([key, value]) => `    ${shQuote(key)}) printf '%s' ${shQuote(value)} ;;`);
  return ['__svc_proxy_data() {', '  case "$1" in', ...cases, '  esac', '}'].join('\n');
}
