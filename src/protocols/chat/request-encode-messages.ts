/**
 * Hub items → Chat `messages` for a Chat-speaking upstream (OpenRouter, Gemini compat, vLLM,
 * Ollama, LM Studio, custom endpoints).
 *
 * Assistant output between two user/tool turns (reasoning, text, tool calls) becomes one
 * assistant message, because Chat has one message per turn. Tool results that hold media become
 * a text tool message plus the media in a user message after the run of tool messages (Chat
 * tool messages are text-only, and a user message between two tool messages breaks pairing).
 * A system message from the middle of the conversation stays there where the target takes it
 * (`systemInPlace`), between the two halves of a user message where it stood inside one; one
 * written inside an assistant turn or among its tool results goes after them. Where it is hoisted
 * instead, two user messages it stood between become one (inline-system.ts).
 */
import type {
  ContentPart,
  FunctionCallItem,
  FunctionCallOutputItem,
  HubRequest,
  Item,
  MessageItem,
  ReasoningItem,
  SystemPart,
} from '../hub.js';
import type { EncodeRequestOptions } from '../codec.js';
import { cutContent, standsBefore, userMessagesRejoined } from '../inline-system.js';
import { toolErrorPrefix } from '../tool-error.js';
import { joinedResultTexts } from '../tool-result-text.js';
import { encodeFile, encodeImage } from './media-encode.js';
import { replayReasoning } from './reasoning.js';
import type { Json } from './guards.js';


interface AssistantTurn {
  reasoning: ReasoningItem[];
  content: ContentPart[];
  calls: FunctionCallItem[];
  name?: string;
}

function cacheControl(part: { cacheControl?: unknown }, keep: boolean): Json {
  return keep && part.cacheControl ? { cache_control: part.cacheControl } : {};
}

/**
 * `out` with the part's cache_control when kept. Set on it, not spread onto a copy: on Node 20 a
 * spread copy that gains a key gets a hidden class of its own per part.
 */
function withCacheControl(out: Json, part: { cacheControl?: unknown }, keep: boolean): Json {
  if (keep && part.cacheControl) out.cache_control = part.cacheControl;
  return out;
}

/** One hub part as a Chat user content part; `fileUrls`: the target fetches documents by URL. */
function encodePart(part: ContentPart, keepCache: boolean, fileUrls: boolean): Json {
  switch (part.type) {
    case 'text':
      return { type: 'text', text: part.text, ...cacheControl(part, keepCache) };
    case 'refusal':
      return { type: 'text', text: part.text };
    case 'audio':
      return { type: 'input_audio', input_audio: { data: part.data, format: part.format } };
    case 'image':
      return withCacheControl(encodeImage(part), part, keepCache);
    case 'file':
      return withCacheControl(encodeFile(part, fileUrls), part, keepCache);
  }
}

/** User content: a plain string when it is one uncached text, else parts. */
function encodeUserContent(parts: ReadonlyArray<ContentPart>, keepCache: boolean, fileUrls: boolean): string | Json[] {
  if (parts.length === 1 && parts[0]!.type === 'text' && !(keepCache && parts[0]!.cacheControl)) return parts[0]!.text;
  return parts.map((p) => encodePart(p, keepCache, fileUrls));
}

function textOf(parts: ReadonlyArray<ContentPart>): string {
  return parts.map((p) => (p.type === 'text' || p.type === 'refusal' ? p.text : '')).join('');
}

export class MessageWriter {
  readonly messages: Json[] = [];
  private turn: AssistantTurn | undefined;
  private media: Array<{ callId: string; parts: ContentPart[] }> = [];

  constructor(private readonly opts: EncodeRequestOptions) {}

  /** The leading system message: every system text, or the leading ones when the others stay in place. */
  system(parts: ReadonlyArray<SystemPart>): void {
    this.pushSystem(this.opts.systemInPlace ? parts.filter((p) => p.inline === undefined) : parts);
  }

  /**
   * Whether a system message can go before `item`: not inside an assistant turn (Chat has one
   * message per turn; one there goes after it) nor between tool calls and their results.
   */
  canInterject(item: Item): boolean {
    if (this.turn !== undefined) return item.type === 'message' && item.role === 'user';
    return item.type !== 'function_call_output';
  }

  /**
   * The inline system parts from `from` that stood before items[index] (or earlier), as one system
   * message there. The next part's index.
   */
  systemBefore(inline: ReadonlyArray<SystemPart>, from: number, index: number): number {
    let to = from;
    while (to < inline.length && standsBefore(inline[to]!, index)) to++;
    if (to === from) return from;
    this.flushTurn();
    this.flushMedia();
    this.pushSystem(inline.slice(from, to));
    return to;
  }

  private pushSystem(parts: ReadonlyArray<SystemPart>): void {
    const kept = parts.filter((p) => p.text.trim().length > 0);
    if (kept.length === 0) return;
    const role = this.opts.systemRole ?? 'system';
    const keep = this.opts.keepCacheControl === true;
    // One system message per place: many local chat templates accept a single leading system turn only.
    const content = keep && kept.some((p) => p.cacheControl)
      ? kept.map((p) => ({ type: 'text', text: p.text, ...cacheControl(p, true) }))
      : kept.map((p) => p.text).join('\n\n');
    this.messages.push({ role, content });
  }

  /** A user message with the inline parts from `from` that stood inside it between its pieces; the next part's index. */
  userAround(item: MessageItem, inline: ReadonlyArray<SystemPart>, from: number, index: number): number {
    const { pieces, between, next } = cutContent(item.content, inline, from, index);
    for (const [i, content] of pieces.entries()) {
      if (i > 0) this.pushSystem(between[i - 1]!);
      this.user({ ...item, content });
    }
    return next;
  }

  user(item: MessageItem): void {
    this.flushTurn();
    this.flushMedia();
    const msg: Json = { role: 'user', content: encodeUserContent(item.content, this.opts.keepCacheControl === true, this.opts.fileUrls === true) };
    if (item.name) msg.name = item.name;
    this.messages.push(msg);
  }

  private openTurn(): AssistantTurn {
    this.flushMedia();
    this.turn ??= { reasoning: [], content: [], calls: [] };
    return this.turn;
  }

  reasoning(item: ReasoningItem): void {
    this.openTurn().reasoning.push(item);
  }

  assistant(item: MessageItem): void {
    const turn = this.openTurn();
    turn.content.push(...item.content);
    if (item.name && !turn.name) turn.name = item.name;
  }

  call(item: FunctionCallItem): void {
    this.openTurn().calls.push(item);
  }

  result(item: FunctionCallOutputItem): void {
    this.flushTurn();
    if (typeof item.output === 'string') {
      this.messages.push({ role: 'tool', tool_call_id: item.callId, content: this.toolContent(item, toolErrorPrefix(item.isError, item.output) + item.output) });
      return;
    }
    const texts: string[] = [];
    const media: ContentPart[] = [];
    for (const p of item.output) {
      if (p.type === 'text' || p.type === 'refusal') texts.push(p.text);
      else if (p.type === 'file' && p.source.kind === 'text') texts.push(p.source.text);
      else media.push(p);
    }
    let text = joinedResultTexts(texts);
    if (!text && media.length > 0) text = `(${media.length} attachment${media.length > 1 ? 's' : ''} in the next user message)`;
    this.messages.push({ role: 'tool', tool_call_id: item.callId, content: this.toolContent(item, toolErrorPrefix(item.isError, text) + text) });
    if (media.length > 0) this.media.push({ callId: item.callId, parts: media });
  }

  /**
   * A tool message's content: its text, or, where cache hints are kept and the result carries one
   * (Claude Code marks the conversation's last block, often a tool result), one text part with it.
   */
  private toolContent(item: FunctionCallOutputItem, text: string): string | Json[] {
    if (this.opts.keepCacheControl !== true) return text;
    let cc = item.cacheControl;
    if (!cc && typeof item.output !== 'string') for (const p of item.output) if ('cacheControl' in p && p.cacheControl) cc = p.cacheControl;
    return cc ? [{ type: 'text', text, cache_control: cc }] : text;
  }

  /** Close everything still open; returns the messages. */
  end(): Json[] {
    this.flushTurn();
    this.flushMedia();
    return this.messages;
  }

  private flushMedia(): void {
    if (this.media.length === 0) return;
    const content: Json[] = [];
    for (const { callId, parts } of this.media) {
      content.push({ type: 'text', text: `Attachments returned by tool call ${callId}:` });
      for (const p of parts) content.push(encodePart(p, false, this.opts.fileUrls === true));
    }
    this.media = [];
    this.messages.push({ role: 'user', content });
  }

  private flushTurn(): void {
    const turn = this.turn;
    if (!turn) return;
    this.turn = undefined;
    const replay = replayReasoning(turn.reasoning, this.opts.replayReasoning);
    const text = textOf(turn.content);
    if (!text && turn.calls.length === 0 && !replay.reasoning && !replay.reasoning_details) return;
    const keep = this.opts.keepCacheControl === true;
    const cached = keep && turn.content.some((p) => p.type === 'text' && p.cacheControl);
    const msg: Json = {
      role: 'assistant',
      content: cached
        ? turn.content.flatMap((p) => (p.type === 'text' || p.type === 'refusal' ? [encodePart(p, true, false)] : []))
        : text || (turn.calls.length > 0 ? null : ''),
    };
    if (turn.name) msg.name = turn.name;
    if (turn.calls.length > 0) msg.tool_calls = turn.calls.map((c) => this.toolCall(c));
    Object.assign(msg, replay);
    if (replay.reasoning !== undefined && this.opts.reasoningContentToo === true) msg.reasoning_content = replay.reasoning;
    this.messages.push(msg);
  }

  private toolCall(c: FunctionCallItem): Json {
    const tc: Json = { id: c.callId, type: 'function', function: { name: c.name, arguments: c.arguments || '{}' } };
    if (this.opts.thoughtSignatures && c.thoughtSignature) tc.extra_content = { google: { thought_signature: c.thoughtSignature } };
    return tc;
  }
}

export function encodeMessages(req: HubRequest, opts: EncodeRequestOptions): Json[] {
  const w = new MessageWriter(opts);
  w.system(req.system);
  const inline = opts.systemInPlace ? req.system.filter((p) => p.inline !== undefined) : [];
  const items = opts.systemInPlace ? req.items : userMessagesRejoined(req.items, req.system);
  let next = 0;
  for (const [index, item] of items.entries()) {
    if (next < inline.length && w.canInterject(item)) next = w.systemBefore(inline, next, index);
    switch (item.type) {
      case 'message':
        if (item.role !== 'user') w.assistant(item);
        else if (next < inline.length) next = w.userAround(item, inline, next, index);
        else w.user(item);
        break;
      case 'reasoning':
        w.reasoning(item);
        break;
      case 'function_call':
        w.call(item);
        break;
      case 'function_call_output':
        w.result(item);
        break;
    }
  }
  w.systemBefore(inline, next, req.items.length);
  return w.end();
}
