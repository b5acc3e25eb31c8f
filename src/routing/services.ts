/**
 * What the routing engine needs from the provider modules and the codecs, as one object: the
 * daemon wires the real modules (proxy-handler.ts); tests may replace any of them.
 */
import type { DialectCodec } from '../protocols/codec.js';
import type { Dialect } from '../protocols/hub.js';
import type { CountTokensInput } from '../providers/count-tokens.js';
import type { CatalogListing, CatalogModel } from '../providers/models.js';
import type { ResolveResult } from '../providers/registry.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { ModelControls } from '../providers/stated-controls.js';
import type { AnswerLimits, UpstreamAnswer } from '../providers/upstream-answer.js';
import type { UpstreamRequest, UpstreamResponse } from '../providers/upstream-client.js';

export type { AnswerLimits, CatalogListing, CatalogModel, CountTokensInput, UpstreamAnswer, UpstreamRequest, UpstreamResponse };
export type ProviderResolution = ResolveResult;

export interface RoutingServices {
  resolveProvider(slug: string): ProviderResolution;
  upstreamRequest(opts: UpstreamRequest): Promise<UpstreamResponse>;
  /** The same request, its answer read whole (for callers that want no stream). */
  upstreamAnswer(opts: UpstreamRequest, limits: AnswerLimits): Promise<UpstreamAnswer>;
  /** Every connected provider's models, or only those of the providers named in `only`, and which of those failed. */
  listModels(signal?: AbortSignal, only?: ReadonlySet<string>): Promise<CatalogListing>;
  /** The reasoning controls a provider's last listed model list stated for a model (never fetches; models.ts). */
  statedControls?(slug: string, model: string): ModelControls | undefined;
  countTokens(target: ResolvedProvider, model: string, req: CountTokensInput, signal: AbortSignal): Promise<number>;
  codecs: Readonly<Record<Dialect, DialectCodec>>;
  /** Close upstream pools (daemon shutdown). */
  close(): Promise<void>;
  /** Close idle upstream pools a burst left with many connections; resolves once closed, with how many. */
  shedIdleConnections(): Promise<number>;
}
