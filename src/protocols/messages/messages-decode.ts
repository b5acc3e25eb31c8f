/**
 * `messages[]` of a Messages client → hub items (plus inline SDK 1.x `{role:"system"}` texts).
 *
 * An inline system message after the conversation began is marked with its place, for targets
 * that keep it there (Responses input, most Chat servers): between the two messages of a merged
 * user turn it stood between (inside the turn's user message, SystemPart.inline.beforePart), or
 * after the turn it follows — never inside an assistant turn, whose reasoning must stay next to
 * its output. Messages targets hoist it into `system` as before.
 *
 * Consecutive same-role turns are merged first, as Anthropic does server-side. A user turn's
 * tool_result blocks become function_call_output items placed BEFORE the rest of that turn's
 * content: that is what lets Chat targets see the tool messages right after the assistant turn.
 * Every tool_use must be answered by the next user turn, except in the final assistant turn (the
 * call still pending); every tool_result must answer an earlier tool_use.
 */
import type { ContentPart, FunctionCallItem, FunctionCallOutputItem, Item, MessageItem, SystemPart } from '../hub.js';
import { callIdOf } from './ids.js';
import { CallIdReuse } from '../call-id-reuse.js';
import { isAdvisorBlock } from './advisor.js';
import { badRequest } from '../errors.js';
import { decodeCacheControl } from './cache-control.js';
import { decodeMediaOrText, decodeTextBlock, decodeToolResultContent } from './content-decode.js';
import { decodeToolChange, isToolChange, type ToolEvent } from './tool-availability.js';
import { expectArray, expectString, isObject, optBoolean, optString, type JsonObject } from './json.js';
import { reasoningOfThinkingBlock } from '../reasoning-envelope.js';

interface Block {
  block: JsonObject;
  path: string;
}

interface Turn {
  role: 'user' | 'assistant';
  /** Index of the first message of the (merged) turn, for error messages. */
  at: number;
  blocks: Block[];
}

/** Blocks produced by Anthropic's server tools: meaningless to any other provider. */
const SERVER_BLOCKS = new Set([
  'server_tool_use',
  'web_search_tool_result',
  'web_fetch_tool_result',
  'code_execution_tool_result',
  'bash_code_execution_tool_result',
  'text_editor_code_execution_tool_result',
  'tool_search_tool_result',
  'container_upload',
  'mcp_tool_use',
  'mcp_tool_result',
  'advisor_tool_result',
]);

export function decodeMessages(v: unknown): { items: Item[]; system: SystemPart[]; toolEvents: ToolEvent[] } {
  const messages = expectArray(v, 'messages', 'invalid_messages');
  if (messages.length === 0) throw badRequest('invalid_messages', 'messages must contain at least one message.', 'messages');
  const system: SystemPart[] = [];
  const turns: Turn[] = [];
  const events: ToolEvent[] = [];
  // placed once turns become items: after `block` blocks of turn `turn`
  const inlineAfter: Array<{ turn: number; block: number; part: SystemPart }> = [];
  messages.forEach((m, i) => {
    const path = `messages[${i}]`;
    if (!isObject(m)) throw badRequest('invalid_messages', `${path} must be an object with role and content.`, path);
    if (m.role === 'system') {
      const parts = decodeSystemContent(m.content, `${path}.content`, events);
      const last = turns[turns.length - 1];
      if (last) for (const part of parts) inlineAfter.push({ turn: turns.length - 1, block: last.blocks.length, part });
      system.push(...parts);
      return;
    }
    if (m.role !== 'user' && m.role !== 'assistant') {
      throw badRequest('invalid_messages', `${path}.role must be user, assistant or system.`, `${path}.role`);
    }
    const blocks = contentBlocks(m.content, `${path}.content`);
    const last = turns[turns.length - 1];
    if (last && last.role === m.role) last.blocks.push(...blocks);
    else turns.push({ role: m.role, at: i, blocks });
  });

  const items: Item[] = [];
  const book: CallBook = { pending: new Map(), answered: new Set(), hubIds: new CallIdReuse() };
  const placeInline = (turn: number, user?: UserMessageAt): void => {
    for (const at of inlineAfter) if (at.turn === turn) at.part.inline = inlinePlace(at.block, items.length, user);
  };
  turns.forEach((turn, t) => {
    if (turn.role === 'assistant') {
      failIfUnanswered(book);
      decodeAssistantTurn(turn, items, book);
      placeInline(t);
    } else {
      placeInline(t, decodeUserTurn(turn, items, book, events));
      // Results belong in the user turn right after the call; a later answer would be out of order.
      if (t < turns.length - 1) failIfUnanswered(book);
    }
  });
  if (turns[turns.length - 1]?.role !== 'assistant') failIfUnanswered(book);
  // events of system messages and of turns were recorded in two passes: put them back in message order
  events.sort((a, b) => messageIndex(a.path) - messageIndex(b.path));
  return { items, system, toolEvents: events };
}

/**
 * `system` (top level) or an inline system message's content: string or text blocks, and in a
 * system message also tool changes (tool-availability.ts), which leave a line of text.
 */
export function decodeSystemContent(v: unknown, path: string, events?: ToolEvent[]): SystemPart[] {
  if (v === undefined || v === null) return [];
  if (typeof v === 'string') return v === '' ? [] : [{ text: v }];
  const blocks = expectArray(v, path);
  const out: SystemPart[] = [];
  blocks.forEach((b, i) => {
    const p = `${path}[${i}]`;
    if (events && isObject(b) && isToolChange(b.type)) {
      out.push({ text: decodeToolChange(b, p, events).text });
      return;
    }
    if (!isObject(b) || b.type !== 'text') throw badRequest('invalid_request', `${p} must be a text block {"type":"text","text":…}.`, p);
    const text = expectString(b.text, `${p}.text`);
    if (text === '') return;
    const cc = decodeCacheControl(b.cache_control, `${p}.cache_control`);
    out.push(cc ? { text, cacheControl: cc } : { text });
  });
  return out;
}

function contentBlocks(v: unknown, path: string): Block[] {
  if (typeof v === 'string') return [{ block: { type: 'text', text: v }, path }];
  const arr = expectArray(v, path, 'invalid_messages');
  return arr.map((b, i) => {
    const p = `${path}[${i}]`;
    if (!isObject(b) || typeof b.type !== 'string') throw badRequest('invalid_content_part', `${p} must be a content block with a type.`, p);
    return { block: b, path: p };
  });
}

/** A user turn's message: its index in items, and how many of its content parts came before each block (and after the last). */
interface UserMessageAt {
  index: number;
  partsBefore: number[];
}

/**
 * Where a system message that came after `block` blocks of a turn goes: inside the turn's user
 * message between the parts of the blocks around it, before that message when none of its parts
 * came before, else after the turn (`end`, the items it made).
 */
function inlinePlace(block: number, end: number, user: UserMessageAt | undefined): NonNullable<SystemPart['inline']> {
  const before = user?.partsBefore[block];
  if (user === undefined || before === undefined || before === user.partsBefore.at(-1)) return { beforeItem: end, role: 'system' };
  return before === 0 ? { beforeItem: user.index, role: 'system' } : { beforeItem: user.index, role: 'system', beforePart: before };
}

function decodeUserTurn(turn: Turn, items: Item[], book: CallBook, events: ToolEvent[]): UserMessageAt | undefined {
  const outputs: FunctionCallOutputItem[] = [];
  const parts: ContentPart[] = [];
  const partsBefore: number[] = [];
  for (const { block, path } of turn.blocks) {
    partsBefore.push(parts.length);
    if (block.type === 'tool_result') {
      outputs.push(decodeToolResult(block, path, book, events));
      continue;
    }
    if (isToolChange(block.type)) {
      parts.push(decodeToolChange(block, path, events));
      continue;
    }
    const media = decodeMediaOrText(block, path);
    if (media) {
      parts.push(...media);
      continue;
    }
    rejectBlock(block, path, 'user');
  }
  partsBefore.push(parts.length);
  items.push(...outputs);
  if (parts.length === 0) return undefined;
  items.push({ type: 'message', role: 'user', content: parts });
  return { index: items.length - 1, partsBefore };
}

/** Calls of the conversation by their client id: those awaiting a result, those answered, and their hub ids. */
interface CallBook {
  pending: Map<string, { path: string; hubId: string }>;
  answered: Set<string>;
  hubIds: CallIdReuse;
}

function decodeToolResult(block: JsonObject, path: string, book: CallBook, events: ToolEvent[]): FunctionCallOutputItem {
  const callId = callIdOf(expectString(block.tool_use_id, `${path}.tool_use_id`, 'invalid_tool_call'));
  const call = book.pending.get(callId);
  if (!call) {
    const why = book.answered.has(callId) ? 'answers a tool_use that already has a tool_result' : 'has no matching tool_use in the preceding assistant turn';
    throw badRequest('invalid_tool_call', `${path}: tool_result for ${JSON.stringify(callId)} ${why}.`, `${path}.tool_use_id`);
  }
  book.pending.delete(callId);
  book.answered.add(callId);
  const item: FunctionCallOutputItem = { type: 'function_call_output', callId: call.hubId, output: decodeToolResultContent(block.content, `${path}.content`, events) };
  if (optBoolean(block.is_error, `${path}.is_error`, 'invalid_tool_call')) item.isError = true;
  const cc = decodeCacheControl(block.cache_control, `${path}.cache_control`);
  if (cc) item.cacheControl = cc;
  return item;
}

function decodeAssistantTurn(turn: Turn, items: Item[], book: CallBook): void {
  let message: MessageItem | undefined; // open text run; a later non-text block closes it
  for (const { block, path } of turn.blocks) {
    switch (block.type) {
      case 'text': {
        const part = decodeTextBlock(block, path);
        if (!part) break;
        if (!message) {
          message = { type: 'message', role: 'assistant', content: [] };
          items.push(message);
        }
        message.content.push(part);
        break;
      }
      case 'thinking': {
        const text = expectString(block.thinking, `${path}.thinking`, 'invalid_content_part');
        const signature = optString(block.signature, `${path}.signature`, 'invalid_content_part') ?? '';
        items.push(reasoningOfThinkingBlock(text, signature));
        message = undefined;
        break;
      }
      case 'redacted_thinking': {
        const data = expectString(block.data, `${path}.data`, 'invalid_content_part');
        items.push({ type: 'reasoning', text: '', origin: { kind: 'anthropic_redacted', data } });
        message = undefined;
        break;
      }
      case 'tool_use':
        items.push(decodeToolUse(block, path, book));
        message = undefined;
        break;
      case 'server_tool_use':
      case 'web_search_tool_result':
      case 'advisor_tool_result':
        // A search already run (by Anthropic, or by another provider for this client), or advice
        // Anthropic's advisor gave: the text after it is what came of it, and no other provider
        // can take its blocks back (advisor.ts).
        if (isPastWebSearch(block) || isAdvisorBlock(block)) break;
        rejectBlock(block, path, 'assistant');
        break;
      default:
        rejectBlock(block, path, 'assistant');
    }
  }
}

function isPastWebSearch(block: JsonObject): boolean {
  return block.type === 'web_search_tool_result' || block.name === 'web_search';
}

function decodeToolUse(block: JsonObject, path: string, book: CallBook): FunctionCallItem {
  const callId = callIdOf(expectString(block.id, `${path}.id`, 'invalid_tool_call'));
  const name = expectString(block.name, `${path}.name`, 'invalid_tool_call');
  if (callId === '' || name === '') throw badRequest('invalid_tool_call', `${path}: tool_use needs a non-empty id and name.`, path);
  if (book.pending.has(callId)) {
    throw badRequest('invalid_tool_call', `${path}: tool_use id ${JSON.stringify(callId)} is used more than once.`, `${path}.id`);
  }
  // the id of an earlier, answered call (a model that numbers calls per turn): a new call (call-id-reuse.ts)
  const hubId = book.hubIds.idFor(callId);
  book.pending.set(callId, { path, hubId });
  const input = block.input === undefined || block.input === null ? {} : block.input;
  const item: FunctionCallItem = { type: 'function_call', callId: hubId, name, arguments: JSON.stringify(input) };
  const cc = decodeCacheControl(block.cache_control, `${path}.cache_control`);
  if (cc) item.cacheControl = cc;
  return item;
}

function failIfUnanswered(book: CallBook): void {
  for (const [id, { path }] of book.pending) {
    throw badRequest(
      'invalid_tool_call',
      `${path}: tool_use ${JSON.stringify(id)} has no tool_result in the user turn that follows it.`,
      path,
    );
  }
}

function rejectBlock(block: JsonObject, path: string, role: 'user' | 'assistant'): never {
  const type = String(block.type);
  if (SERVER_BLOCKS.has(type)) {
    throw badRequest(
      'unsupported_feature',
      `${path}: "${type}" blocks come from Anthropic's server tools and cannot be sent to this model.`,
      `${path}.type`,
    );
  }
  const where = role === 'user' ? 'a user turn' : 'an assistant turn';
  throw badRequest('invalid_content_part', `${path}: a "${type}" block is not allowed in ${where}.`, `${path}.type`);
}

/** `messages[3]…` → 3, to order tool events by the message they are in. */
function messageIndex(path: string): number {
  return Number(/^messages\[(\d+)\]/.exec(path)?.[1] ?? 0);
}
