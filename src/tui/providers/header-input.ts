/**
 * Header settings typed into the providers screen: the header that carries the key, and fixed
 * headers as one line, `name=value; name=value` (a value with `;` in it cannot be typed here;
 * `svc-proxy provider set --header` takes it). Checked as the CLI and the admin API check them
 * (config/header-settings.ts), so a refusal comes before the wizard's next question.
 */
import { authHeaderProblem, settableFixedHeaderProblem } from '../../config/header-settings.js';

export function headerListText(headers: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(headers ?? {})
    .map(([name, value]) => `${name}=${value}`)
    .join('; ');
}

export function parseHeaderList(text: string, authHeader?: string): { headers: Record<string, string> } | { problem: string } {
  const headers: Record<string, string> = {};
  for (const part of text.split(';')) {
    const item = part.trim();
    if (!item) continue;
    const eq = item.indexOf('=');
    if (eq <= 0) return { problem: `"${item.slice(0, 40)}" must be name=value.` };
    const name = item.slice(0, eq).trim();
    const value = item.slice(eq + 1).trim();
    const problem = settableFixedHeaderProblem(name, value, authHeader);
    if (problem) return { problem: `${problem[0]!.toUpperCase()}${problem.slice(1)}.` };
    headers[name.toLowerCase()] = value;
  }
  return { headers };
}

/** The key's header as typed ('' = the upstream's own), or why it cannot carry the key. */
export function authHeaderInputProblem(text: string): string | undefined {
  const problem = text.trim() === '' ? undefined : authHeaderProblem(text.trim());
  return problem ? `${problem[0]!.toUpperCase()}${problem.slice(1)}.` : undefined;
}
