/**
 * Responses svc-proxy answered itself (converted for a Responses client), kept so a later request
 * can name one as its `previous_response_id`, and a client can read it again (`GET /responses/{id}`,
 * its input items) or delete it, as OpenAI's own API allows. OpenAI resolves the ids it issued; for
 * any other model nobody would, so the daemon keeps what each answer added to the conversation —
 * the request's own input items and the answer as its client got it — and a chain is the
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
/** After an answer's expiry, before it is swept: one wake-up takes those that expire together. */
const SWEEP_SLACK_MS = 1000;

interface Stored {
  previous: string | undefined;
  /** The request's body as the client sent it: its `input` is what it added. */
  request: Buffer;
  /** The answer as its client got it (a Response object), as JSON: its `output` is what it added. */
  answer: string;
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
  /** Wakes when the least recently used answer expires (unref'd: it keeps no process alive). */
  private sweepTimer: NodeJS.Timeout | undefined;
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
   * on with) and the answer (whose `output` it goes on with). Answers and their items are found only
   * in their own `scope` (routing's is the service key). False when it is too large to keep.
   */
  put(scope: string, responseId: string, previous: string | undefined, request: Buffer, answer: Obj): boolean {
    const id = scoped(scope, responseId);
    const json = JSON.stringify(answer);
    const bytes = request.length + json.length;
    if (bytes > this.limits.bytes) return false;
    this.drop(id);
    // a copy of its own: a body read in one piece may be a view of a larger socket buffer
    const own = Buffer.allocUnsafeSlow(request.length);
    request.copy(own);
    const items: string[] = [];
    for (const item of outputOf(answer)) {
      const itemId = typeof item === 'object' && item !== null ? (item as Obj).id : undefined;
      if (typeof itemId !== 'string') continue;
      const key = scoped(scope, itemId);
      items.push(key);
      this.itemIndex.set(key, id);
    }
    this.entries.set(id, { previous: previous === undefined ? undefined : scoped(scope, previous), request: own, answer: json, bytes, usedAt: this.now(), items });
    this.bytes += bytes;
    this.evict();
    this.scheduleSweep();
    return true;
  }

  /**
   * The whole conversation up to and including this answer, oldest first, as it goes to a model;
   * undefined when the id or a link of its chain is not (or no longer) kept. Every link counts as used.
   */
  conversation(scope: string, responseId: string): unknown[] | undefined {
    return this.chain(scope, responseId)?.flatMap((l) => [...inputItems(requestOf(l).input), ...outputOf(JSON.parse(l.answer) as Obj).map(replayed)]);
  }

  /**
   * For an answer that is kept but whose chain is not whole: the id of the first link missing (an
   * answer it went on from was deleted or dropped); undefined otherwise.
   */
  missingLink(scope: string, responseId: string): string | undefined {
    const seen = new Set<string>();
    let entry = this.live(scoped(scope, responseId));
    if (!entry) return undefined;
    while (entry.previous !== undefined && !seen.has(entry.previous)) {
      seen.add(entry.previous);
      const next = this.live(entry.previous);
      if (!next) return entry.previous.slice(entry.previous.indexOf('\u0000') + 1);
      entry = next;
    }
    return undefined;
  }

  /** Whether an answer is kept under this id (not counted as a use). */
  has(scope: string, responseId: string): boolean {
    return this.live(scoped(scope, responseId)) !== undefined;
  }

  /** The answer as its client got it, as the JSON it is held in; undefined when not (or no longer) kept. */
  answerJson(scope: string, responseId: string): string | undefined {
    const key = scoped(scope, responseId);
    const entry = this.live(key);
    if (!entry) return undefined;
    this.touch(key, entry);
    return entry.answer;
  }

  /**
   * The items the answer was made from, oldest first, as OpenAI lists them: the chain's before it
   * and its request's own, each with an id (an input item the client sent without one gets one
   * derived from the answer's id and its place, the same on every call) and an item reference
   * replaced by the item it names. When a link of its chain is gone, only its own input is left;
   * undefined when the answer itself is not kept.
   */
  inputItems(scope: string, responseId: string): Obj[] | undefined {
    const own = this.live(scoped(scope, responseId));
    const links = this.chain(scope, responseId) ?? (own ? [own] : undefined);
    if (!links) return undefined;
    const items: Obj[] = [];
    links.forEach((link, n) => {
      const answer = JSON.parse(link.answer) as Obj;
      const answerId = typeof answer.id === 'string' ? answer.id : '';
      inputItems(requestOf(link).input).forEach((item, i) => {
        const ref = item as Obj | null;
        const named = ref?.type === 'item_reference' && typeof ref.id === 'string' ? this.item(scope, ref.id, false) : undefined;
        items.push(listedInput(named ?? item, answerId, i));
      });
      if (n < links.length - 1) for (const item of outputOf(answer)) if (typeof item === 'object' && item !== null) items.push(item as Obj);
    });
    return items;
  }

  /** Forget an answer; false when it was not kept. Answers that went on from it lose their chain. */
  delete(scope: string, responseId: string): boolean {
    const key = scoped(scope, responseId);
    if (!this.live(key)) return false;
    this.drop(key);
    return true;
  }

  /**
   * An output item of a kept answer, by the id an `item_reference` names (without our id unless
   * `replay` is false); undefined when not kept.
   */
  item(scope: string, itemId: string, replay = true): unknown {
    const answer = this.itemIndex.get(scoped(scope, itemId));
    const entry = answer === undefined ? undefined : this.live(answer);
    if (answer === undefined || !entry) return undefined;
    this.touch(answer, entry);
    const found = outputOf(JSON.parse(entry.answer) as Obj).find((i) => typeof i === 'object' && i !== null && (i as Obj).id === itemId);
    return found === undefined || !replay ? found : replayed(found);
  }

  /** The links of a chain, oldest first, each touched; undefined when one is missing or it loops. */
  private chain(scope: string, responseId: string): Stored[] | undefined {
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
    return links.reverse();
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

  /**
   * An expired answer is refused when looked up, but its bytes would stay until the next one is
   * kept: an idle daemon held up to MAX_STORED_BYTES of answers nobody can use any more. So the
   * store looks again when its least recently used answer expires, until it is empty.
   */
  private scheduleSweep(): void {
    if (this.sweepTimer !== undefined) return;
    const oldest = this.entries.values().next().value;
    if (oldest === undefined) return;
    const wait = Math.max(0, oldest.usedAt + this.limits.ttlMs - this.now()) + SWEEP_SLACK_MS;
    this.sweepTimer = setTimeout(() => {
      this.sweepTimer = undefined;
      this.evict();
      this.scheduleSweep();
    }, wait);
    this.sweepTimer.unref();
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

function requestOf(link: Stored): Obj {
  return JSON.parse(link.request.toString('utf8')) as Obj;
}

function outputOf(answer: Obj): unknown[] {
  return Array.isArray(answer.output) ? answer.output : [];
}

const ID_PREFIXES: Readonly<Record<string, string>> = { message: 'msg', function_call: 'fc', function_call_output: 'fco', reasoning: 'rs' };

/**
 * An input item as OpenAI lists it: with an id, a message typed and its text as content parts
 * (input text for the user's side, output text for the assistant's).
 */
function listedInput(item: unknown, answerId: string, index: number): Obj {
  const it: Obj = typeof item === 'object' && item !== null ? { ...(item as Obj) } : { type: 'unknown', value: item };
  if (it.type === undefined && typeof it.role === 'string') it.type = 'message';
  if (typeof it.id !== 'string') {
    const prefix = ID_PREFIXES[String(it.type)] ?? 'item';
    it.id = `${prefix}_${answerId.replace(/^resp_/, '')}_in${index}`;
  }
  if (it.type === 'message') {
    const assistant = it.role === 'assistant';
    if (typeof it.content === 'string') it.content = [assistant ? { type: 'output_text', text: it.content, annotations: [] } : { type: 'input_text', text: it.content }];
    it.status ??= 'completed';
  }
  return it;
}

/** A Responses `input` as items: a string is one user message. */
export function inputItems(input: unknown): unknown[] {
  if (typeof input === 'string') return [{ type: 'message', role: 'user', content: input }];
  return Array.isArray(input) ? input : [];
}
