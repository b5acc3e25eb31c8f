/**
 * Reasoning items ↔ hub reasoning. A Responses reasoning item carries its proof of origin in
 * `encrypted_content`: OpenAI's own opaque value, or our envelope around a foreign origin
 * (an Anthropic signature, OpenRouter details, …) so a Responses client can hand it back.
 */
import type { ReasoningOrigin } from '../hub.js';
import { originOfOpaque, packOrigin } from '../reasoning-envelope.js';
import { isObject, str } from './json.js';

/** Separates summary parts (and raw reasoning parts) when they become one hub text. */
export const PART_SEPARATOR = '\n\n';

/**
 * The origin a reasoning item proves. Our envelope wins; otherwise OpenAI's own encrypted content
 * (replayable with its id). Without encrypted content nothing can be replayed: plain text only.
 */
export function originOf(id: string | undefined, encryptedContent: unknown): ReasoningOrigin {
  const ec = str(encryptedContent);
  if (!ec) return { kind: 'unsigned' };
  return originOfOpaque(ec, () => (id ? { kind: 'openai', id, encryptedContent: ec } : { kind: 'unsigned' }));
}

/** Visible text of a reasoning item: its summary parts, else its raw reasoning_text parts. */
export function textOf(item: Record<string, unknown>): string {
  const summary = partTexts(item.summary, 'summary_text');
  if (summary.length > 0) return summary.join(PART_SEPARATOR);
  return partTexts(item.content, 'reasoning_text').join(PART_SEPARATOR);
}

function partTexts(parts: unknown, type: string): string[] {
  if (!Array.isArray(parts)) return [];
  const texts: string[] = [];
  for (const part of parts) {
    if (isObject(part) && (part.type === undefined || part.type === type)) {
      const text = str(part.text);
      if (text) texts.push(text);
    }
  }
  return texts;
}

export interface WireReasoningItem {
  type: 'reasoning';
  id: string;
  summary: Array<{ type: 'summary_text'; text: string }>;
  encrypted_content: string;
}

/** A reasoning item for the wire: OpenAI origins keep their id and content; others ride in an envelope. */
export function wireReasoningItem(origin: ReasoningOrigin, text: string, fallbackId: string): WireReasoningItem {
  const summary = text ? [{ type: 'summary_text' as const, text }] : [];
  if (origin.kind === 'openai') {
    return { type: 'reasoning', id: origin.id, summary, encrypted_content: origin.encryptedContent };
  }
  return { type: 'reasoning', id: fallbackId, summary, encrypted_content: packOrigin(origin) };
}
