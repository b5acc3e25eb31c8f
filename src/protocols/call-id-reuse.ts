/**
 * Models that number their calls per turn repeat ids across a conversation (Kimi's `list_dir:0`,
 * vllm-project/vllm#50295). A call that reuses the id of an earlier, answered call is a new call:
 * it and its result get a fresh hub id (`<id>_2`, `_3` …), since Anthropic wants tool_use ids and
 * OpenAI's Responses API call ids unique in a request. The first use keeps its id, and a history
 * sent again gets the same ids again, so a cached prefix stays the same.
 */
import type { Item } from './hub.js';

export class CallIdReuse {
  private readonly used = new Set<string>();
  /**
   * Per client id, the suffix to try first: those below it are taken for good (ids are only ever
   * added), so a session of hundreds of `list_dir:0` stays linear instead of trying `_2` … each time.
   */
  private readonly next = new Map<string, number>();

  /**
   * `taken`: ids held besides those given here. An answer's calls go to a Messages or Responses
   * client under the id a decoder would give them next turn, not one its conversation has, so
   * the client's history stays valid for a provider that wants ids unique (Claude Code taking a
   * Kimi session to Claude, Codex to OpenAI).
   */
  constructor(private readonly taken?: (id: string) => boolean) {}

  /** The hub id for the next call the client names `clientId`. */
  idFor(clientId: string): string {
    let id = clientId;
    if (this.isTaken(id)) {
      let n = this.next.get(clientId) ?? 2;
      for (id = `${clientId}_${n}`; this.isTaken(id); ) id = `${clientId}_${++n}`;
      this.next.set(clientId, n + 1);
    }
    this.used.add(id);
    return id;
  }

  /** Whether `idFor` gave this id. */
  gave(id: string): boolean {
    return this.used.has(id);
  }

  private isTaken(id: string): boolean {
    return this.used.has(id) || (this.taken !== undefined && this.taken(id));
  }
}

/** Whether an id is that of one of `items`' calls; the set is made at the first question (an answer without calls asks none). */
export function callIdsOf(items: readonly Item[]): (id: string) => boolean {
  let ids: Set<string> | undefined;
  return (id) => {
    if (ids === undefined) {
      ids = new Set();
      for (const item of items) if (item.type === 'function_call') ids.add(item.callId);
    }
    return ids.has(id);
  };
}

const asIs = (id: string): string => id;

/**
 * How an answer's calls are named to the client, in order: a fresh id for one that takes an id of
 * the conversation (`taken`, from callIdsOf), else the id as it came; as it came when no
 * conversation is known.
 */
export function answerCallIds(taken: ((id: string) => boolean) | undefined): (id: string) => string {
  if (taken === undefined) return asIs;
  const reuse = new CallIdReuse(taken);
  return (id) => reuse.idFor(id);
}
