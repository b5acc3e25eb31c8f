/**
 * Where the system parts of a request that stood mid-conversation (SystemPart.inline) go, for the
 * codecs that keep them in place: before an item, or inside a user message's content where
 * Messages merged two user messages into one turn (the message is cut there, so user, system,
 * user stays as the client wrote it; Chat and Responses both take consecutive user messages), and
 * for those that hoist them into the leading system text, which user messages join up again.
 */
import type { ContentPart, Item, MessageItem, SystemPart } from './hub.js';

/** Whether an inline part goes before items[index] (or earlier), rather than inside its content. */
export function standsBefore(part: SystemPart, index: number): boolean {
  const at = part.inline!;
  return at.beforeItem < index || (at.beforeItem === index && at.beforePart === undefined);
}

export interface CutContent {
  /** The content in pieces, in order; one piece when nothing stood inside it. */
  pieces: ContentPart[][];
  /** The parts that stood between piece i and piece i + 1. */
  between: SystemPart[][];
  /** The index in `inline` of the first part after this message. */
  next: number;
}

/** A user message's content (items[index]) cut where the inline parts from `from` stood inside it. */
export function cutContent(content: ContentPart[], inline: readonly SystemPart[], from: number, index: number): CutContent {
  const pieces: ContentPart[][] = [];
  const between: SystemPart[][] = [];
  let start = 0;
  let i = from;
  while (i < inline.length && inline[i]!.inline!.beforeItem === index && inline[i]!.inline!.beforePart !== undefined) {
    const at = inline[i]!.inline!.beforePart!;
    const group: SystemPart[] = [];
    for (; i < inline.length && inline[i]!.inline!.beforeItem === index && inline[i]!.inline!.beforePart === at; i++) group.push(inline[i]!);
    pieces.push(content.slice(start, at));
    between.push(group);
    start = at;
  }
  pieces.push(content.slice(start));
  return { pieces, between, next: i };
}

const isUserMessage = (item: Item | undefined): item is MessageItem => item?.type === 'message' && item.role === 'user';

/**
 * For the codecs that hoist mid-conversation system parts into the leading system text instead:
 * two user messages such a part stood between become one, as Messages merges them and as the
 * targets that hoist want it (Gemini's API has refused consecutive user contents, Mistral's
 * templates want roles to alternate). Returns `items` itself when no hoisted part stood between
 * two user messages (the usual case: no inline part at all).
 */
export function userMessagesRejoined(items: Item[], system: readonly SystemPart[]): Item[] {
  let joinAt: Set<number> | undefined;
  for (const part of system) {
    const at = part.inline?.beforeItem;
    if (at !== undefined && part.inline!.beforePart === undefined && isUserMessage(items[at]) && isUserMessage(items[at - 1])) (joinAt ??= new Set()).add(at);
  }
  if (!joinAt) return items;
  const out: Item[] = [];
  for (const [i, item] of items.entries()) {
    const last = out[out.length - 1];
    if (joinAt.has(i) && isUserMessage(item) && isUserMessage(last)) out[out.length - 1] = { ...last, content: [...last.content, ...item.content] };
    else out.push(item);
  }
  return out;
}
