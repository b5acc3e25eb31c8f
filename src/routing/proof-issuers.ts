/**
 * Which custom endpoint issued an Anthropic-format thinking signature, for the signatures this
 * daemon relayed.
 *
 * A thinking block's signature looks the same whoever wrote it: Anthropic, or a custom endpoint
 * of format b (GLM, MiniMax, Kimi …, Anthropic-compatible APIs with thinking of their own). Sent
 * to Anthropic, another model's signature is a 400 ("Invalid `signature` in `thinking` block",
 * reported when a session moves from GLM to Claude: anomalyco/opencode#6418), and the reverse is
 * no better. So each signature a custom Messages endpoint answers with is remembered with its
 * slug, and a signature remembered as one endpoint's never goes to another provider: the block is
 * removed (and with it, for a pending tool turn, thinking for that request).
 *
 * Anthropic's own signatures are not remembered: they stay valid across Anthropic's platforms, and
 * a daemon that only ever talks to Anthropic pays nothing here. Bounded LRU keyed by a SHA-256 of
 * the signature; the daemon keeps it in the state dir across restarts (daemon/issuers-file.ts),
 * since a conversation outlives the daemon that relayed it.
 */
import { createHash } from 'node:crypto';
import type { Item, OutputItem, ReasoningOrigin } from '../protocols/hub.js';
import { rewriteAssistantBlocks } from '../protocols/messages/index.js';
import { mayContain } from '../protocols/lazy-json.js';
import type { ProviderAdapter } from '../providers/types.js';
import { isObject } from '../util/is-object.js';

function keyOf(signature: string): string {
  return createHash('sha256').update(signature).digest('base64');
}

/** One remembered signature: its key (base64 SHA-256) and the slug that issued it. */
export type IssuerEntry = readonly [key: string, slug: string];

export class ProofIssuers {
  private readonly map = new Map<string, string>();
  private readonly maxEntries: number;
  private changes = 0;

  constructor(maxEntries = 8192) {
    this.maxEntries = maxEntries;
  }

  get size(): number {
    return this.map.size;
  }

  /** Grows with every record: a saver compares it with the one it last wrote. */
  get version(): number {
    return this.changes;
  }

  /** `slug` answered with this signature. */
  record(signature: string, slug: string): void {
    if (signature === '') return;
    this.remember(keyOf(signature), slug);
  }

  /** Every entry, least recently recorded first (the order `restore` takes them in). */
  entries(): IssuerEntry[] {
    return [...this.map];
  }

  /** Put back entries saved earlier, older than anything recorded since (it is called at start). */
  restore(entries: Iterable<IssuerEntry>): void {
    const recent = [...this.map];
    this.map.clear();
    for (const [key, slug] of entries) this.remember(key, slug);
    for (const [key, slug] of recent) this.remember(key, slug);
  }

  private remember(key: string, slug: string): void {
    this.map.delete(key);
    this.map.set(key, slug);
    if (this.map.size > this.maxEntries) this.map.delete(this.map.keys().next().value as string);
    this.changes++;
  }

  /** The signature is known to be another provider's than `slug`'s. */
  foreignTo(signature: string, slug: string): boolean {
    if (this.map.size === 0) return false;
    const issuer = this.map.get(keyOf(signature));
    return issuer !== undefined && issuer !== slug;
  }
}

type Obj = Record<string, unknown>;

/** Whether a provider's thinking signatures are remembered: a Messages-speaking one that is not Anthropic. */
export function remembersSignatures(adapter: Pick<ProviderAdapter, 'kind' | 'dialect'>): boolean {
  return adapter.dialect === 'messages' && adapter.kind !== 'anthropic';
}

/** Remember the signatures of a whole Messages answer's thinking blocks. */
export function recordMessagesAnswer(issuers: ProofIssuers, slug: string, answer: Obj): void {
  if (!Array.isArray(answer.content)) return;
  for (const block of answer.content) {
    if (isObject(block) && block.type === 'thinking' && typeof block.signature === 'string') issuers.record(block.signature, slug);
  }
}

/** Remember the signature an answer's reasoning carried, in hub form. */
export function recordOrigin(issuers: ProofIssuers, slug: string, origin: ReasoningOrigin): void {
  if (origin.kind === 'anthropic') issuers.record(origin.signature, slug);
}

/** The same for every reasoning item of a converted whole answer. */
export function recordOutput(issuers: ProofIssuers, slug: string, output: readonly OutputItem[]): void {
  for (const item of output) if (item.type === 'reasoning') recordOrigin(issuers, slug, item.origin);
}

/**
 * Remove from a Messages request body the thinking blocks whose signature is known to be another
 * provider's than `slug`'s, and assistant turns left empty. Returns true when it removed one.
 */
export function dropForeignThinking(body: Obj, issuers: ProofIssuers, slug: string): boolean {
  if (issuers.size === 0 || !mayContain(body, 'messages', 'thinking')) return false;
  return rewriteAssistantBlocks(body, (block) =>
    block.type === 'thinking' && typeof block.signature === 'string' && issuers.foreignTo(block.signature, slug) ? [] : undefined,
  );
}

/**
 * The same for a Chat request body (passthrough to OpenRouter and the other Chat providers): a
 * Chat client carries Anthropic-format proof in `reasoning_details` and `thinking_blocks`; entries
 * signed by another provider are removed (the text stays in `reasoning_content` / `reasoning`).
 */
export function dropForeignChatReasoning(body: Obj, issuers: ProofIssuers, slug: string): boolean {
  if (issuers.size === 0 || !mayContain(body, 'messages', 'signature') || !Array.isArray(body.messages)) return false;
  const foreign = (entry: unknown): boolean => isObject(entry) && typeof entry.signature === 'string' && issuers.foreignTo(entry.signature, slug);
  let changed = false;
  for (const m of body.messages) {
    if (!isObject(m) || m.role !== 'assistant') continue;
    for (const field of ['reasoning_details', 'thinking_blocks'] as const) {
      const list = m[field];
      if (!Array.isArray(list) || !list.some(foreign)) continue;
      const kept = list.filter((entry) => !foreign(entry));
      if (kept.length > 0) m[field] = kept;
      else delete m[field];
      changed = true;
    }
  }
  return changed;
}

/** Hub items without the reasoning whose Anthropic-format proof is another provider's (copy-on-write). */
export function withoutForeignProof(items: Item[], issuers: ProofIssuers, slug: string): Item[] {
  if (issuers.size === 0) return items;
  const foreign = (item: Item): boolean => item.type === 'reasoning' && item.origin.kind === 'anthropic' && issuers.foreignTo(item.origin.signature, slug);
  return items.some(foreign) ? items.filter((item) => !foreign(item)) : items;
}
