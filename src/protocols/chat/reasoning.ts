/**
 * How reasoning travels in the Chat dialect (team convention, PROTOCOLS.md §7.4).
 *
 * Chat has no standard reasoning field, so we speak every common dialect of it at once:
 * `reasoning_content` (DeepSeek/LiteLLM/llama.cpp), `reasoning` (OpenRouter/vLLM/Ollama),
 * `reasoning_details` (OpenRouter, which also carries the proof of origin) and `thinking_blocks`
 * (LiteLLM, Anthropic origins only). Proof of origin rides in `reasoning_details`:
 *   anthropic          → {type:'reasoning.text', text, signature, format:'anthropic-claude-v1', index}
 *   anthropic_redacted → {type:'reasoning.encrypted', data, format:'anthropic-claude-v1', index}
 *   openai             → {type:'reasoning.summary', summary, …} + {type:'reasoning.encrypted', id, data, format:'openai-responses-v1', index}
 *   openrouter         → its details verbatim
 *   unsigned           → text only
 */
import type { ReasoningItem, ReasoningOrigin } from '../hub.js';
import { originFromSignature, reasoningOfThinkingBlock } from '../reasoning-envelope.js';
import { badRequest } from '../errors.js';
import { isRecord, str, type Json } from './guards.js';

export const ANTHROPIC_FORMAT = 'anthropic-claude-v1';
export const OPENAI_FORMAT = 'openai-responses-v1';
export const UNKNOWN_FORMAT = 'unknown';

/** Separator between the texts of two reasoning blocks in the flat `reasoning_content` string. */
export const BLOCK_SEPARATOR = '\n\n';

// ---------------------------------------------------------------------------------------------
// Rendering (hub → Chat client)
// ---------------------------------------------------------------------------------------------

export interface ClientReasoningFields {
  reasoning_content: string;
  reasoning: string;
  reasoning_details?: Json[];
  thinking_blocks?: Json[];
}

/**
 * The reasoning_details entries that prove an origin, with `text` for the text-bearing entry.
 * Pass text '' for the streamed form, where the text already went out piece by piece.
 */
export function originDetails(origin: ReasoningOrigin, text: string, index: number): Json[] {
  switch (origin.kind) {
    case 'anthropic':
      return [{ type: 'reasoning.text', text, signature: origin.signature, format: ANTHROPIC_FORMAT, index }];
    case 'anthropic_redacted':
      return [{ type: 'reasoning.encrypted', data: origin.data, format: ANTHROPIC_FORMAT, index }];
    case 'openai': {
      const encrypted = { type: 'reasoning.encrypted', id: origin.id, data: origin.encryptedContent, format: OPENAI_FORMAT, index };
      return text ? [{ type: 'reasoning.summary', summary: text, format: OPENAI_FORMAT, index }, encrypted] : [encrypted];
    }
    case 'openrouter':
      return origin.details.map((d) => ({ ...d }));
    case 'unsigned':
      return [];
  }
}

/** LiteLLM-style thinking block for Anthropic origins (text '' in the streamed signature entry). */
export function originThinkingBlock(origin: ReasoningOrigin, text: string): Json | undefined {
  if (origin.kind === 'anthropic') return { type: 'thinking', thinking: text, signature: origin.signature };
  if (origin.kind === 'anthropic_redacted') return { type: 'redacted_thinking', data: origin.data };
  return undefined;
}

/** Highest `index` used by a list of details, so our own entries never collide with verbatim ones. */
function nextIndexAfter(details: ReadonlyArray<Record<string, unknown>>, current: number): number {
  let next = current;
  for (const d of details) {
    const i = d.index;
    if (typeof i === 'number' && Number.isInteger(i) && i >= next) next = i + 1;
  }
  return next;
}

/** All reasoning fields of a non-streamed assistant message for a Chat client. */
export function renderClientReasoning(items: ReadonlyArray<ReasoningItem>): ClientReasoningFields | undefined {
  if (items.length === 0) return undefined;
  const texts: string[] = [];
  const details: Json[] = [];
  const blocks: Json[] = [];
  let index = 0;
  for (const item of items) {
    if (item.text) texts.push(item.text);
    const own = originDetails(item.origin, item.text, index);
    details.push(...own);
    index = item.origin.kind === 'openrouter' ? nextIndexAfter(item.origin.details, index) : own.length > 0 ? index + 1 : index;
    const block = originThinkingBlock(item.origin, item.text);
    if (block) blocks.push(block);
  }
  const text = texts.join(BLOCK_SEPARATOR);
  const fields: ClientReasoningFields = { reasoning_content: text, reasoning: text };
  if (details.length > 0) fields.reasoning_details = details;
  if (blocks.length > 0) fields.thinking_blocks = blocks;
  return fields;
}

// ---------------------------------------------------------------------------------------------
// Decoding a Chat client's assistant message (prefer reasoning_details > thinking_blocks > text)
// ---------------------------------------------------------------------------------------------

function detailText(d: Json): string {
  return (str(d.text) ?? '') + (str(d.summary) ?? '');
}

/** Entries of one reasoning block: grouped by `index` (stream pieces and merged entries alike). */
function groupByIndex(details: Json[]): Json[][] {
  const groups: Json[][] = [];
  const byIndex = new Map<number, Json[]>();
  for (const d of details) {
    const i = d.index;
    if (typeof i === 'number') {
      const g = byIndex.get(i);
      if (g) {
        g.push(d);
        continue;
      }
      const fresh = [d];
      byIndex.set(i, fresh);
      groups.push(fresh);
    } else {
      groups.push([d]);
    }
  }
  return groups;
}

function isOwnFormat(f: unknown): boolean {
  return f === undefined || f === null || f === UNKNOWN_FORMAT || f === ANTHROPIC_FORMAT;
}

function groupToItem(group: Json[]): ReasoningItem | undefined {
  const text = group.map(detailText).join('');
  const redacted = group.find((d) => d.type === 'reasoning.encrypted' && d.format === ANTHROPIC_FORMAT && typeof d.data === 'string');
  if (redacted) return { type: 'reasoning', text: '', origin: { kind: 'anthropic_redacted', data: redacted.data as string } };
  const openai = group.find(
    (d) => d.type === 'reasoning.encrypted' && d.format === OPENAI_FORMAT && typeof d.id === 'string' && typeof d.data === 'string',
  );
  if (openai) return { type: 'reasoning', text, origin: { kind: 'openai', id: openai.id as string, encryptedContent: openai.data as string } };
  const ownFormat = group.every((d) => isOwnFormat(d.format) && (d.type === 'reasoning.text' || d.type === 'reasoning.summary'));
  if (ownFormat) {
    let signature = '';
    for (const d of group) if (typeof d.signature === 'string' && d.signature) signature = d.signature;
    if (signature) return { type: 'reasoning', text, origin: originFromSignature(signature) };
    return text ? { type: 'reasoning', text, origin: { kind: 'unsigned' } } : undefined;
  }
  return { type: 'reasoning', text, origin: { kind: 'openrouter', details: group.map((d) => ({ ...d })) } };
}

function fromThinkingBlocks(blocks: Json[]): ReasoningItem[] {
  const items: ReasoningItem[] = [];
  for (const b of blocks) {
    if (b.type === 'redacted_thinking' && typeof b.data === 'string') {
      items.push({ type: 'reasoning', text: '', origin: { kind: 'anthropic_redacted', data: b.data } });
    } else if (b.type === 'thinking') {
      const text = str(b.thinking) ?? '';
      const signature = str(b.signature) ?? '';
      if (signature || text) items.push(reasoningOfThinkingBlock(text, signature));
    }
  }
  return items;
}

function objectList(v: unknown, param: string): Json[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every(isRecord)) throw badRequest('invalid_messages', `${param} must be an array of objects.`, param);
  return v.length > 0 ? v : undefined;
}

/** Reasoning items carried on a client's assistant message, in the order they belong before its content. */
export function decodeClientReasoning(msg: Json, path: string): ReasoningItem[] {
  const details = objectList(msg.reasoning_details, `${path}.reasoning_details`);
  if (details) return groupByIndex(details).flatMap((g) => groupToItem(g) ?? []);
  const blocks = objectList(msg.thinking_blocks, `${path}.thinking_blocks`);
  if (blocks) return fromThinkingBlocks(blocks);
  const text = str(msg.reasoning_content) || str(msg.reasoning);
  return text ? [{ type: 'reasoning', text, origin: { kind: 'unsigned' } }] : [];
}

// ---------------------------------------------------------------------------------------------
// Replaying history to a Chat upstream (request encoding)
// ---------------------------------------------------------------------------------------------

export interface ReplayFields {
  reasoning?: string;
  reasoning_details?: Json[];
}

/**
 * Reasoning of one assistant turn for a Chat upstream: only origins the target accepts; unsigned
 * text as `reasoning` (vLLM ≥0.16 reads only that), everything signed as reasoning_details.
 * Dropped reasoning disappears; it never becomes visible text.
 */
export function replayReasoning(items: ReadonlyArray<ReasoningItem>, accepted: ReadonlyArray<ReasoningOrigin['kind']>): ReplayFields {
  const texts: string[] = [];
  const details: Json[] = [];
  let index = 0;
  for (const item of items) {
    if (!accepted.includes(item.origin.kind)) continue;
    if (item.origin.kind === 'unsigned') {
      if (item.text) texts.push(item.text);
      continue;
    }
    const own = originDetails(item.origin, item.text, index);
    details.push(...own);
    index = item.origin.kind === 'openrouter' ? nextIndexAfter(item.origin.details, index) : index + 1;
  }
  const out: ReplayFields = {};
  if (texts.length > 0) out.reasoning = texts.join(BLOCK_SEPARATOR);
  if (details.length > 0) out.reasoning_details = details;
  return out;
}

// ---------------------------------------------------------------------------------------------
// Reading an upstream Chat message / delta
// ---------------------------------------------------------------------------------------------

/** Reasoning text of an upstream message or delta: `reasoning` or `reasoning_content` (never both counted). */
export function upstreamReasoningText(m: Json): string | undefined {
  return str(m.reasoning) || str(m.reasoning_content) || undefined;
}

/** reasoning_details entries of an upstream message or delta (objects only). */
export function upstreamDetails(m: Json): Json[] {
  const d = m.reasoning_details;
  return Array.isArray(d) ? d.filter(isRecord) : [];
}

/** Text carried by reasoning_details entries (used when a delta has no plain reasoning string). */
export function detailsText(details: ReadonlyArray<Json>): string {
  return details.map(detailText).join('');
}

/** The reasoning item of a non-streamed upstream message: details → openrouter origin, text alone → unsigned. */
export function upstreamReasoningItem(m: Json): ReasoningItem | undefined {
  const details = upstreamDetails(m);
  const text = upstreamReasoningText(m) ?? detailsText(details);
  if (details.length > 0) return { type: 'reasoning', text, origin: { kind: 'openrouter', details } };
  return text ? { type: 'reasoning', text, origin: { kind: 'unsigned' } } : undefined;
}
