/**
 * The contract every dialect folder (chat/, responses/, messages/) implements. Codecs are pure:
 * objects in, objects or SSE text out; no I/O, no config. Bad client input throws ProtocolError
 * (a clean 4xx), never anything else.
 */
import type { AppliedContextEdit, HubEvent, HubRequest, HubResponse, ReasoningOrigin } from './hub.js';
import type { SseEvent } from './sse.js';
import type { ResponseEcho } from './responses/request-echo.js';

/** What the target accepts, decided by the provider adapter (codecs know no provider names). */
export interface EncodeRequestOptions {
  /** Which reasoning origins the target can take back in history; others are dropped. */
  replayReasoning: ReadonlyArray<ReasoningOrigin['kind']>;
  /** Chat targets: role used for system prompts (most non-OpenAI servers only know `system`). */
  systemRole?: 'system' | 'developer';
  /**
   * Chat targets: a system message from the middle of the conversation stays where it stood;
   * without, its text joins the leading system message (for servers that keep one system text).
   */
  systemInPlace?: boolean;
  /** Chat targets: which output cap field to send. */
  maxTokensField?: 'max_tokens' | 'max_completion_tokens';
  /** Chat targets: a document may go by URL in `file.file_data` (the target fetches it); else only its data. */
  fileUrls?: boolean;
  /** Chat targets: echo Gemini thought signatures on tool calls (extra_content.google.thought_signature). */
  thoughtSignatures?: boolean;
  /** Messages targets: max_tokens to send when the client gave none (Anthropic requires one). */
  defaultMaxTokens?: number;
  /**
   * Chat targets: replayed unsigned reasoning goes in `reasoning_content` as well as `reasoning`,
   * for servers that read only the older field (written here, not by a pass over the messages after).
   */
  reasoningContentToo?: boolean;
  /**
   * Chat targets: the verbosity hint goes as top-level `verbosity` (OpenRouter takes it; generic
   * servers do not know it, and strict ones refuse unknown fields).
   */
  verbosity?: boolean;
  /**
   * Chat targets: how many stop sequences the target takes (OpenAI's Chat: 4, the default); the
   * rest are held by routing (stops-left-out.ts).
   */
  maxStops?: number;
  /** Keep cache_control hints (Messages targets; Chat targets that take them on content parts: OpenRouter). */
  keepCacheControl?: boolean;
  /**
   * Messages targets: when the client marked nothing to cache, ask for automatic caching (the
   * top-level `cache_control`), as OpenAI caches a repeated prefix without being asked — for a
   * conversation or a request with tools, whose prefix the next turn sends again.
   */
  automaticCache?: boolean;
}

/** How to read an upstream's answer, decided by the provider adapter (codecs know no model families). */
export interface DecodeOptions {
  /**
   * Chat upstreams: the model's chat template ends the prompt with `<think>`, so the content starts
   * inside a reasoning block and only its `</think>` comes (chat/think-tags.ts).
   */
  startsInsideThink?: boolean;
  /**
   * The time (epoch ms) an error's wait is counted from: Google's per-day quota waits for midnight
   * Pacific time (google-retry-info.ts). A parameter, so decoders hold no clock; without it an
   * error's wait is only what its body states.
   */
  now?: () => number;
}

/** Context for rendering an answer to the client. */
export interface ResponseContext {
  /** Model id shown to the client, e.g. "anthropic/claude-sonnet-4-5". */
  model: string;
  /** Chat streams: the client asked for stream_options.include_usage (we always ask upstream). */
  includeUsage?: boolean;
  /**
   * Chat: the client declared the deprecated `functions` (not `tools`), so it reads a call from
   * `message.function_call` / `delta.function_call` and `finish_reason: "function_call"`.
   */
  legacyFunctions?: boolean;
  /** Unix seconds used for created fields; injected so codecs stay deterministic in tests. */
  created?: number;
  /** Id generator seed/prefix for synthesised ids (deterministic in tests). */
  idSuffix?: string;
  /**
   * Messages: the client asked `thinking.display: "omitted"`. Thinking blocks go out with empty
   * text, as Anthropic sends them then; their signature still carries what the provider needs back.
   */
  omitThinking?: boolean;
  /**
   * Messages: the client turned thinking off (`thinking.type: "disabled"`). No thinking block goes
   * out, as Anthropic answers then; routing keeps signed reasoning for the tool call it led to
   * (reasoning-continuity.ts), so the next turn still gives the provider its reasoning back.
   */
  hideThinking?: boolean;
  /**
   * Responses streams: the final response object (completed or incomplete), once rendered and
   * before it goes out; false when the answer meant to be kept could not be (its final event then
   * says `store: false`).
   */
  onFinal?: (response: Record<string, unknown>) => boolean;
  /**
   * Responses: whether a response id is already in use (an answer kept under it); an upstream id
   * that would make a taken one is not reused (responses/ids.ts).
   */
  idTaken?: (responseId: string) => boolean;
  /**
   * Messages and Responses: whether a call id is one of the request's conversation. A new call
   * reusing one (a model that numbers its calls per turn) goes out with a fresh id (call-id-reuse.ts).
   */
  callIdTaken?: (callId: string) => boolean;
  /** Responses: the answer is kept for a later previous_response_id (its `store` says so). */
  kept?: boolean;
  /** Responses: the previous_response_id the request named, echoed as OpenAI does. */
  previousResponseId?: string;
  /** Responses: the request's parameters, stated again in the response object as OpenAI does. */
  echo?: ResponseEcho;
  /** Messages: the context edits applied to the converted request, reported as Anthropic does. */
  contextEdits?: AppliedContextEdit[];
}

export interface StreamDecoder {
  /** Feed one upstream SSE event; returns the hub events it produced (often zero or one). */
  push(event: SseEvent): HubEvent[];
  /**
   * The upstream body ended. Returns closing events: nothing if the stream already finished,
   * else a final `error` event (stream cut short).
   */
  end(): HubEvent[];
}

export interface StreamEncoder {
  /** Render one hub event as SSE text for the client ('' when it maps to nothing). */
  encode(event: HubEvent): string;
}

export interface DialectCodec {
  decodeRequest(body: unknown): HubRequest;
  encodeRequest(req: HubRequest, opts: EncodeRequestOptions): Record<string, unknown>;
  decodeResponse(body: unknown, opts?: DecodeOptions): HubResponse;
  encodeResponse(res: HubResponse, ctx: ResponseContext): Record<string, unknown>;
  createStreamDecoder(opts?: DecodeOptions): StreamDecoder;
  createStreamEncoder(ctx: ResponseContext): StreamEncoder;
}
