/**
 * Seam between routing and providers. A provider adapter knows one upstream's dialect, URLs,
 * auth, effort ceiling, what it accepts and its quirks; routing knows none of those details.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { DecodeOptions, EncodeRequestOptions } from '../protocols/codec.js';
import type { Dialect, Effort } from '../protocols/hub.js';
import type { ModelControls } from './stated-controls.js';

export type ProviderKind = 'anthropic' | 'openai' | 'openrouter' | 'gemini' | 'custom-a' | 'custom-b' | 'local';

/** A provider resolved for one request: which adapter, where, with which credential. */
export interface ResolvedProvider {
  /** What the client wrote before the first slash: builtin name, endpoint slug or local slug. */
  slug: string;
  adapter: ProviderAdapter;
  /** Normalised base URL (defaults and overrides applied, per the adapter's URL rules). */
  baseUrl: string;
  /** Undefined for local servers and credential-less custom endpoints. */
  credential?: string;
}

export type UpstreamOperation = 'generate' | 'models' | 'count_tokens' | 'transcriptions';

export interface FinalizeContext {
  /** Upstream model id (no provider prefix). */
  model: string;
  /** Effort after validation and lowering to the adapter's ceiling; undefined = client asked none. */
  effort?: Effort;
  /** Dialect the client spoke. */
  from: Dialect;
  /** Same dialect in and out: the body is the client's own (only model/effort may change). */
  passthrough: boolean;
  stream: boolean;
  /** The reasoning controls the provider's model list states for the model, when it was listed (stated-controls.ts). */
  stated?: ModelControls;
}

export interface ProviderAdapter {
  kind: ProviderKind;
  /** The dialect this upstream speaks for generation. */
  dialect: Dialect;
  /** Highest effort the provider takes; null = sent as given, never lowered (custom/local). */
  highestEffort: Effort | null;
  accepts: {
    /** Chat `input_audio` parts delivered (else 400 unsupported_modality). */
    inputAudio: boolean;
    /** Responses hosted tools passed through (else 400 unsupported_feature). */
    hostedTools: boolean;
    /**
     * A converted request's web search (Anthropic's server tool from a Messages client, OpenAI's
     * `web_search` from a Responses client) is run by this provider's own search.
     */
    webSearch: boolean;
    /** POST audio/transcriptions forwarded. */
    transcriptions: boolean;
  };
  /**
   * The configured base URL in canonical form (trailing slashes removed; Messages: trailing `/v1`
   * removed; local servers: `/v1` added to a bare root). Registry applies it once per resolve.
   */
  normaliseBaseUrl(url: string): string;
  /** Full URL for an operation (generate may depend on the dialect; count_tokens on the model). */
  url(baseUrl: string, op: UpstreamOperation, model?: string): string;
  /**
   * Headers for an upstream request: auth from the credential plus, for Messages upstreams, the
   * client's anthropic-version / anthropic-beta when it spoke Messages (else a default version).
   * Never copies the client's Authorization, x-api-key or cookies.
   */
  headers(credential: string | undefined, client: IncomingHttpHeaders, from: Dialect): Record<string, string>;
  /** Codec options for encoding a converted request to this upstream. */
  encodeOptions(model: string): EncodeRequestOptions;
  /** Codec options for reading a converted answer from this upstream (none: read as the dialect says). */
  decodeOptions?(model: string): DecodeOptions | undefined;
  /**
   * Put effort and provider quirks into the body about to be sent (encoded or passthrough), in
   * place: e.g. OpenRouter's `reasoning` object, Gemini schema sanitising and reasoning_effort,
   * Anthropic thinking/output_config per model, OpenAI `none` = field left out.
   * Returns the effort value actually sent (for the request log), or undefined when none was sent.
   */
  finalizeBody(body: Record<string, unknown>, ctx: FinalizeContext): { effortSent?: string };
  /** Model ids as the upstream lists them, normalised (Gemini `models/` prefix removed). */
  normaliseModelId(id: string): string;
  /**
   * What to tell the user when nothing listens at the base URL (connection refused): a local
   * server that is not started. None: the plain "could not connect" says it all.
   */
  refusedHint?(baseUrl: string): string | undefined;
}
