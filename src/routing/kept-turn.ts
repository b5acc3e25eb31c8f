/**
 * One Responses request and the answers the daemon keeps (response-store.ts): a previous_response_id
 * or item_reference naming a kept answer is resolved into the request before it is read, and the
 * converted answer is kept in its turn (unless the request says store: false). Everything is in
 * the scope of the request's service key.
 */
import type { ResponseContext } from '../protocols/codec.js';
import { badRequest } from '../protocols/errors.js';
import { mayContain } from '../protocols/lazy-json.js';
import { inputItems, type ResponseStore } from './response-store.js';

type Obj = Record<string, unknown>;

export class KeptTurn {
  /** The kept answer this request goes on from (its previous_response_id). */
  private previous: string | undefined;
  /** This request's own bytes, when its answer is to be kept: its `input` is what it adds. */
  private request: Buffer | undefined;
  /** OpenAI's id the conversation was read for (goOn): the answer says it went on from it. */
  private echoed: string | undefined;

  constructor(
    private readonly store: ResponseStore,
    private readonly scope: string,
  ) {}

  /**
   * The body again with the kept conversation it names put in front of its input and the item
   * references to kept items replaced (every target gets it so, OpenAI too), or undefined when it
   * names nothing kept. An id or reference the daemon did not keep is left for OpenAI (policy.ts).
   */
  resolve(body: Obj, raw: Buffer): Buffer | undefined {
    const named = typeof body.previous_response_id === 'string' && body.previous_response_id !== '' ? body.previous_response_id : undefined;
    const earlier = named === undefined ? undefined : this.store.conversation(this.scope, named);
    if (earlier) this.previous = named;
    else if (named !== undefined) {
      // kept, but a link before it is gone: neither rebuilt here nor OpenAI's to look up
      const missing = this.store.missingLink(this.scope, named);
      if (missing !== undefined) {
        throw badRequest(
          'previous_response_not_found',
          `previous_response_id ${named} is kept, but ${missing}, which it went on from, was deleted (or dropped to make room), so its conversation cannot be rebuilt; send the conversation in full.`,
          'previous_response_id',
        );
      }
    }
    if (body.store !== false) this.request = raw;
    // the bytes say whether a large input could hold a reference before it is parsed
    const refs = mayContain(body, 'input', 'item_reference') && Array.isArray(body.input) && body.input.some((i) => (i as Obj | null)?.type === 'item_reference');
    if (!earlier && !refs) return undefined;
    // plain JSON, no lazy members: the whole body is written again
    const whole = JSON.parse(raw.toString('utf8')) as Obj;
    let changed = earlier !== undefined;
    // an item_reference to an item of a kept answer (the AI SDK sends them while store is on)
    // becomes that item; the chain's own references too
    const input = [...(earlier ?? []), ...inputItems(whole.input)].map((item) => {
      const ref = item as Obj;
      if (ref?.type !== 'item_reference' || typeof ref.id !== 'string') return item;
      const found = this.store.item(this.scope, ref.id);
      if (found === undefined) return item;
      changed = true;
      return found;
    });
    if (!changed) return undefined;
    whole.input = input;
    // an id not kept here stays for OpenAI (or goOn), though references were resolved
    if (earlier) delete whole.previous_response_id;
    return Buffer.from(JSON.stringify(whole));
  }

  /** The previous_response_id this request names when the daemon did not keep it (OpenAI's, or gone). */
  unkept(body: Obj): string | undefined {
    const named = body.previous_response_id;
    return typeof named === 'string' && named !== '' && this.previous === undefined ? named : undefined;
  }

  /**
   * The body again going on from `conversation`, read from OpenAI for the id it names: its input is
   * that conversation followed by its own, and its kept answer holds it all (there is no kept link to
   * follow) while it still says which id it went on from.
   */
  goOn(id: string, conversation: readonly unknown[], raw: Buffer): Buffer {
    const whole = JSON.parse(raw.toString('utf8')) as Obj;
    whole.input = [...conversation, ...inputItems(whole.input)];
    delete whole.previous_response_id;
    const body = Buffer.from(JSON.stringify(whole));
    this.echoed = id;
    if (this.request) this.request = body;
    return body;
  }

  /** What the converted answer says of this (`store`, `previous_response_id`), and where it is kept. */
  context(ctx: ResponseContext): ResponseContext {
    const previous = this.previous ?? this.echoed;
    if (previous !== undefined) ctx.previousResponseId = previous;
    // an upstream that reuses its ids (Ollama's come from 0–998) must not replace a kept answer
    ctx.idTaken = (id) => this.store.has(this.scope, id);
    if (this.request) {
      ctx.kept = true;
      ctx.onFinal = (response) => this.keep(response);
    }
    return ctx;
  }

  /** Keep a converted answer, when its request is kept; false when it was to be kept and could not be (too large). */
  keep(response: Obj): boolean {
    if (!this.request || typeof response.id !== 'string') return true;
    return this.store.put(this.scope, response.id, this.previous, this.request, response);
  }
}
