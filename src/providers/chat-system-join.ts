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

/** Join `messages`' system messages into the first place; true when there was more than one, or one not first. */
export function joinSystemMessages(body: Obj): boolean {
  if (!Array.isArray(body.messages)) return false;
  const messages = body.messages as unknown[];
  const systems = messages.filter(isSystemMessage);
  if (systems.length === 0 || (systems.length === 1 && messages[0] === systems[0])) return false;
  body.messages = [{ ...systems[0], content: joinContents(systems.map((m) => m.content)) }, ...messages.filter((m) => !isSystemMessage(m))];
  return true;
}
