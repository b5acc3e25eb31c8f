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

  /** The hub id for the next call the client names `clientId`. */
  idFor(clientId: string): string {
    let id = clientId;
    for (let n = 2; this.used.has(id); n++) id = `${clientId}_${n}`;
    this.used.add(id);
    return id;
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

/**
 * The ids an answer's calls go to a Messages or Responses client with: their own, unless the
 * conversation the request carried has a call of that id already (the same models) — then the id
 * a decoder would give it, so the client's history stays valid for a provider that wants ids unique
 * (Claude Code taking a Kimi session to Claude, Codex to OpenAI).
 */
export class AnswerCallIds {
  private readonly given = new Set<string>();

  constructor(private readonly taken: (id: string) => boolean) {}

  idFor(callId: string): string {
    let id = callId;
    for (let n = 2; this.taken(id) || this.given.has(id); n++) id = `${callId}_${n}`;
    this.given.add(id);
    return id;
  }
}
