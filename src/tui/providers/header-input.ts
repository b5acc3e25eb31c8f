/**
 * Header settings typed into the providers screen: the header that carries the key, and fixed
 * headers as one line, `name=value; name=value` (a value with `;` in it cannot be typed here;
 * `svc-proxy provider set --header` takes it). Checked as the CLI and the admin API check them
 * (config/header-settings.ts), so a refusal comes before the wizard's next question.
 *
 * A credential a hand-edited config.json holds in a fixed header never reaches the TUI (the admin
 * API shows it as `***`): the line shows `name=***`, and that text left as it was is sent as the
 * marker that keeps the stored value (never `***`, never the value).
 */
import {
  authHeaderProblem,
  fixedHeaderProblem,
  fixedHeaderValue,
  KEEP_STORED_VALUE,
  MASKED_HEADER_VALUE as MASKED,
  settableFixedHeaderProblem,
  shownFixedHeaderValue,
  type KeepStoredValue,
} from '../../config/header-settings.js';

/** The fixed headers as the line the editor opens with, credentials masked. */
export function headerListText(headers: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}=${shownFixedHeaderValue(name, value)}`)
    .join('; ');
}

/**
 * The line typed, as headers; `stored`: the ones the provider has now, as the admin API shows them.
 * A `name=***` whose stored value was masked keeps that value: it is in config.json already, so
 * only the file's own rules apply to it (it may not become the key's header), not the refusal of a
 * new credential.
 */
export function parseHeaderList(text: string, authHeader?: string, stored?: Readonly<Record<string, string>>): { headers: Record<string, string | KeepStoredValue> } | { problem: string } {
  const headers: Record<string, string | KeepStoredValue> = {};
  for (const part of text.split(';')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return { problem: `"${item.slice(0, 40)}" must be name=value.` };
    const name = item.slice(0, eq).trim();
    const typed = item.slice(eq + 1).trim();
    const kept = typed === MASKED && storedMasked(stored, name);
    // a *** that keeps nothing (a header renamed, a new one) would go to the upstream as it is
    if (typed === MASKED && !kept) return { problem: `${MASKED} keeps a value ${name.toLowerCase()} already has, and it has none to keep: type its value.` };
    // a kept value is not known here: only what the file's rules say of its name applies
    const problem = kept ? fixedHeaderProblem(name, '', authHeader) : settableFixedHeaderProblem(name, typed, authHeader);
    if (problem) return { problem: `${problem[0]!.toUpperCase()}${problem.slice(1)}.` };
    headers[name.toLowerCase()] = kept ? KEEP_STORED_VALUE : typed;
  }
  return { headers };
}

/** The key's header as typed ('' = the upstream's own), or why it cannot carry the key. */
export function authHeaderInputProblem(text: string): string | undefined {
  const problem = text.trim() === '' ? undefined : authHeaderProblem(text.trim());
  return problem ? `${problem[0]!.toUpperCase()}${problem.slice(1)}.` : undefined;
}

/** Whether the header `name` has a stored value the editor showed masked. */
function storedMasked(stored: Readonly<Record<string, string>> | undefined, name: string): boolean {
  const value = fixedHeaderValue(stored, name);
  return value !== undefined && shownFixedHeaderValue(name, value) === MASKED;
}
