/**
 * One leading system message holding every system text of a Chat body, in order: what servers
 * that take a single system message get (Gemini's compat layer keeps only the last one, Mistral
 * refuses one after an assistant turn). The other messages stay as they were.
 */
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;
type Part = { type: 'text'; text: string } | Obj;

function asParts(content: unknown): Part[] {
  if (typeof content === 'string') return content === '' ? [] : [{ type: 'text', text: content }];
  return Array.isArray(content) ? (content as Part[]) : [];
}

/** The contents joined: a string when every piece is text, else one parts list. */
export function joinContents(contents: unknown[]): unknown {
  if (contents.every((c) => typeof c === 'string')) return (contents as string[]).filter((c) => c !== '').join('\n\n');
  return contents.flatMap(asParts);
}

export const isSystemMessage = (m: unknown): m is Obj => isObject(m) && m.role === 'system';

/**
 * Join `messages`' system messages into the first place; true when there was more than one, or one
 * not first. `rejoinUsers`: two user messages a removed system message stood between become one
 * again, for chat templates that want roles to alternate (system-placement.ts).
 */
export function joinSystemMessages(body: Obj, rejoinUsers = false): boolean {
  if (!Array.isArray(body.messages)) return false;
  const messages = body.messages as unknown[];
  const systems = messages.filter(isSystemMessage);
  if (systems.length === 0 || (systems.length === 1 && messages[0] === systems[0])) return false;
  const others = rejoinUsers ? withoutSystem(messages) : messages.filter((m) => !isSystemMessage(m));
  body.messages = [{ ...systems[0], content: joinContents(systems.map((m) => m.content)) }, ...others];
  return true;
}

const isUser = (m: unknown): m is Obj => isObject(m) && m.role === 'user';

/** The messages but the system ones, a user message after a removed one joined to a user message before it. */
export function withoutSystem(messages: readonly unknown[]): unknown[] {
  const out: unknown[] = [];
  let removed = false;
  for (const m of messages) {
    if (isSystemMessage(m)) {
      removed = true;
      continue;
    }
    const last = out[out.length - 1];
    if (removed && isUser(m) && isUser(last)) out[out.length - 1] = { ...last, content: joinContents([last.content, m.content]) };
    else out.push(m);
    removed = false;
  }
  return out;
}
