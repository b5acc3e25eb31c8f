/**
 * Management of upstreams — built-in providers, custom endpoints, local servers — implemented once
 * and used by both the admin API (inside the daemon) and the CLI's offline path.
 */
import { DEFAULT_BASE_URLS } from '../config/builtin-providers.js';
import {
  authHeaderProblem,
  fixedHeaderProblem,
  fixedHeaderValue,
  isKeepStoredValue,
  MASKED_HEADER_VALUE,
  settableFixedHeaderProblem,
  shownFixedHeaders,
  type HeaderSettings,
} from '../config/header-settings.js';
import { OperationError } from '../config/errors.js';
import { groupsRoutingTo, type GroupUse } from '../config/group-uses.js';
import { validateSlug, validateUrl } from '../config/upstream-values.js';
import { displayUrl } from '../util/display-url.js';
import { BUILTIN_PROVIDERS, type BuiltinProvider, type Config } from '../config/schema.js';
import type { ConfigStore } from '../config/store.js';
import { credentialProblem } from './credential-check.js';
import { isBuiltinProvider, last4, type CredentialService, type CredentialSource, type StoredIn } from './credentials.js';
import type { ModeNotice } from './file-store.js';

/** `authHeader`: the header that carries the credential, when not the upstream's own; `headers`: fixed headers sent with every request. */
export interface ProviderInfo extends HeaderSettings {
  name: BuiltinProvider;
  connected: boolean;
  /** Where the credential in use lives; null when not connected. */
  source: CredentialSource | null;
  /** Last four characters of the credential ('' when not connected or too short to show). */
  last4: string;
  /**
   * Why the environment variable set for it, or else the value stored for it, cannot be used (it is
   * then not connected); never its value.
   */
  credentialProblem?: string;
  /** With credentialProblem: the stored value is the unusable one (not a variable), and lives here. */
  unusableStored?: StoredIn;
  baseUrl: string;
  baseUrlOverridden: boolean;
  enabled: boolean;
}

export interface EndpointInfo extends HeaderSettings {
  slug: string;
  url: string;
  format: 'a' | 'b';
  hasCredential: boolean;
  source: CredentialSource | null;
  last4: string;
  created: string;
}

export interface LocalInfo {
  slug: string;
  url: string;
  detected: boolean;
  created: string;
}

/**
 * What the credentials file said of its mode during an operation (open to others; made 0600), so a
 * client of the daemon hears it too, not only daemon.log. Names the file, never a value.
 */
export interface ModeNotices {
  modeNotices?: string[];
}

/** Collects the notices of one operation; `found()` is spread into its answer (nothing when none). */
function noticesHeard(): { modeNotice: ModeNotice; found(): ModeNotices } {
  const heard: string[] = [];
  return { modeNotice: (m) => heard.push(m), found: () => (heard.length ? { modeNotices: heard } : {}) };
}

export interface ConnectResult extends ModeNotices {
  name: string;
  storedIn: StoredIn;
  last4: string;
  /** Set when an environment variable overrides the stored credential in the daemon. */
  overriddenByEnv?: string;
  /**
   * Set when this variable is set in the daemon's environment but unusable: neither it nor the key
   * just stored is used until it is fixed or unset and the daemon restarted.
   */
  unusableEnv?: string;
  /** Why, with unusableEnv: naming the variable, never its value. */
  credentialProblem?: string;
}

export interface DisconnectResult extends ModeNotices {
  name: string;
  removedFrom: StoredIn[];
  /** The OS keychain could not be asked, so it may still hold a copy. */
  keychainError?: string;
  /** Still connected through this environment variable (not one set but unusable, which connects nothing). */
  stillConnectedViaEnv?: string;
  /** Model groups whose targets name the provider and now fail; none when nothing was removed or the environment keeps it connected. */
  stillUsedBy: GroupUse[];
}

export function validateCredential(raw: unknown): string {
  if (typeof raw !== 'string') throw new OperationError(400, 'invalid_credential', 'The credential must be a string.');
  const value = raw.trim();
  const problem = credentialProblem(value);
  if (problem !== undefined) throw new OperationError(400, 'invalid_credential', `The credential ${problem}.`);
  return value;
}

/** 400: no configuration makes another name a built-in provider (the CLI's usage error, exit 2). */
function requireBuiltin(name: unknown): BuiltinProvider {
  if (typeof name === 'string' && isBuiltinProvider(name)) return name;
  throw new OperationError(400, 'unknown_provider', `Unknown provider "${String(name)}". Built-in providers: ${BUILTIN_PROVIDERS.join(', ')}. Custom upstreams: svc-proxy endpoint add / svc-proxy local add.`);
}

function slugsOf(config: Config): { endpoints: string[]; locals: string[] } {
  return { endpoints: Object.keys(config.endpoints), locals: Object.keys(config.locals) };
}

/**
 * Endpoints and local servers share the model-id namespace with the built-in providers. A built-in
 * name can never be had (an invalid argument, 400); another upstream's can once that one is removed (409).
 */
function assertSlugFree(taken: { endpoints: readonly string[]; locals: readonly string[] }, slug: string): void {
  if (isBuiltinProvider(slug)) {
    throw new OperationError(400, 'slug_reserved', `"${slug}" is a built-in provider's name, which an endpoint or local server cannot take (reserved: ${BUILTIN_PROVIDERS.join(', ')}); pick another name.`);
  }
  if (taken.endpoints.includes(slug)) throw new OperationError(409, 'slug_taken', `A custom endpoint named "${slug}" already exists (svc-proxy endpoint remove ${slug} first).`);
  if (taken.locals.includes(slug)) throw new OperationError(409, 'slug_taken', `A local server named "${slug}" already exists (svc-proxy local remove ${slug} first).`);
}

/**
 * What `addEndpoint` refuses of a slug and URL, checked up front by a caller that asks for the key
 * first (the CLI's prompt): nobody types a key only to hear the name was taken.
 */
export function checkNewUpstream(slug: unknown, url: unknown, taken: { endpoints: readonly string[]; locals: readonly string[] }): void {
  const valid = validateSlug(slug, 'Endpoint');
  validateUrl(url, `Endpoint ${valid}`);
  assertSlugFree(taken, valid);
}

// ---------------------------------------------------------------------------------------------
// Built-in providers
// ---------------------------------------------------------------------------------------------

export async function listProviders(config: Config, credentials: CredentialService): Promise<ProviderInfo[]> {
  return Promise.all(
    BUILTIN_PROVIDERS.map(async (name) => {
      const settings = config.providers[name];
      const resolved = await credentials.resolve(name);
      const envProblem = credentials.envProblem(name);
      const stored = envProblem === undefined && resolved === undefined ? await credentials.storedProblem(name) : undefined;
      return {
        name,
        connected: resolved !== undefined,
        source: resolved?.source ?? null,
        last4: resolved ? last4(resolved.value) : '',
        ...(envProblem !== undefined ? { credentialProblem: envProblem } : {}),
        ...(stored ? { credentialProblem: stored.text, unusableStored: stored.storedIn } : {}),
        baseUrl: displayUrl(settings?.baseUrl ?? DEFAULT_BASE_URLS[name]),
        baseUrlOverridden: settings?.baseUrl !== undefined,
        enabled: settings?.enabled ?? true,
        ...shownHeaderSettings(settings?.authHeader, settings?.headers),
      };
    }),
  );
}

export async function connectProvider(
  credentials: CredentialService,
  rawName: unknown,
  rawCredential: unknown,
  opts: { insecureStorage?: boolean } = {},
): Promise<ConnectResult> {
  const name = requireBuiltin(rawName);
  const secret = validateCredential(rawCredential);
  const heard = noticesHeard();
  const storedIn = await credentials.store(name, secret, { insecureStorage: opts.insecureStorage, modeNotice: heard.modeNotice });
  const env = usableEnv(credentials, name);
  return { name, storedIn, last4: last4(secret), ...env, ...heard.found() };
}

/** The variable standing in for a stored key, or why the one set stands in for nothing. */
function usableEnv(credentials: CredentialService, name: BuiltinProvider): { overriddenByEnv?: string; unusableEnv?: string; credentialProblem?: string } {
  const env = credentials.envOverride(name);
  if (env === undefined) return {};
  const problem = credentials.envProblem(name);
  return problem === undefined ? { overriddenByEnv: env } : { unusableEnv: env, credentialProblem: problem };
}

export async function disconnectProvider(config: Config, credentials: CredentialService, rawName: unknown): Promise<DisconnectResult> {
  const name = requireBuiltin(rawName);
  const heard = noticesHeard();
  const removed = await credentials.remove(name, { modeNotice: heard.modeNotice });
  const env = usableEnv(credentials, name).overriddenByEnv;
  // groups fail because of this disconnect only when it removed a key and no variable stands in for it
  const cutOff = removed.removedFrom.length > 0 && !env;
  return { name, ...removed, ...(env ? { stillConnectedViaEnv: env } : {}), stillUsedBy: cutOff ? groupsRoutingTo(config, name) : [], ...heard.found() };
}

/** `null` (or '') restores the default base URL. */
export async function setProviderBaseUrl(store: ConfigStore, rawName: unknown, rawUrl: unknown): Promise<{ name: string; baseUrl: string; overridden: boolean }> {
  const name = requireBuiltin(rawName);
  const reset = rawUrl === null || rawUrl === '' || rawUrl === undefined;
  const url = reset ? undefined : validateUrl(rawUrl, `Base URL for ${name}`);
  await store.update((config) => {
    const current = config.providers[name] ?? { enabled: true };
    const next = { ...current };
    if (url === undefined) delete next.baseUrl;
    else next.baseUrl = url;
    config.providers[name] = next;
  });
  return { name, baseUrl: url ?? DEFAULT_BASE_URLS[name], overridden: url !== undefined };
}

/**
 * A built-in provider reached through a gateway that wants its own headers: the header that carries
 * the key, and fixed headers. Both are replaced as given; none of either removes them. A fixed
 * header given with the value config.json holds for it already is not refused for looking like a
 * credential (a hand-edited file may hold one): nothing new goes into the file, and the TUI's
 * editor, which shows it masked, gives it back as it was when the user left it alone.
 */
export async function setProviderHeaders(
  store: ConfigStore,
  rawName: unknown,
  input: { authHeader?: unknown; headers?: unknown },
): Promise<{ name: string } & HeaderSettings> {
  const name = requireBuiltin(rawName);
  const settings = await store.update((config) => {
    const { authHeader: _a, headers: held, ...rest } = config.providers[name] ?? { enabled: true };
    const checked = validateHeaderSettings(input.authHeader, input.headers, held);
    config.providers[name] = { ...rest, ...checked };
    return checked;
  });
  return { name, ...shownHeaderSettings(settings.authHeader, settings.headers) };
}

// ---------------------------------------------------------------------------------------------
// Custom endpoints
// ---------------------------------------------------------------------------------------------

export async function listEndpoints(config: Config, credentials: CredentialService): Promise<EndpointInfo[]> {
  return Promise.all(
    Object.entries(config.endpoints).map(async ([slug, e]) => {
      const resolved = e.hasCredential ? await credentials.resolve(slug) : undefined;
      return {
        slug,
        url: displayUrl(e.url),
        format: e.format,
        hasCredential: e.hasCredential,
        source: resolved?.source ?? null,
        last4: resolved ? last4(resolved.value) : '',
        created: e.created,
        ...shownHeaderSettings(e.authHeader, e.headers),
      };
    }),
  );
}

function headerSettings(authHeader: string | undefined, headers: Record<string, string> | undefined): HeaderSettings {
  return { ...(authHeader ? { authHeader } : {}), ...(headers && Object.keys(headers).length > 0 ? { headers } : {}) };
}

/**
 * Header settings as an answer or a listing gives them: a fixed header that may carry a credential
 * (a hand-edited config.json) shows '***'; its value goes to the upstream and nowhere else.
 */
function shownHeaderSettings(authHeader: string | undefined, headers: Record<string, string> | undefined): HeaderSettings {
  return headerSettings(authHeader, headers && shownFixedHeaders(headers));
}

/**
 * `authHeader` and `headers` of endpoint add and provider set (the CLI's --auth-header and
 * --header), checked (header-settings.ts); `held`: the fixed headers the file holds now, whose
 * unchanged values are not new credentials.
 */
function validateHeaderSettings(authHeader: unknown, headers: unknown, held?: Readonly<Record<string, string>>): HeaderSettings {
  let auth: string | undefined;
  if (authHeader !== undefined && authHeader !== null && authHeader !== '') {
    const problem = typeof authHeader === 'string' ? authHeaderProblem(authHeader) : 'it must be a header name';
    // named as the API's fields: the CLI checks its flags first (header-flags.ts), and says them
    if (problem) throw new OperationError(400, 'invalid_header', `authHeader: ${problem}.`);
    auth = (authHeader as string).toLowerCase();
  }
  const fixed: Record<string, string> = {};
  if (headers !== undefined && headers !== null) {
    if (typeof headers !== 'object' || Array.isArray(headers)) throw new OperationError(400, 'invalid_header', 'headers must be an object of header names and values.');
    for (const [name, given] of Object.entries(headers as Record<string, unknown>)) {
      const stored = fixedHeaderValue(held, name);
      if (isKeepStoredValue(given) && stored === undefined) {
        throw new OperationError(400, 'invalid_header', `headers: {"keep":true} keeps the value ${name.toLowerCase()} has, and it has none: give its value.`);
      }
      // '***' is how a value is shown masked, never a value: sent back, it would reach the upstream as is
      if (typeof given === 'string' && given.trim() === MASKED_HEADER_VALUE) {
        throw new OperationError(400, 'invalid_header', `headers: ${MASKED_HEADER_VALUE} is how the value of ${name.toLowerCase()} is shown, not a value; send {"keep":true} to keep the stored one.`);
      }
      const value = isKeepStoredValue(given) ? stored : given;
      // a value the file holds already (kept, or given back as it is) is no new credential: only the file's rules apply to it
      const kept = typeof value === 'string' && stored === value;
      const problem = typeof value !== 'string' ? `the value of ${name} must be a string` : kept ? fixedHeaderProblem(name, value, auth) : settableFixedHeaderProblem(name, value, auth);
      if (problem) throw new OperationError(400, 'invalid_header', `headers: ${problem}.`);
      fixed[name.toLowerCase()] = value as string;
    }
  }
  return headerSettings(auth, fixed);
}

export interface AddEndpointInput {
  slug: unknown;
  url: unknown;
  format: unknown;
  /** Optional; empty or missing = the endpoint needs no credential. */
  credential?: unknown;
  insecureStorage?: boolean;
  /** The header that carries the credential (e.g. `api-key`); absent: the format's own. */
  authHeader?: unknown;
  /** Fixed headers for every request, `{ name: value }` (never auth). */
  headers?: unknown;
}

export type AddedEndpoint = EndpointInfo & ModeNotices;

export interface RemovedEndpoint extends ModeNotices {
  slug: string;
  removedCredentialFrom: StoredIn[];
  /** Model groups whose targets still name the removed endpoint (they now fail). */
  stillUsedBy: GroupUse[];
}

export async function addEndpoint(store: ConfigStore, credentials: CredentialService, input: AddEndpointInput): Promise<AddedEndpoint> {
  const slug = validateSlug(input.slug, 'Endpoint');
  const url = validateUrl(input.url, `Endpoint ${slug}`);
  if (input.format !== 'a' && input.format !== 'b') {
    throw new OperationError(400, 'invalid_format', 'Endpoint format must be "a" (OpenAI Chat Completions) or "b" (Anthropic Messages).');
  }
  const format = input.format;
  const headerInfo = validateHeaderSettings(input.authHeader, input.headers);
  const hasSecret = input.credential !== undefined && input.credential !== null && String(input.credential).trim() !== '';
  const secret = hasSecret ? validateCredential(input.credential) : undefined;
  assertSlugFree(slugsOf(store.current()), slug);

  let storedIn: StoredIn | undefined;
  const heard = noticesHeard();
  if (secret) storedIn = await credentials.store(slug, secret, { insecureStorage: input.insecureStorage, modeNotice: heard.modeNotice });
  const created = new Date().toISOString();
  try {
    await store.update((config) => {
      assertSlugFree(slugsOf(config), slug);
      config.endpoints[slug] = { url, format, hasCredential: secret !== undefined, created, ...headerInfo };
    });
  } catch (err) {
    if (storedIn) await credentials.remove(slug).catch(() => undefined);
    throw err;
  }
  return {
    slug,
    url,
    format,
    hasCredential: secret !== undefined,
    source: storedIn ?? null,
    last4: secret ? last4(secret) : '',
    created,
    ...shownHeaderSettings(headerInfo.authHeader, headerInfo.headers),
    ...heard.found(),
  };
}

export async function removeEndpoint(store: ConfigStore, credentials: CredentialService, rawSlug: unknown): Promise<RemovedEndpoint> {
  const slug = String(rawSlug ?? '');
  let hadCredential = false;
  let stillUsedBy: GroupUse[] = [];
  await store.update((config) => {
    const existing = Object.hasOwn(config.endpoints, slug) ? config.endpoints[slug] : undefined;
    if (!existing) throw new OperationError(404, 'endpoint_not_found', `No custom endpoint named "${slug}". See: svc-proxy endpoint list`);
    hadCredential = existing.hasCredential;
    delete config.endpoints[slug];
    stillUsedBy = groupsRoutingTo(config, slug);
  });
  const heard = noticesHeard();
  const removedCredentialFrom = hadCredential ? (await credentials.remove(slug, { modeNotice: heard.modeNotice }).catch(() => ({ removedFrom: [] as StoredIn[] }))).removedFrom : [];
  return { slug, removedCredentialFrom, stillUsedBy, ...heard.found() };
}

// ---------------------------------------------------------------------------------------------
// Local servers
// ---------------------------------------------------------------------------------------------

export function listLocals(config: Config): LocalInfo[] {
  return Object.entries(config.locals).map(([slug, l]) => ({ slug, url: displayUrl(l.url), detected: l.detected, created: l.created }));
}

export async function addLocal(store: ConfigStore, input: { slug: unknown; url: unknown }): Promise<LocalInfo> {
  const slug = validateSlug(input.slug, 'Local server');
  const url = validateUrl(input.url, `Local server ${slug}`);
  const created = new Date().toISOString();
  await store.update((config) => {
    assertSlugFree(slugsOf(config), slug);
    config.locals[slug] = { url, created, detected: false };
  });
  return { slug, url, detected: false, created };
}

/** `stillUsedBy` as for removeEndpoint. */
export async function removeLocal(store: ConfigStore, rawSlug: unknown): Promise<{ slug: string; stillUsedBy: GroupUse[] }> {
  const slug = String(rawSlug ?? '');
  let stillUsedBy: GroupUse[] = [];
  await store.update((config) => {
    if (!Object.hasOwn(config.locals, slug)) throw new OperationError(404, 'local_not_found', `No local server named "${slug}". See: svc-proxy local list`);
    delete config.locals[slug];
    stillUsedBy = groupsRoutingTo(config, slug);
  });
  return { slug, stillUsedBy };
}
