/**
 * The providers screen's rows: built-in providers, custom endpoints, configured local servers, and
 * local servers the daemon found by itself (they appear in the model catalog under their own slug).
 */
import { shownFixedHeaderValue, type HeaderSettings } from '../../config/header-settings.js';
import type { ListFailureRead } from '../../providers/model-list-failure.js';
import type { EndpointInfo, LocalInfo, ProviderInfo } from '../../secrets/operations.js';
import type { LastError } from '../log/last-errors.js';
import { displayUrl } from '../../util/display-url.js';

export type UpstreamRow =
  | { kind: 'provider'; name: string; info: ProviderInfo }
  | { kind: 'endpoint'; name: string; info: EndpointInfo }
  | { kind: 'local'; name: string; info: LocalInfo }
  | { kind: 'detected'; name: string };

export interface Upstreams {
  providers: ProviderInfo[];
  endpoints: EndpointInfo[];
  locals: LocalInfo[];
}

export function upstreamRows(u: Upstreams, counts: Record<string, number> | undefined): UpstreamRow[] {
  const rows: UpstreamRow[] = [
    ...u.providers.map((info) => ({ kind: 'provider' as const, name: info.name, info })),
    ...u.endpoints.map((info) => ({ kind: 'endpoint' as const, name: info.slug, info })),
    ...u.locals.map((info) => ({ kind: 'local' as const, name: info.slug, info })),
  ];
  const known = new Set(rows.map((r) => r.name));
  for (const slug of Object.keys(counts ?? {}).sort()) if (!known.has(slug)) rows.push({ kind: 'detected', name: slug });
  return rows;
}

const SOURCE: Record<string, string> = { keychain: 'keychain', env: 'env var', file: 'file (insecure)' };

export function kindText(r: UpstreamRow): string {
  if (r.kind === 'provider') return 'built-in';
  if (r.kind === 'endpoint') return r.info.format === 'a' ? 'endpoint A' : 'endpoint B';
  return r.kind === 'local' ? 'local' : 'local (found)';
}

/** Connected = a request routed here has what it needs (a credential, or none is needed). */
export function isConnected(r: UpstreamRow): boolean {
  if (r.kind === 'provider') return r.info.connected;
  if (r.kind === 'endpoint') return !r.info.hasCredential || r.info.source !== null;
  return true;
}

/** Where the credential lives (source and last four characters), never the credential. */
export function credentialText(r: UpstreamRow): string {
  if (r.kind === 'provider' || r.kind === 'endpoint') {
    if (r.kind === 'endpoint' && !r.info.hasCredential) return 'none needed';
    if (!r.info.source) return r.kind === 'endpoint' ? 'missing' : r.info.credentialProblem === undefined ? '-' : r.info.unusableStored ? 'stored key unusable' : 'env var unusable';
    return `${SOURCE[r.info.source] ?? r.info.source}${r.info.last4 ? ` …${r.info.last4}` : ''}`;
  }
  return 'none needed';
}

/** Where the credential lives or what is wrong with it, in a word, for a column too narrow for credentialText. */
export function credentialBrief(r: UpstreamRow): string {
  if (r.kind === 'provider' || r.kind === 'endpoint') {
    if (r.kind === 'endpoint' && !r.info.hasCredential) return 'none';
    if (!r.info.source) return r.kind === 'endpoint' ? 'missing' : r.info.credentialProblem === undefined ? '-' : 'unusable';
    return r.info.source === 'env' ? 'env var' : r.info.source;
  }
  return 'none';
}

/** Why a provider's environment variable leaves it unconnected (naming the variable, never its value); undefined when nothing is wrong. */
export function credentialProblemText(r: UpstreamRow): string | undefined {
  return r.kind === 'provider' ? r.info.credentialProblem : undefined;
}

export function baseUrlText(r: UpstreamRow): string {
  if (r.kind === 'provider') return `${displayUrl(r.info.baseUrl)}${r.info.baseUrlOverridden ? ' (override)' : ''}`;
  if (r.kind === 'endpoint' || r.kind === 'local') return displayUrl(r.info.url);
  return '(found on this machine)';
}

/** Header settings as one line (`key in api-key; x-team=42`), '' when there are none; a credential a hand-edited config holds is masked. */
export function headerSettingsText(settings: HeaderSettings): string {
  const parts = [settings.authHeader ? `key in ${settings.authHeader}` : '', ...Object.entries(settings.headers ?? {}).map(([name, value]) => `${name}=${shownFixedHeaderValue(name, value)}`)];
  return parts.filter(Boolean).join('; ');
}

/** The header settings of a provider behind a gateway or an endpoint. */
export function headersText(r: UpstreamRow): string {
  return r.kind === 'provider' || r.kind === 'endpoint' ? headerSettingsText(r.info) : '';
}

export function modelsText(r: UpstreamRow, counts: Record<string, number> | undefined, failed?: Record<string, ListFailureRead>): string {
  if (!isConnected(r)) return '-';
  if (!counts) return '…';
  const n = counts[r.name];
  if (n !== undefined) return String(n);
  // Connected but nothing listed: '!' when the list failed (the detail line says why), else we cannot say.
  return failed?.[r.name] !== undefined ? '!' : '?';
}

export function lastErrorText(e: LastError | undefined, ago: (iso: string) => string): string {
  if (!e) return '-';
  return `${e.status === 0 ? 'no answer' : e.status}${e.code ? ` ${e.code}` : ''}, ${ago(e.time)}`;
}
