/**
 * What the routing engine needs from the provider modules and the codecs, as structural types.
 *
 * The engine takes these as one object so tests can run it against small fakes and the daemon
 * wires the real modules (proxy-handler.ts). The shapes mirror src/providers/{registry,
 * upstream-client,models,count-tokens}.ts exactly; the real functions are assignable to them.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { Readable } from 'node:stream';
import type { DialectCodec } from '../protocols/codec.js';
import type { Dialect, HubRequest } from '../protocols/hub.js';
import type { ResolvedProvider } from '../providers/types.js';

export interface UpstreamRequestOptions {
  url: string;
  method: 'GET' | 'POST' | 'DELETE';
  headers: Record<string, string>;
  body?: string | Buffer | NodeJS.ReadableStream;
  signal: AbortSignal;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  idleTimeoutMs: number;
}

export interface UpstreamResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Readable;
}

/** How upstreamRequest rejects (UpstreamError in src/providers/upstream-client.ts). */
export type UpstreamErrorCode = 'upstream_unreachable' | 'upstream_timeout' | 'upstream_reset' | 'aborted';

export type ProviderResolution =
  | ResolvedProvider
  | { error: 'unknown_provider'; known: string[] }
  | { error: 'not_connected'; hint: string };

export interface CatalogModel {
  /** Prefixed id, `provider/model`. */
  id: string;
  provider: string;
  /** Unix seconds. */
  created?: number;
  displayName?: string;
}

export interface CountTokensRequest {
  hub: HubRequest;
  raw: Record<string, unknown>;
  from: Dialect;
  /** The client's headers (anthropic-version / anthropic-beta reach Messages targets). */
  headers?: IncomingHttpHeaders;
}

export interface RoutingServices {
  resolveProvider(slug: string): ProviderResolution;
  upstreamRequest(opts: UpstreamRequestOptions): Promise<UpstreamResponse>;
  listModels(signal?: AbortSignal): Promise<CatalogModel[]>;
  countTokens(target: ResolvedProvider, model: string, req: CountTokensRequest, signal: AbortSignal): Promise<number>;
  codecs: Readonly<Record<Dialect, DialectCodec>>;
  /** Close upstream pools (daemon shutdown). */
  close(): Promise<void>;
}
