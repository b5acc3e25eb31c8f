/**
 * The hub: the one shared model every dialect converts to and from.
 *
 * It is shaped like a Responses item list (messages, reasoning, function calls, function call
 * outputs, in order) because that is the only shape that keeps the order of everything the three
 * dialects can say. Source codec -> hub -> target codec, and back. The hub must lose nothing that
 * matters across a round trip: reasoning with its signature or encrypted content, tool-call ids,
 * cache hints, usage with its cache semantics.
 *
 * Pure types: no I/O, no config.
 */

/** Reasoning effort, lowest to highest. `minimal` from a client is read as `low`. */
export const EFFORTS = ['none', 'low', 'medium', 'high', 'xhigh', 'max'] as const;
export type Effort = (typeof EFFORTS)[number];

export type Dialect = 'chat' | 'responses' | 'messages';

/** Anthropic-style prompt-cache hint, kept for Anthropic targets and stripped elsewhere. */
export interface CacheControl {
  type: 'ephemeral';
  ttl?: '5m' | '1h';
}

// ---------------------------------------------------------------------------------------------
// Content
// ---------------------------------------------------------------------------------------------

export type MediaSource =
  | { kind: 'url'; url: string }
  | { kind: 'base64'; mediaType: string; data: string }
  | { kind: 'file_id'; fileId: string }
  /** Plain-text document (Anthropic `document` with `text` source). */
  | { kind: 'text'; text: string; mediaType?: string };

export interface TextPart {
  type: 'text';
  text: string;
  cacheControl?: CacheControl;
  /** Pages this text cites (an answer's text after a web search). */
  citations?: UrlCitation[];
  /** An answer's text: the log probability of each of its tokens, when the request asked for them. */
  logprobs?: TokenLogprob[];
}

/** The log probability of one output token, with the likeliest tokens at its place. */
export interface TokenLogprob {
  token: string;
  logprob: number;
  /** The token's UTF-8 bytes, where the upstream states them. */
  bytes?: number[];
  /** The likeliest tokens at this place (as many as the request asked), best first. */
  top: Array<{ token: string; logprob: number; bytes?: number[] }>;
}

/**
 * A web page an answer's text cites: Anthropic's `web_search_result_location` (for the whole of
 * its text block), OpenAI's `url_citation` (for a stretch of its text).
 */
export interface UrlCitation {
  url: string;
  title?: string;
  /** The stretch of the part's text it cites, in UTF-16 offsets; absent: all of it. */
  start?: number;
  end?: number;
}

export interface ImagePart {
  type: 'image';
  source: MediaSource;
  /** OpenAI detail hint (auto/low/high/original); dropped where not representable. */
  detail?: string;
  cacheControl?: CacheControl;
}

export interface AudioPart {
  type: 'audio';
  data: string; // base64
  format: string; // wav | mp3 | …
}

export interface FilePart {
  type: 'file';
  source: MediaSource;
  filename?: string;
  title?: string;
  cacheControl?: CacheControl;
}

export interface RefusalPart {
  type: 'refusal';
  text: string;
}

export type ContentPart = TextPart | ImagePart | AudioPart | FilePart | RefusalPart;

// ---------------------------------------------------------------------------------------------
// Reasoning and its proof of origin
// ---------------------------------------------------------------------------------------------

/**
 * Where a piece of reasoning came from and what must be sent back to that provider so it accepts
 * the reasoning on the next turn. A target codec only replays reasoning whose origin it can
 * speak: Anthropic signatures to Messages upstreams, OpenAI encrypted content to Responses
 * upstreams, OpenRouter details to OpenRouter. Everything else is dropped, never turned into text.
 */
export type ReasoningOrigin =
  /** Anthropic thinking block: signature proves it; text may be empty (display: omitted). */
  | { kind: 'anthropic'; signature: string }
  /** Anthropic redacted_thinking block: opaque data, no text. */
  | { kind: 'anthropic_redacted'; data: string }
  /** OpenAI Responses reasoning item, replayable statelessly with its encrypted content. */
  | { kind: 'openai'; id: string; encryptedContent: string }
  /** OpenRouter reasoning_details entries, sent back verbatim. */
  | { kind: 'openrouter'; details: ReadonlyArray<Record<string, unknown>> }
  /**
   * Plain reasoning text from a chat upstream (DeepSeek/vLLM/Ollama style): unsigned. `text` only
   * inside an envelope: the reasoning of a thinking block shown without it (`display: "omitted"`),
   * so providers that want their reasoning back still get it.
   */
  | { kind: 'unsigned'; text?: string };

export interface ReasoningItem {
  type: 'reasoning';
  /** Visible reasoning text or summary; may be empty. Never becomes answer text. */
  text: string;
  origin: ReasoningOrigin;
}

// ---------------------------------------------------------------------------------------------
// Items (the conversation)
// ---------------------------------------------------------------------------------------------

export interface MessageItem {
  type: 'message';
  role: 'user' | 'assistant';
  content: ContentPart[];
  /** Chat `name` on a participant; dropped where not representable. */
  name?: string;
  /** Responses `phase` on assistant output messages (resent for codex models). */
  phase?: string;
}

export interface FunctionCallItem {
  type: 'function_call';
  /** Correlation id, kept verbatim across dialects (call_…, toolu_…). */
  callId: string;
  name: string;
  /** Responses namespace the function belongs to (`name` is then the name inside it). */
  namespace?: string;
  /**
   * JSON text exactly as the model produced it (may be invalid when truncated); for a `freeform`
   * call, the raw input text instead.
   */
  arguments: string;
  /** A call of a freeform tool (see FunctionTool.freeform): `arguments` is the input text, not JSON. */
  freeform?: true;
  /** Gemini 3 thought signature riding on this call (compat: extra_content.google.thought_signature). */
  thoughtSignature?: string;
  cacheControl?: CacheControl;
}

export interface FunctionCallOutputItem {
  type: 'function_call_output';
  callId: string;
  /** Text, or parts (text/image/file) for results that hold media. */
  output: string | ContentPart[];
  isError?: boolean;
  cacheControl?: CacheControl;
}

export type Item = MessageItem | ReasoningItem | FunctionCallItem | FunctionCallOutputItem;

// ---------------------------------------------------------------------------------------------
// Tools, tool choice, output format
// ---------------------------------------------------------------------------------------------

export type JsonSchema = Record<string, unknown>;

/** What a freeform tool's input must look like: any text, or text matching a grammar. */
export type FreeformFormat = { type: 'text' } | { type: 'grammar'; syntax: 'lark' | 'regex'; definition: string };

export interface FunctionTool {
  type: 'function';
  name: string;
  /**
   * Responses `namespace` tool this function was declared in (`name` is the name inside it).
   * Routing folds it into the target-facing name and restores it on the answer; codecs of
   * dialects without namespaces never see it set.
   */
  namespace?: string;
  description?: string;
  /** JSON schema of the arguments; undefined = no arguments (always, for a freeform tool). */
  parameters?: JsonSchema;
  /**
   * A Responses `custom` tool: it takes one free text (in this format) instead of JSON arguments.
   * Only Responses clients produce it; routing turns it into an ordinary function tool for every
   * target and its calls back into freeform calls, so target codecs never see it set.
   */
  freeform?: FreeformFormat;
  strict?: boolean;
  cacheControl?: CacheControl;
}

/** A provider-hosted tool (Responses web_search, file_search, …), passed through only to openai. */
export interface HostedTool {
  type: 'hosted';
  /** The Responses tool object exactly as the client sent it. */
  raw: Record<string, unknown>;
}

/**
 * A web search the provider runs itself: Anthropic's `web_search_*` server tool from a Messages
 * client. Routing lets it reach only targets that can search (openai: Responses `web_search`).
 */
export interface WebSearchTool {
  type: 'web_search';
  /** The name the client calls it by (`web_search`), which its tool_choice may name. */
  name: string;
  allowedDomains?: string[];
  blockedDomains?: string[];
  maxUses?: number;
  userLocation?: { city?: string; region?: string; country?: string; timezone?: string };
  /** How much of the pages OpenAI puts in the model's context (Chat `search_context_size`); Anthropic has no such setting. */
  contextSize?: 'low' | 'medium' | 'high';
}

export type Tool = FunctionTool | HostedTool | WebSearchTool;

export type ToolChoice =
  | { type: 'auto' }
  | { type: 'none' }
  | { type: 'required' }
  /** `namespace` when the client named it; routing otherwise resolves `name` against the tools. */
  | { type: 'function'; name: string; namespace?: string }
  | { type: 'allowed_tools'; mode: 'auto' | 'required'; names: string[] };

export type ResponseFormat =
  | { type: 'text' }
  | { type: 'json_object' }
  | { type: 'json_schema'; name: string; schema: JsonSchema; strict?: boolean; description?: string };

// ---------------------------------------------------------------------------------------------
// Request
// ---------------------------------------------------------------------------------------------

export const SERVICE_TIERS = ['auto', 'default', 'flex', 'scale', 'priority'] as const;
export type ServiceTier = (typeof SERVICE_TIERS)[number];

export interface SystemPart {
  text: string;
  cacheControl?: CacheControl;
  /**
   * A system/developer message met after the conversation began (Chat `messages`, Responses
   * `input`): where it stood (before items[beforeItem]) and its role, for targets that take such
   * turns inline (Responses input, most Chat servers). Others read it as system text, as a leading one.
   * `beforePart`: it stood inside items[beforeItem], a user message merged from two (Messages merges
   * consecutive user messages into one turn), before content[beforePart]; always inside the content.
   */
  inline?: { beforeItem: number; role: 'system' | 'developer'; beforePart?: number };
}

export interface ReasoningRequest {
  /** Normalised effort the client asked for (validated by the codec; policy lowers it per target). */
  effort?: Effort;
  /** Anthropic thinking.budget_tokens from a Messages client. */
  budgetTokens?: number;
  /** Anthropic thinking type as asked by a Messages client. */
  thinkingType?: 'enabled' | 'adaptive' | 'disabled' | 'between_tools';
  /**
   * Anthropic thinking.display. `updates` (beta thinking-display-updates-2026-08-18, sent by
   * Claude Code when it prints a stream, e.g. under the Agent SDK) shows reasoning as it goes:
   * other providers' reasoning is shown as for `summarized`.
   */
  display?: 'summarized' | 'omitted' | 'updates';
  /** Responses reasoning.summary. */
  summary?: 'auto' | 'concise' | 'detailed';
}

export interface HubRequest {
  /** Upstream model id (routing fills it in; codecs read the client's string into it). */
  model: string;
  /** All system/developer texts in order (Chat system/developer messages, Responses instructions, Messages system). */
  system: SystemPart[];
  items: Item[];
  tools: Tool[];
  toolChoice?: ToolChoice;
  parallelToolCalls?: boolean;
  responseFormat?: ResponseFormat;
  /** Output verbosity hint (Responses `text.verbosity`, Chat `verbosity`); dropped where not representable. */
  verbosity?: 'low' | 'medium' | 'high';
  maxOutputTokens?: number;
  temperature?: number;
  topP?: number;
  topK?: number;
  stop?: string[];
  /** Number of choices (Chat `n`); >1 only where the target supports it. */
  n?: number;
  reasoning?: ReasoningRequest;
  /**
   * Log probabilities of the answer's tokens, with this many alternatives at each (0: the chosen
   * token's only). Chat `logprobs` + `top_logprobs`; Responses `top_logprobs` + its `include`.
   */
  logprobs?: number;
  /** Opaque end-user id (Chat `user`/`safety_identifier`, Messages `metadata.user_id`). */
  user?: string;
  metadata?: Record<string, string>;
  /**
   * OpenAI's processing tier (`service_tier`, Chat and Responses alike): it sets the price, so it
   * reaches OpenAI as asked. Other providers have no equivalent (PROTOCOLS.md §5.5, §6.7).
   */
  serviceTier?: ServiceTier;
  /** OpenAI's prompt-cache bucket (`prompt_cache_key`, Chat and Responses alike); OpenAI only. */
  promptCacheKey?: string;
  stream: boolean;
  /** Top-level Anthropic automatic cache_control, when a Messages client sent one. */
  cacheControl?: CacheControl;
  /** Stateful Responses features the proxy cannot serve (checked by routing → 400 unsupported_feature). */
  statefulFeature?: 'previous_response_id' | 'conversation' | 'background';
  /**
   * Context edits a Messages client asked for (`context_management`), as the decoder applied them
   * to `items`; undefined when it asked none. The answer reports them (messages/context-edits.ts).
   */
  contextEdits?: AppliedContextEdit[];
}

/** A context edit applied to a converted request: how many tool uses and input tokens it cleared. */
export interface AppliedContextEdit {
  type: 'clear_tool_uses_20250919';
  clearedToolUses: number;
  clearedInputTokens: number;
}

// ---------------------------------------------------------------------------------------------
// Response (non-streamed)
// ---------------------------------------------------------------------------------------------

export type StopReason =
  | 'end_turn'
  | 'stop_sequence'
  | 'max_tokens'
  | 'tool_use'
  | 'refusal'
  | 'pause_turn'
  | 'context_window_exceeded';

/**
 * Usage with explicit cache semantics. `inputTokens` is the TOTAL prompt size including cache
 * reads and writes (OpenAI's meaning); Anthropic's uncached `input_tokens` is
 * inputTokens - cacheReadTokens - cacheWriteTokens. `outputTokens` includes reasoning.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
  reasoningTokens?: number;
}

/** A page a provider-run web search found. */
export interface WebSource {
  url: string;
  /** The page title, where the provider said it (a citation of it); else undefined. */
  title?: string;
}

/** A web search the provider ran while answering (Responses `web_search_call` of type search). */
export interface WebSearchItem {
  type: 'web_search';
  /** The provider's id of the search. */
  id: string;
  query?: string;
  sources: WebSource[];
  /** The search failed: no sources. */
  failed?: true;
}

export type OutputItem = MessageItem | ReasoningItem | FunctionCallItem | WebSearchItem;

export interface HubResponse {
  id: string;
  /** Model id the upstream reports (e.g. OpenRouter's concrete model), else the one asked for. */
  model: string;
  /** Assistant output in order: reasoning, message text (role assistant), function calls. */
  output: OutputItem[];
  stopReason: StopReason;
  stopSequence?: string;
  usage?: Usage;
  /** Unix seconds. */
  created?: number;
  /** The processing tier the upstream says it served the request in (OpenAI `service_tier`). */
  serviceTier?: string;
}

// ---------------------------------------------------------------------------------------------
// Stream events
// ---------------------------------------------------------------------------------------------

/**
 * Block-oriented stream events. Blocks have a hub index (0,1,2… in order of first appearance).
 * Decoders may interleave deltas of several open blocks (parallel tool calls from a Chat
 * upstream); encoders whose dialect needs strictly sequential blocks (Messages) serialise them.
 */
export type BlockStart =
  | { type: 'text' }
  | { type: 'reasoning'; origin?: ReasoningOrigin }
  /** `freeform`: a call of a freeform tool (set by routing): its arguments deltas are input text. */
  | { type: 'function_call'; callId: string; name: string; namespace?: string; thoughtSignature?: string; freeform?: true }
  | { type: 'refusal' }
  /** A finished web search, whole at its start (its block takes no deltas). */
  | { type: 'web_search'; search: WebSearchItem };

export type HubEvent =
  /** `serviceTier`: the tier the upstream says it serves the request in, as soon as it says it. */
  | { type: 'start'; id?: string; model?: string; usage?: Partial<Usage>; serviceTier?: string }
  | { type: 'block_start'; index: number; block: BlockStart }
  /** `logprobs`: those of the tokens of this piece of text, when the request asked for them. */
  | { type: 'text_delta'; index: number; text: string; logprobs?: TokenLogprob[] }
  | { type: 'refusal_delta'; index: number; text: string }
  | { type: 'reasoning_delta'; index: number; text: string }
  /** Proof of origin for a reasoning block, known at (or near) its end. */
  | { type: 'reasoning_origin'; index: number; origin: ReasoningOrigin }
  /** A piece of a call's JSON arguments (of its input text, when the block is `freeform`). */
  | { type: 'arguments_delta'; index: number; json: string }
  /** A page a text block cites, for the whole of its text (it may come before that text). */
  | { type: 'citation'; index: number; citation: UrlCitation }
  | { type: 'block_stop'; index: number }
  /** Usage as known so far (cumulative; later values win field by field). */
  | { type: 'usage'; usage: Partial<Usage> }
  /** End of the answer. Always the last event of a successful stream. `serviceTier`: the tier it was served in, at last. */
  | { type: 'finish'; stopReason: StopReason; stopSequence?: string; usage?: Partial<Usage>; serviceTier?: string }
  /** Upstream failure after the stream started; always the last event. */
  | { type: 'error'; error: HubError };

/** An error in dialect-neutral form; renderers map `status` to each dialect's `type`. */
export interface HubError {
  status: number;
  /** Stable svc-proxy code (e.g. upstream_error, invalid_reasoning). */
  code: string;
  message: string;
  param?: string;
  /**
   * Rate-limit headers the upstream's error repeats in its body, as sent (OpenRouter's
   * `error.metadata.headers`): inside a stream, the only word of when its limit resets.
   */
  limitHeaders?: Readonly<Record<string, unknown>>;
  /** The wait the upstream's error states in its body (Google's RetryInfo), in milliseconds. */
  statedWaitMs?: number;
  /** Messages `error.details`: the machine-readable cause the Anthropic SDK acts on (`error_code`, …). */
  details?: Readonly<Record<string, unknown>>;
}
