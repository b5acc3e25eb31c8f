/** `--auth-header NAME` and repeatable `--header NAME=VALUE`, shared by `endpoint add` and `provider set`. */
import { authHeaderProblem, settableFixedHeaderProblem } from '../config/header-settings.js';
import { CliError } from './io.js';

export const AUTH_HEADER_HELP = "the header that carries the key, e.g. api-key (Azure OpenAI); authorization means \"Bearer <key>\"; default: the upstream's own";
export const HEADER_HELP = 'a fixed header sent with every request (repeatable; stored in config.json in the clear, so never a key)';

/** Commander's collector for `--header name=value`, split at the first `=`. */
// no default value on the option: commander would print an empty one, "(default: {})", in the help
export function collectHeader(text: string, all: Record<string, string> = {}): Record<string, string> {
  const eq = text.indexOf('=');
  if (eq <= 0) throw new CliError(`--header "${text.slice(0, 60)}" must be name=value.`, 2, { code: 'invalid_header', details: { flag: '--header' } });
  return { ...all, [text.slice(0, eq).trim()]: text.slice(eq + 1).trim() };
}

/** Usage errors (exit 2) for header flags that would be refused, before anything is asked or written. */
export function checkHeaderFlags(authHeader: string | undefined, headers: Record<string, string>): void {
  const authProblem = authHeader === undefined ? undefined : authHeaderProblem(authHeader);
  if (authProblem) throw new CliError(`--auth-header: ${authProblem}.`, 2, { code: 'invalid_header', details: { flag: '--auth-header' } });
  for (const [name, value] of Object.entries(headers)) {
    const problem = settableFixedHeaderProblem(name, value, authHeader);
    if (problem) throw new CliError(`--header: ${problem}.`, 2, { code: 'invalid_header', details: { flag: '--header', header: name } });
  }
}
