/**
 * Client of the daemon's admin API, for the CLI and the TUI. `AdminClient.connect(paths)` finds the
 * daemon of a state dir (runtime file + live pid) and reads the admin token; `request()` is the
 * generic call that resource-specific methods (here and in other modules) build on.
 */
import { OperationError } from '../config/errors.js';
import type { StatePaths } from '../config/paths.js';
import type { GroupUse } from '../config/group-uses.js';
import type { KeepStoredValue } from '../config/header-settings.js';
import { findDaemon, readAdminToken, type DaemonLocation, type RuntimeWaitNotice } from '../daemon/control.js';
import { DaemonUnreachableError, httpJson } from '../daemon/http-json.js';
import type { CreatedKey, KeyInfo, RevokedKey } from '../keys/operations.js';
import type { RevocationResult } from '../keys/unsaved-revocations.js';
import type { AddEndpointInput, AddedEndpoint, ConnectResult, DisconnectResult, EndpointInfo, LocalInfo, ProviderInfo, RemovedEndpoint } from '../secrets/operations.js';
import type { ListFailureNote, ListFailureRead } from '../providers/model-list-failure.js';
import type { CatalogModel } from '../providers/models.js';
import type { ModelsAnswer } from '../server/admin/models.js';
import type { DaemonStatus } from '../server/admin/status.js';
import type { Management } from './management.js';

/** An error answer of the admin API (same status/code/message as the operation that failed). */
export class AdminApiError extends OperationError {}

/** GET path of the live model catalog; with providers, only those are asked (`?provider=`, repeated). */
export function modelsPath(providers?: Iterable<string>): string {
  const query = [...(providers ?? [])].map((p) => `provider=${encodeURIComponent(p)}`).join('&');
  return query ? `/admin/models?${query}` : '/admin/models';
}

/** GET /admin/models as the CLI and TUI read it (ModelsAnswer, from a daemon of any version). */
export interface ModelsRead {
  models: CatalogModel[];
  counts: Record<string, number>;
  failed: Record<string, ListFailureRead>;
}

/**
 * The status answer is read from memory and comes in milliseconds; a daemon silent this long is
 * hung, and `status` (the command a user runs to find out) says so instead of waiting 30 s.
 */
export const STATUS_TIMEOUT_MS = 5_000;

export class AdminClient implements Management {
  readonly mode = 'daemon' as const;

  constructor(
    readonly daemon: DaemonLocation,
    private readonly token: string,
  ) {}

  /**
   * null when no daemon runs for these paths. A registered daemon that is alive is always used,
   * even when slow to answer: quietly editing the file behind its back would break the promise
   * that a change (e.g. a revoke) is in force when the command returns.
   */
  static async connect(paths: StatePaths, onWait: RuntimeWaitNotice | null): Promise<AdminClient | null> {
    const daemon = await findDaemon(paths, onWait);
    // A registered pid that is no longer svc-proxy (reused after a crash) is a stale file.
    if (!daemon) return null;
    const token = await readAdminToken(paths);
    if (!token) throw new OperationError(503, 'admin_token_missing', `The daemon (pid ${daemon.pid}) is running but ${paths.adminToken} is missing; restart it: svc-proxy stop && svc-proxy start`);
    return new AdminClient(daemon, token);
  }

  get origin(): string {
    return this.daemon.origin;
  }

  /** Authorization header value, for callers that open their own connections (e.g. SSE). */
  get authorization(): string {
    return `Bearer ${this.token}`;
  }

  async request<T>(method: string, path: string, body?: unknown, timeoutMs?: number): Promise<T> {
    let res: Awaited<ReturnType<typeof httpJson<T | { error?: { code?: string; message?: string } }>>>;
    try {
      res = await httpJson<T | { error?: { code?: string; message?: string } }>(method, `${this.daemon.origin}${path}`, {
        headers: { authorization: this.authorization },
        body,
        timeoutMs,
      });
    } catch (err) {
      // its process is alive (findDaemon saw it): a daemon that takes no connection or says nothing is hung
      if (err instanceof DaemonUnreachableError) throw new DaemonUnreachableError(`The daemon (pid ${this.daemon.pid}) does not answer (${err.message}); if it stays so: svc-proxy restart (a daemon that does not answer is stopped by a signal).`);
      throw err;
    }
    if (res.status >= 200 && res.status < 300) return res.body as T;
    const err = (res.body as { error?: { code?: string; message?: string } } | null)?.error;
    throw new AdminApiError(res.status, err?.code ?? 'admin_error', err?.message ?? `The daemon answered HTTP ${res.status}.`);
  }

  status(): Promise<DaemonStatus> {
    return this.request('GET', '/admin/status', undefined, STATUS_TIMEOUT_MS);
  }
  /** The live catalog, or only these providers' lists. */
  async models(providers: Iterable<string> | undefined, timeoutMs: number): Promise<ModelsRead> {
    const answer = await this.request<Omit<ModelsAnswer, 'failed'> & { failed?: Record<string, ListFailureNote | string> }>('GET', modelsPath(providers), undefined, timeoutMs);
    // a daemon from before the codes sends each reason alone
    const failed: Record<string, ListFailureRead> = {};
    for (const [slug, f] of Object.entries(answer.failed ?? {})) failed[slug] = typeof f === 'string' ? { reason: f } : f;
    return { models: answer.models, counts: answer.counts, failed };
  }
  reloadConfig(): Promise<{ reloaded: boolean; changed: boolean }> {
    return this.request('POST', '/admin/config/reload');
  }
  shutdown(): Promise<{ stopping: boolean; pid: number }> {
    return this.request('POST', '/admin/shutdown');
  }

  createKey(name: string): Promise<CreatedKey> {
    return this.request('POST', '/admin/keys', { name });
  }
  async listKeys(): Promise<KeyInfo[]> {
    return (await this.request<{ keys: KeyInfo[] }>('GET', '/admin/keys')).keys;
  }
  revokeKey(ref: string): Promise<RevokedKey & Partial<Pick<RevocationResult, 'saved' | 'unsavedBecause'>>> {
    return this.request('POST', '/admin/keys/revoke', { key: ref });
  }

  async listProviders(): Promise<ProviderInfo[]> {
    return (await this.request<{ providers: ProviderInfo[] }>('GET', '/admin/providers')).providers;
  }
  connectProvider(name: string, credential: string, opts: { insecureStorage?: boolean } = {}): Promise<ConnectResult> {
    return this.request('PUT', `/admin/providers/${encodeURIComponent(name)}/credential`, { credential, insecureStorage: opts.insecureStorage === true });
  }
  async disconnectProvider(name: string): Promise<DisconnectResult> {
    const result = await this.request<Omit<DisconnectResult, 'stillUsedBy'> & { stillUsedBy?: GroupUse[] }>('DELETE', `/admin/providers/${encodeURIComponent(name)}/credential`);
    // a daemon started before an upgrade does not list the groups: no warning then, rather than a crash after the key is gone
    return { ...result, stillUsedBy: result.stillUsedBy ?? [] };
  }
  setProviderBaseUrl(name: string, baseUrl: string | null): Promise<{ name: string; baseUrl: string; overridden: boolean }> {
    return this.request('PATCH', `/admin/providers/${encodeURIComponent(name)}`, { baseUrl });
  }
  setProviderHeaders(name: string, settings: { authHeader?: string; headers?: Record<string, string | KeepStoredValue> }): Promise<{ name: string; authHeader?: string; headers?: Record<string, string> }> {
    return this.request('PUT', `/admin/providers/${encodeURIComponent(name)}/headers`, settings);
  }

  async listEndpoints(): Promise<EndpointInfo[]> {
    return (await this.request<{ endpoints: EndpointInfo[] }>('GET', '/admin/endpoints')).endpoints;
  }
  addEndpoint(input: AddEndpointInput): Promise<AddedEndpoint> {
    return this.request('POST', '/admin/endpoints', input);
  }
  async removeEndpoint(slug: string): Promise<RemovedEndpoint> {
    const result = await this.request<Omit<RemovedEndpoint, 'stillUsedBy'> & { stillUsedBy?: GroupUse[] }>('DELETE', `/admin/endpoints/${encodeURIComponent(slug)}`);
    // a daemon from before the group warning omits stillUsedBy, as for disconnect
    return { ...result, stillUsedBy: result.stillUsedBy ?? [] };
  }

  async listLocals(): Promise<LocalInfo[]> {
    return (await this.request<{ locals: LocalInfo[] }>('GET', '/admin/locals')).locals;
  }
  addLocal(input: { slug: string; url: string }): Promise<LocalInfo> {
    return this.request('POST', '/admin/locals', input);
  }
  async removeLocal(slug: string): Promise<{ slug: string; stillUsedBy: GroupUse[] }> {
    const result = await this.request<{ slug: string; stillUsedBy?: GroupUse[] }>('DELETE', `/admin/locals/${encodeURIComponent(slug)}`);
    return { ...result, stillUsedBy: result.stillUsedBy ?? [] };
  }
}
