/**
 * Responses svc-proxy answered itself (converted for a Responses client), kept so a later request
 * can name one as its `previous_response_id`, as OpenAI's own API allows. OpenAI resolves the ids
 * it issued; for any other model nobody would, so the daemon keeps what each answer added to the
 * conversation — the request's own input items and the answer's output items — and a chain is the
 * concatenation of its links, oldest first. In memory only, bounded: the least recently used go
 * first past MAX_STORED_RESPONSES or MAX_STORED_BYTES, and an answer unused for STORED_RESPONSE_TTL_MS
 * is forgotten. A request with `store: false` is not kept, as on OpenAI.
 *
 * Kept as bytes, read only when a chain is used: most clients never name a previous response (they
 * send the whole conversation each time) and would otherwise pay a parse and hold a heap of objects
 * two to three times their JSON's size; a request's bytes are already there, and the bound counts
 * what is held.
 */

export const MAX_STORED_RESPONSES = 1000;
export const MAX_STORED_BYTES = 16 * 1024 * 1024;
export const STORED_RESPONSE_TTL_MS = 60 * 60 * 1000;

interface Stored {
  previous: string | undefined;
  /** The request's body as the client sent it: its `input` is what it added. */
  request: Buffer;
  /** The answer's output items, as JSON. */
  output: string;
  bytes: number;
  usedAt: number;
  /** Its output items' keys in the item index. */
  items: string[];
}

type Obj = Record<string, unknown>;

/**
 * An item as it goes back into a conversation: item ids are ours, known to no provider (one that
 * keeps responses, OpenAI, would look them up); a reasoning item keeps its id, which its encrypted
 * proof goes with.
 */
function replayed(item: unknown): unknown {
  if (typeof item !== 'object' || item === null || (item as Obj).type === 'reasoning' || !('id' in item)) return item;
  const { id: _ours, ...rest } = item as Obj;
  return rest;
}

function scoped(scope: string, id: string): string {
  return `${scope}\u0000${id}`;
}

export class ResponseStore {
  /** Insertion order is use order: the first entry is the least recently used. */
  private readonly entries = new Map<string, Stored>();
  /** Output items by scope and id → the key of the answer that holds them (an item_reference names one). */
  private readonly itemIndex = new Map<string, string>();
  private bytes = 0;
  private readonly now: () => number;
  private readonly limits: { count: number; bytes: number; ttlMs: number };

  constructor(opts: { now?: () => number; count?: number; bytes?: number; ttlMs?: number } = {}) {
    this.now = opts.now ?? Date.now;
    this.limits = { count: opts.count ?? MAX_STORED_RESPONSES, bytes: opts.bytes ?? MAX_STORED_BYTES, ttlMs: opts.ttlMs ?? STORED_RESPONSE_TTL_MS };
  }

  get size(): number {
    return this.entries.size;
  }

  /**
   * Keep an answer after `previous`: the body of its request (whose `input` the conversation goes
   * on with) and its output items. Answers and their items are found only in their own `scope`
   * (routing's is the service key).
   */
  put(scope: string, responseId: string, previous: string | undefined, request: Buffer, output: readonly unknown[]): void {
    const id = scoped(scope, responseId);
    const json = JSON.stringify(output);
    const bytes = request.length + json.length;
    if (bytes > this.limits.bytes) return;
    this.drop(id);
    // a copy of its own: a body read in one piece may be a view of a larger socket buffer
    const own = Buffer.allocUnsafeSlow(request.length);
    request.copy(own);
    const items: string[] = [];
    for (const item of output) {
      const itemId = typeof item === 'object' && item !== null ? (item as Obj).id : undefined;
      if (typeof itemId !== 'string') continue;
      const key = scoped(scope, itemId);
      items.push(key);
      this.itemIndex.set(key, id);
    }
    this.entries.set(id, { previous: previous === undefined ? undefined : scoped(scope, previous), request: own, output: json, bytes, usedAt: this.now(), items });
    this.bytes += bytes;
    this.evict();
  }

  /**
   * The whole conversation up to and including this answer, oldest first; undefined when the id or
   * a link of its chain is not (or no longer) kept. Every link counts as used.
   */
  conversation(scope: string, responseId: string): unknown[] | undefined {
    const links: Stored[] = [];
    const seen = new Set<string>();
    for (let at: string | undefined = scoped(scope, responseId); at !== undefined; ) {
      const entry = this.live(at);
      if (!entry || seen.has(at)) return undefined;
      seen.add(at);
      links.push(entry);
      this.touch(at, entry);
      at = entry.previous;
    }
    return links.reverse().flatMap((l) => [...inputItems((JSON.parse(l.request.toString('utf8')) as { input?: unknown }).input), ...(JSON.parse(l.output) as unknown[]).map(replayed)]);
  }

  /** An output item of a kept answer, by the id an `item_reference` names; undefined when not kept. */
  item(scope: string, itemId: string): unknown {
    const answer = this.itemIndex.get(scoped(scope, itemId));
    const entry = answer === undefined ? undefined : this.live(answer);
    if (answer === undefined || !entry) return undefined;
    this.touch(answer, entry);
    const found = (JSON.parse(entry.output) as unknown[]).find((i) => typeof i === 'object' && i !== null && (i as Obj).id === itemId);
    return found === undefined ? undefined : replayed(found);
  }

  private live(id: string): Stored | undefined {
    const entry = this.entries.get(id);
    if (entry && this.now() - entry.usedAt > this.limits.ttlMs) {
      this.drop(id);
      return undefined;
    }
    return entry;
  }

  private touch(id: string, entry: Stored): void {
    entry.usedAt = this.now();
    this.entries.delete(id);
    this.entries.set(id, entry);
  }

  private drop(id: string): void {
    const old = this.entries.get(id);
    if (!old) return;
    this.entries.delete(id);
    this.bytes -= old.bytes;
    for (const key of old.items) if (this.itemIndex.get(key) === id) this.itemIndex.delete(key);
  }

  private evict(): void {
    const now = this.now();
    for (const [id, entry] of this.entries) {
      const over = this.entries.size > this.limits.count || this.bytes > this.limits.bytes || now - entry.usedAt > this.limits.ttlMs;
      if (!over) break;
      this.drop(id);
    }
  }
}

/** A Responses `input` as items: a string is one user message. */
export function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}
