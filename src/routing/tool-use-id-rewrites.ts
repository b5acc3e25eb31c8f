/**
 * The tool_use id rewrites of a Messages body passed through (valid-tool-use-ids.ts,
 * unique-tool-use-ids.ts), and which of them a (service key, target) pair's last request needed.
 * A session taken from Kimi to Claude needs them every turn, and learning them from Anthropic's
 * 400 each time cost a round trip per turn: the pair's next request gets them up front (one scan of
 * its history, for those requests only), and one that did not need them forgets them. Bounded,
 * least recent dropped first; while none is held, a request costs one size check.
 */
import { refusesRepeatedToolUseIds, uniqueToolUseIds } from './unique-tool-use-ids.js';
import { refusesToolUseIdPattern, validToolUseIds } from './valid-tool-use-ids.js';

type Obj = Record<string, unknown>;

/** Rewrites asked of a body, or those that changed one. */
export interface ToolUseIdRewrites {
  /** Ids outside Anthropic's pattern mapped (valid-tool-use-ids.ts). */
  validToolUseIds?: boolean;
  /** Repeated ids renamed (unique-tool-use-ids.ts). */
  uniqueToolUseIds?: boolean;
}

/** Apply the rewrites `asked` to a Messages body in place: those that changed it, or undefined. */
export function rewriteToolUseIds(body: Obj, asked: ToolUseIdRewrites): ToolUseIdRewrites | undefined {
  // mapped first, so repeats are looked for among the ids as they go
  const valid = asked.validToolUseIds === true && validToolUseIds(body);
  const unique = asked.uniqueToolUseIds === true && uniqueToolUseIds(body);
  if (!valid && !unique) return undefined;
  const done: ToolUseIdRewrites = {};
  if (valid) done.validToolUseIds = true;
  if (unique) done.uniqueToolUseIds = true;
  return done;
}

/**
 * A Messages body with its tool_use ids rewritten as `refusal` (the upstream's error, as it came)
 * asks, a copy; undefined when it asks nothing, or nothing that changes the body. For a token
 * count (count-tokens-endpoint.ts), sent again once as a generation would be.
 */
export function rewrittenOnRefusal(refusal: string, body: Obj): Obj | undefined {
  // as a generation learns it (target-body.ts): ids outside the pattern come with repeats
  const pattern = refusesToolUseIdPattern(refusal);
  if (!pattern && !refusesRepeatedToolUseIds(refusal)) return undefined;
  const copy = { ...body, messages: structuredClone(body.messages) };
  return rewriteToolUseIds(copy, { validToolUseIds: pattern, uniqueToolUseIds: true }) ? copy : undefined;
}

/** Whether `fit` asks any rewrite. */
export function asksToolUseIdRewrite(fit: ToolUseIdRewrites): boolean {
  return fit.validToolUseIds === true || fit.uniqueToolUseIds === true;
}

export class ToolUseIdMemory {
  /** `keyId \n target` → the rewrites its last request needed. */
  private readonly pairs = new Map<string, ToolUseIdRewrites>();

  constructor(private readonly maxEntries = 256) {}

  /** The rewrites to apply up front for this pair's request, if its last one needed any. */
  recall(keyId: string, target: string): ToolUseIdRewrites | undefined {
    return this.pairs.size === 0 ? undefined : this.pairs.get(pairKey(keyId, target));
  }

  /** After a request of the pair: keep what its body needed (`needed`), or forget. */
  settle(keyId: string, target: string, needed: ToolUseIdRewrites | undefined): void {
    const key = pairKey(keyId, target);
    this.pairs.delete(key);
    if (needed === undefined || !asksToolUseIdRewrite(needed)) return;
    this.pairs.set(key, { ...needed });
    if (this.pairs.size > this.maxEntries) this.pairs.delete(this.pairs.keys().next().value as string);
  }

  /** Keys were revoked or removed: forget the pairs of every key not in `active` (requests without a key id are no key's: kept, as engine.ts ends none of them). */
  keepOnly(active: ReadonlySet<string>): void {
    for (const key of this.pairs.keys()) {
      const keyId = key.slice(0, key.indexOf('\n'));
      if (keyId !== '' && !active.has(keyId)) this.pairs.delete(key);
    }
  }
}

function pairKey(keyId: string, target: string): string {
  return `${keyId}\n${target}`;
}
