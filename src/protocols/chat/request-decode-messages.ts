/**
 * A Chat client's `messages` → hub system texts and items, in order.
 *
 * System/developer messages may appear anywhere; their texts go to hub.system in order, those
 * after the first user or assistant turn marked with their place (targets without inline system
 * turns cannot keep it; Responses does). Tool calls and their results are checked
 * for pairing here, because every upstream rejects an unanswered call or an orphan result, and a
 * clean 400 naming the id beats a confusing upstream error.
 */
import type { ContentPart, FunctionCallItem, FunctionCallOutputItem, Item, MessageItem, SystemPart } from '../hub.js';
import { badRequest } from '../errors.js';
import { CallIdReuse } from '../call-id-reuse.js';
import { decodeClientReasoning } from './reasoning.js';
import { decodeContent, decodeTextContent } from './request-decode-content.js';
import { thoughtSignatureOf } from './upstream-read.js';
import { expectNonEmptyString, expectRecord, isRecord, jsonType, optString, str, type Json } from './guards.js';

const CALL = 'invalid_tool_call';

interface PendingCall {
  path: string;
  name: string;
  /** Legacy `function_call` turns are answered by name, not id. */
  legacy: boolean;
  /** The id the call has in the hub: the client's, or a fresh one when the client's recurs (below). */
  hubId: string;
}

class MessageReader {
  readonly system: SystemPart[] = [];
  readonly items: Item[] = [];
  private readonly pending = new Map<string, PendingCall>();
  private readonly seenCallIds = new Set<string>();
  private readonly hubIds = new CallIdReuse();
  private legacyCount = 0;

  read(raw: unknown, i: number): void {
    const path = `messages[${i}]`;
    const m = expectRecord(raw, 'invalid_messages', path);
    const role = m.role;
    switch (role) {
      case 'system':
      case 'developer':
        for (const part of decodeTextContent(m.content, `${path}.content`)) {
          const sp: SystemPart = { text: part.text };
          if (part.cacheControl) sp.cacheControl = part.cacheControl;
          // one after the conversation began keeps its place where a target can hold it there
          if (this.items.length > 0) sp.inline = { beforeItem: this.items.length, role };
          this.system.push(sp);
        }
        return;
      case 'user':
        this.user(m, path);
        return;
      case 'assistant':
        this.requireAnswered(path);
        this.assistant(m, path);
        return;
      case 'tool':
        this.tool(m, path);
        return;
      case 'function':
        this.legacyFunctionResult(m, path);
        return;
      default: {
        const shown = typeof role === 'string' ? `"${role.slice(0, 40)}"` : jsonType(role);
        throw badRequest('invalid_messages', `${path}.role ${shown} is not supported (use system, developer, user, assistant or tool).`, `${path}.role`);
      }
    }
  }

  /** Every call must be answered; call at the end once all messages are read. */
  finish(): void {
    this.requireAnswered(undefined);
  }

  private requireAnswered(beforePath: string | undefined): void {
    for (const [id, call] of this.pending) {
      const where = beforePath ? ` before ${beforePath}` : '';
      throw badRequest(CALL, `Tool call "${id}" (${call.name}) at ${call.path} has no tool message with its result${where}.`, call.path);
    }
  }

  private user(m: Json, path: string): void {
    if (m.content === undefined || m.content === null) throw badRequest('invalid_messages', `${path}.content is required.`, `${path}.content`);
    const content = decodeContent(m.content, `${path}.content`, ['text', 'image_url', 'input_audio', 'file']);
    if (content.length === 0) throw badRequest('invalid_messages', `${path}.content must not be an empty array.`, `${path}.content`);
    const item: MessageItem = { type: 'message', role: 'user', content };
    const name = optString(m.name, 'invalid_messages', `${path}.name`);
    if (name) item.name = name;
    this.items.push(item);
  }

  private assistant(m: Json, path: string): void {
    this.items.push(...decodeClientReasoning(m, path));
    const content: ContentPart[] =
      m.content === undefined || m.content === null ? [] : decodeContent(m.content, `${path}.content`, ['text', 'refusal']);
    const refusal = optString(m.refusal, 'invalid_messages', `${path}.refusal`);
    if (refusal) content.push({ type: 'refusal', text: refusal });
    const nonEmpty = content.filter((p) => p.type !== 'text' || p.text.length > 0);
    if (nonEmpty.length > 0) {
      const item: MessageItem = { type: 'message', role: 'assistant', content: nonEmpty };
      const name = optString(m.name, 'invalid_messages', `${path}.name`);
      if (name) item.name = name;
      this.items.push(item);
    }
    if (m.tool_calls !== undefined && m.tool_calls !== null) {
      if (!Array.isArray(m.tool_calls)) throw badRequest(CALL, `${path}.tool_calls must be an array.`, `${path}.tool_calls`);
      m.tool_calls.forEach((tc, j) => this.toolCall(tc, `${path}.tool_calls[${j}]`));
    }
    if (m.function_call !== undefined && m.function_call !== null) this.legacyFunctionCall(m.function_call, `${path}.function_call`);
  }

  private addCall(item: FunctionCallItem, path: string, legacy: boolean): void {
    const clientId = item.callId;
    if (this.pending.has(clientId)) throw badRequest(CALL, `Tool call id "${clientId}" at ${path} is used twice.`, `${path}.id`);
    // an id an earlier, answered turn used is a new call (call-id-reuse.ts): Chat pairs a result
    // with the turn before it, so the client is right
    item.callId = this.hubIds.idFor(clientId);
    this.seenCallIds.add(clientId);
    this.pending.set(clientId, { path, name: item.name, legacy, hubId: item.callId });
    this.items.push(item);
  }

  private toolCall(raw: unknown, path: string): void {
    const tc = expectRecord(raw, CALL, path);
    if (tc.type === 'custom') {
      throw badRequest('unsupported_feature', `${path}: custom tool calls cannot be converted for this model; use function tools.`, `${path}.type`);
    }
    if (tc.type !== undefined && tc.type !== 'function') {
      throw badRequest(CALL, `${path}.type must be "function".`, `${path}.type`);
    }
    const fn = expectRecord(tc.function, CALL, `${path}.function`);
    const item: FunctionCallItem = {
      type: 'function_call',
      callId: expectNonEmptyString(tc.id, CALL, `${path}.id`),
      name: expectNonEmptyString(fn.name, CALL, `${path}.function.name`),
      arguments: readArguments(fn.arguments, `${path}.function.arguments`),
    };
    const signature = thoughtSignatureOf(tc);
    if (signature) item.thoughtSignature = signature;
    this.addCall(item, path, false);
  }

  private legacyFunctionCall(raw: unknown, path: string): void {
    const fc = expectRecord(raw, CALL, path);
    const item: FunctionCallItem = {
      type: 'function_call',
      callId: `call_legacy_${this.legacyCount++}`,
      name: expectNonEmptyString(fc.name, CALL, `${path}.name`),
      arguments: readArguments(fc.arguments, `${path}.arguments`),
    };
    this.addCall(item, path, true);
  }

  private tool(m: Json, path: string): void {
    const callId = expectNonEmptyString(m.tool_call_id, CALL, `${path}.tool_call_id`);
    const call = this.pending.get(callId);
    if (!call || call.legacy) {
      const why = this.seenCallIds.has(callId) ? 'already has a result' : 'matches no earlier assistant tool call';
      throw badRequest(CALL, `${path}.tool_call_id "${callId}" ${why}.`, `${path}.tool_call_id`);
    }
    this.pending.delete(callId);
    if (m.content === undefined || m.content === null) throw badRequest('invalid_messages', `${path}.content is required.`, `${path}.content`);
    // Text is the standard; images/files are accepted because tool results that hold media are common.
    const output: FunctionCallOutputItem['output'] =
      typeof m.content === 'string' ? m.content : decodeContent(m.content, `${path}.content`, ['text', 'image_url', 'file']);
    this.items.push({ type: 'function_call_output', callId: call.hubId, output });
  }

  private legacyFunctionResult(m: Json, path: string): void {
    const name = expectNonEmptyString(m.name, CALL, `${path}.name`);
    let match: string | undefined;
    for (const [id, call] of this.pending) if (call.legacy && call.name === name) match = id;
    if (!match) throw badRequest(CALL, `${path} answers function "${name}", which no earlier assistant function_call made.`, `${path}.name`);
    const call = this.pending.get(match)!;
    this.pending.delete(match);
    const output = m.content === undefined || m.content === null ? '' : (str(m.content) ?? JSON.stringify(m.content));
    this.items.push({ type: 'function_call_output', callId: call.hubId, output });
  }
}

/** Arguments as JSON text; some clients send the object itself. */
function readArguments(v: unknown, path: string): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '{}';
  if (isRecord(v)) return JSON.stringify(v);
  throw badRequest(CALL, `${path} must be a JSON string.`, path);
}

export function decodeMessages(raw: unknown): { system: SystemPart[]; items: Item[] } {
  if (!Array.isArray(raw)) throw badRequest('invalid_messages', `messages must be an array, got ${jsonType(raw)}.`, 'messages');
  if (raw.length === 0) throw badRequest('invalid_messages', 'messages must contain at least one message.', 'messages');
  const reader = new MessageReader();
  raw.forEach((m, i) => reader.read(m, i));
  reader.finish();
  return { system: reader.system, items: reader.items };
}
