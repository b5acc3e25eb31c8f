/**
 * A passthrough Chat body's calls by the ids the Chat decoder gives them in the hub
 * (call-id-reuse.ts): a call that repeats an id of an earlier turn (Kimi's `functions.list_dir:0`,
 * each turn) is `<id>_2`, `_3` … So proof kept for a passthrough answer sits under the same key
 * as a converted one's, and each turn finds its own, not the latest turn's under the shared id.
 */
import { CallIdReuse } from '../protocols/call-id-reuse.js';
import { walkBack } from '../protocols/lazy-json.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

/**
 * Whether an id is the hub id of one of the conversation's calls: the `taken` of answerCallIds
 * for a passthrough answer. Read at the first question, from a copy of the client's body (`fresh`;
 * only its messages with calls are parsed, when it is read lazily): an answer without calls, or
 * with no proof to keep, asks none.
 */
export function chatCallIdsOf(fresh: () => Obj): (id: string) => boolean {
  let ids: Set<string> | undefined;
  return (id) => {
    if (ids === undefined) {
      ids = new Set();
      const withCalls: Obj[] = [];
      walkBack(fresh(), 'messages', ['tool_calls'], (m) => {
        if (isObject(m) && m.role === 'assistant') withCalls.push(m);
        return true;
      });
      const names = new CallIdReuse();
      for (let i = withCalls.length - 1; i >= 0; i--) {
        const calls = withCalls[i]!.tool_calls;
        if (!Array.isArray(calls)) continue;
        for (const tc of calls) if (isObject(tc) && typeof tc.id === 'string') ids.add(names.idFor(tc.id));
      }
    }
    return ids.has(id);
  };
}
