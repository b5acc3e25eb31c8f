/**
 * The management operations as the CLI (and the TUI) see them. Two implementations, one contract:
 * through the running daemon's admin API (admin-client.ts), or, when no daemon runs, directly on
 * config.json under its lock (offline-management.ts). Both end in the same operation functions
 * (src/keys/operations.ts, src/secrets/operations.ts).
 */
import type { RevocationResult } from '../keys/unsaved-revocations.js';
import type { GroupUse } from '../config/group-uses.js';
import type { KeepStoredValue } from '../config/header-settings.js';
import type { CreatedKey, KeyInfo, RevokedKey } from '../keys/operations.js';
import type { AddEndpointInput, AddedEndpoint, ConnectResult, DisconnectResult, EndpointInfo, LocalInfo, ProviderInfo, RemovedEndpoint } from '../secrets/operations.js';
import { connectAdmin } from './connect-admin.js';
import type { CliContext } from './io.js';

export interface Management {
  readonly mode: 'daemon' | 'offline';
  createKey(name: string): Promise<CreatedKey>;
  listKeys(): Promise<KeyInfo[]>;
  revokeKey(ref: string): Promise<RevokedKey & Partial<Pick<RevocationResult, 'saved' | 'unsavedBecause'>>>;
  listProviders(): Promise<ProviderInfo[]>;
  connectProvider(name: string, credential: string, opts?: { insecureStorage?: boolean }): Promise<ConnectResult>;
  disconnectProvider(name: string): Promise<DisconnectResult>;
  /** null restores the default. */
  setProviderBaseUrl(name: string, baseUrl: string | null): Promise<{ name: string; baseUrl: string; overridden: boolean }>;
  /** Replaces both; none of either removes them. */
  setProviderHeaders(name: string, settings: { authHeader?: string; headers?: Record<string, string | KeepStoredValue> }): Promise<{ name: string; authHeader?: string; headers?: Record<string, string> }>;
  listEndpoints(): Promise<EndpointInfo[]>;
  addEndpoint(input: AddEndpointInput): Promise<AddedEndpoint>;
  removeEndpoint(slug: string): Promise<RemovedEndpoint>;
  listLocals(): Promise<LocalInfo[]>;
  addLocal(input: { slug: string; url: string }): Promise<LocalInfo>;
  removeLocal(slug: string): Promise<{ slug: string; stillUsedBy: GroupUse[] }>;
}

/**
 * The daemon's admin API when a daemon runs for this state dir, else direct file access (whose
 * word on a state file's mode — credentials.json readable by others — goes to `ctx.warn`).
 */
export async function openManagement(ctx: CliContext): Promise<Management> {
  const client = await connectAdmin(ctx);
  if (client) return client;
  const { openOfflineManagement } = await import('./offline-management.js');
  return openOfflineManagement(ctx.paths(), ctx.io.env, ctx.warn);
}
