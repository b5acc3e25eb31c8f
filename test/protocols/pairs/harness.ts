/**
 * The conversion pairs and how one hop through them runs, the way routing does it: the client's
 * codec decodes, the target codec encodes with the provider adapter's own EncodeRequestOptions
 * (imported from src/providers, so these goldens follow the adapters), and answers go back the
 * other way. Provider quirks applied after encoding (effort fields, Gemini schema sanitising,
 * sampling fixes: `finalizeBody`) and routing's own steps (tool-name shortening, the reasoning
 * cache) are not part of a codec pair and are tested where they live.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { DialectCodec, EncodeRequestOptions, ResponseContext } from '../../../src/protocols/codec.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { Dialect } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { anthropicAdapter } from '../../../src/providers/anthropic.js';
import { customChatAdapter } from '../../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../../src/providers/custom-messages.js';
import { geminiAdapter } from '../../../src/providers/gemini.js';
import { localAdapter } from '../../../src/providers/local.js';
import { openaiAdapter } from '../../../src/providers/openai.js';
import { openrouterAdapter } from '../../../src/providers/openrouter.js';
import type { ProviderAdapter } from '../../../src/providers/types.js';
import { decodeChunks, plain, relayChunks } from '../shared/helpers.js';

export const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), 'fixtures');

export const CODECS: Readonly<Record<Dialect, DialectCodec>> = { chat: chatCodec, responses: responsesCodec, messages: messagesCodec };

/** Every cross pair: client dialect → upstream dialect (same dialect is passthrough, not conversion). */
export const PAIRS: ReadonlyArray<{ client: Dialect; upstream: Dialect; dir: string }> = (
  [
    ['chat', 'messages'],
    ['chat', 'responses'],
    ['responses', 'chat'],
    ['responses', 'messages'],
    ['messages', 'chat'],
    ['messages', 'responses'],
  ] as const
).map(([client, upstream]) => ({ client, upstream, dir: `${client}-to-${upstream}` }));

const ADAPTERS: Readonly<Record<string, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  'custom-b': customMessagesAdapter,
  openai: openaiAdapter,
  openrouter: openrouterAdapter,
  gemini: geminiAdapter,
  'custom-a': customChatAdapter,
  local: localAdapter,
};

/** `"gemini/gemini-3-pro-preview"` → the adapter (which must speak `upstream`) and the upstream model id. */
export function resolveTarget(target: string, upstream: Dialect): { adapter: ProviderAdapter; model: string; opts: EncodeRequestOptions } {
  const slash = target.indexOf('/');
  const adapter = ADAPTERS[target.slice(0, slash)];
  if (slash < 1 || !adapter) throw new Error(`unknown target ${target}`);
  if (adapter.dialect !== upstream) throw new Error(`target ${target} speaks ${adapter.dialect}, not ${upstream}`);
  const model = adapter.normaliseModelId(target.slice(slash + 1));
  return { adapter, model, opts: adapter.encodeOptions(model) };
}

/** A ProtocolError as a golden records it. */
export interface RecordedError {
  error: { status: number; code: string; message: string; param?: string };
}

export function recordError(err: unknown): RecordedError {
  if (!(err instanceof ProtocolError)) throw err;
  return { error: plain({ status: err.status, code: err.code, message: err.message, param: err.param }) };
}

/** Client request → hub → upstream body for `target` (model rewritten as routing does). */
export function convertRequest(client: Dialect, upstream: Dialect, target: string, body: unknown): Record<string, unknown> {
  const { model, opts } = resolveTarget(target, upstream);
  const hub = CODECS[client].decodeRequest(structuredClone(body));
  return plain(CODECS[upstream].encodeRequest({ ...hub, model }, opts));
}

/** Upstream answer → hub → the client's answer. */
export function convertResponse(client: Dialect, upstream: Dialect, body: unknown, ctx: ResponseContext): Record<string, unknown> {
  const hub = CODECS[upstream].decodeResponse(structuredClone(body));
  return plain(CODECS[client].encodeResponse(hub, ctx));
}

/** Upstream stream bytes (in the given chunks) → the client's SSE text. */
export function convertStream(client: Dialect, upstream: Dialect, chunks: Iterable<Uint8Array>, ctx: ResponseContext): string {
  return relayChunks(CODECS[upstream].createStreamDecoder(), CODECS[client].createStreamEncoder(ctx), chunks);
}

/** The hub events an upstream stream decodes to (for invariant checks). */
export function upstreamEvents(upstream: Dialect, chunks: Iterable<Uint8Array>) {
  return decodeChunks(CODECS[upstream].createStreamDecoder(), chunks);
}

/** Fixed clock for every golden: 2026-01-01T00:00:00Z. */
export const CREATED = 1767225600;

/**
 * The context routing gives an encoder: the model id the client asked for, usage chunk for Chat
 * clients that want it, thinking text left out for Messages clients that asked `display: "omitted"`.
 */
export function contextFor(client: Dialect, model: string, includeUsage = true, omitThinking = false): ResponseContext {
  if (client === 'chat') return { model, created: CREATED, includeUsage };
  return client === 'messages' && omitThinking ? { model, created: CREATED, omitThinking } : { model, created: CREATED };
}
