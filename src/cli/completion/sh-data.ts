/** The completion data as a bash/zsh function (`case` works alike in both, and in bash 3.2 on macOS). */
import { quoteSh } from '../../util/quote-sh.js';

/** `__svc_proxy_data KEY` prints the entry (completion-tree.ts), or nothing. */
export function shDataFunction(data: ReadonlyMap<string, string>): string {
  const cases = [...data].map(([key, value]) => `    ${quoteSh(key)}) printf '%s' ${quoteSh(value)} ;;`);
  return ['__svc_proxy_data() {', '  case "$1" in', ...cases, '  esac', '}'].join('\n');
}
