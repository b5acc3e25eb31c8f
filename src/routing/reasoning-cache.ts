/**
 * Server-side memory of reasoning proof per tool call, for clients that drop it.
 *
 * Most Chat clients discard unknown fields (`reasoning_details`, `thinking_blocks`,
 * `extra_content`), and a Messages client has nowhere to keep a Gemini thought signature. When
 * such a client replays its assistant tool-call turn, the provider that produced it wants the
 * proof back (Anthropic: "Expected thinking block"; Gemini: "missing a thought_signature"). We
 * keep what the answer carried, keyed by tool-call id, and put it back on the replay.
 *
 * Each service key sees only what its own answers left (`scope`), as with stored responses: a
 * tool-call id is the upstream's choice, and one key's proof must never be put into another's
 * conversation, even if two upstreams' ids collide.
 *
 * A plain LRU over a Map (insertion order = recency), bounded by entries and by bytes.
 */
import type { ReasoningItem } from '../protocols/hub.js';

export interface CachedTurn {
  /** Provider slug that produced it: proof is only valid for the same provider. */
  slug: string;
  /** Reasoning items that preceded the call in a converted answer. */
  reasoning?: ReasoningItem[];
  /** OpenRouter `reasoning_details` of a passthrough Chat answer, verbatim. */
  reasoningDetails?: unknown[];
  /** Gemini thought signature riding on the call. */
  thoughtSignature?: string;
}

/** The cache as one service key's requests see it. */
export interface ReasoningMemory {
  /** Entries in the whole cache: 0 means nothing can be found, so callers skip their walk. */
  readonly size: number;
  get(callId: string): CachedTurn | undefined;
  set(callId: string, turn: CachedTurn): void;
}

interface Slot {
  turn: CachedTurn;
  bytes: number;
}

export class ReasoningCache implements ReasoningMemory {
  private readonly map = new Map<string, Slot>();
  private readonly scopes = new Map<string, ReasoningMemory>();
  private bytes = 0;
  private readonly maxEntries: number;
  private readonly maxBytes: number;

  constructor(maxEntries = 4096, maxBytes = 32 * 1024 * 1024) {
    this.maxEntries = maxEntries;
    this.maxBytes = maxBytes;
  }

  get size(): number {
    return this.map.size;
  }

  /** The view of one scope (a service key's id), made once per scope. */
  scope(scope: string): ReasoningMemory {
    let view = this.scopes.get(scope);
    if (!view) this.scopes.set(scope, (view = new ScopedMemory(this, `${scope}\u0000`)));
    return view;
  }

  get(callId: string): CachedTurn | undefined {
    const slot = this.map.get(callId);
    if (!slot) return undefined;
    // refresh recency
    this.map.delete(callId);
    this.map.set(callId, slot);
    return slot.turn;
  }

  set(callId: string, turn: CachedTurn): void {
    const bytes = estimateBytes(callId, turn);
    if (bytes > this.maxBytes) return;
    const old = this.map.get(callId);
    if (old) {
      this.bytes -= old.bytes;
      this.map.delete(callId);
    }
    this.map.set(callId, { turn, bytes });
    this.bytes += bytes;
    while (this.map.size > this.maxEntries || this.bytes > this.maxBytes) {
      const oldest = this.map.keys().next().value as string;
      this.bytes -= this.map.get(oldest)!.bytes;
      this.map.delete(oldest);
    }
  }
}

class ScopedMemory implements ReasoningMemory {
  constructor(
    private readonly cache: ReasoningCache,
    private readonly prefix: string,
  ) {}

  get size(): number {
    return this.cache.size;
  }

  get(callId: string): CachedTurn | undefined {
    return this.cache.get(this.prefix + callId);
  }

  set(callId: string, turn: CachedTurn): void {
    this.cache.set(this.prefix + callId, turn);
  }
}

function estimateBytes(callId: string, turn: CachedTurn): number {
  let n = 64 + callId.length * 2 + (turn.thoughtSignature?.length ?? 0) * 2;
  if (turn.reasoning) {
    for (const r of turn.reasoning) {
      n += 64 + r.text.length * 2;
      const o = r.origin;
      if (o.kind === 'anthropic') n += o.signature.length * 2;
      else if (o.kind === 'anthropic_redacted') n += o.data.length * 2;
      else if (o.kind === 'openai') n += (o.id.length + o.encryptedContent.length) * 2;
      else if (o.kind === 'openrouter') n += JSON.stringify(o.details).length * 2;
    }
  }
  if (turn.reasoningDetails) n += JSON.stringify(turn.reasoningDetails).length * 2;
  return n;
}
