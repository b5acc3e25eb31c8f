/**
 * Input-token estimate for providers without a count endpoint: a real BPE tokenizer (o200k_base,
 * loaded lazily on first use: ~30 MB of tables that nothing else needs) over everything the model
 * reads — system prompts, tool definitions, and every message part including tool calls and
 * results — plus the per-message framing overhead chat templates add. Media get fixed estimates.
 */
import type { ContentPart, HubRequest, MediaSource } from '../protocols/hub.js';

/** Framing tokens around each message (role markers), as OpenAI's cookbook counts them. */
const PER_MESSAGE = 3;
/** Tokens priming the reply. */
const REPLY_PRIMING = 3;
/** Per tool definition, around its JSON. */
const PER_TOOL = 8;
/** An image whose size is unknown (typical ~1 MP image on current models). */
export const IMAGE_TOKENS = 1000;
/** A PDF page (Anthropic documents 1,500–3,000 per page; text-light pages are cheaper). */
const PDF_PAGE_TOKENS = 1500;

/** Tokens of a text, as o200k_base cuts it. */
export type TokenCounter = (text: string) => number;
type Counter = TokenCounter;
let counter: Promise<Counter> | undefined;

/** The tokenizer, loaded on the first call (later calls get the same one). */
export function textTokenCounter(): Promise<TokenCounter> {
  counter ??= import('gpt-tokenizer/encoding/o200k_base').then((m) => {
    // Text that looks like a special token is counted as text, not rejected.
    const options = { disallowedSpecial: new Set<string>() };
    return (text: string) => (text === '' ? 0 : m.countTokens(text, options));
  });
  return counter;
}

function base64Bytes(data: string): number {
  const clean = data.replace(/\s/g, '');
  const padding = clean.endsWith('==') ? 2 : clean.endsWith('=') ? 1 : 0;
  return Math.max(0, Math.floor((clean.length * 3) / 4) - padding);
}

function pdfPages(data: string): number {
  const text = Buffer.from(data, 'base64').toString('latin1');
  return (text.match(/\/Type\s*\/Page(?![a-zA-Z])/g) ?? []).length;
}

function mediaTokens(source: MediaSource, count: Counter, kind: 'image' | 'file'): number {
  switch (source.kind) {
    case 'text':
      return count(source.text);
    case 'base64':
      if (kind === 'file' && source.mediaType === 'application/pdf') {
        const pages = pdfPages(source.data);
        return pages > 0 ? pages * PDF_PAGE_TOKENS : Math.ceil(base64Bytes(source.data) / 4);
      }
      if (kind === 'file' && source.mediaType.startsWith('text/')) return count(Buffer.from(source.data, 'base64').toString('utf8'));
      return IMAGE_TOKENS;
    default:
      return IMAGE_TOKENS;
  }
}

function partTokens(part: ContentPart, count: Counter): number {
  switch (part.type) {
    case 'text':
    case 'refusal':
      return count(part.text);
    case 'image':
      return mediaTokens(part.source, count, 'image');
    case 'file':
      return mediaTokens(part.source, count, 'file') + (part.filename ? count(part.filename) : 0);
    case 'audio':
      // ~32 tokens per second of 16 kHz 16-bit audio ≈ one token per kilobyte.
      return Math.max(1, Math.ceil(base64Bytes(part.data) / 1000));
  }
}

export async function estimateInputTokens(hub: HubRequest): Promise<number> {
  return countInputTokens(hub, await textTokenCounter());
}

/** estimateInputTokens with the tokenizer at hand. */
export function countInputTokens(hub: HubRequest, count: TokenCounter): number {
  let total = REPLY_PRIMING;
  if (hub.system.length > 0) {
    total += PER_MESSAGE;
    for (const s of hub.system) total += count(s.text);
  }
  for (const tool of hub.tools) {
    const json =
      tool.type === 'function' ? JSON.stringify({ name: tool.name, description: tool.description, parameters: tool.parameters }) : tool.type === 'hosted' ? JSON.stringify(tool.raw) : tool.name;
    total += PER_TOOL + count(json);
  }
  for (const item of hub.items) {
    switch (item.type) {
      case 'message':
        total += PER_MESSAGE + (item.name ? count(item.name) + 1 : 0);
        for (const part of item.content) total += partTokens(part, count);
        break;
      case 'function_call':
        total += PER_MESSAGE + count(item.name) + count(item.arguments);
        break;
      case 'function_call_output':
        total += PER_MESSAGE + (typeof item.output === 'string' ? count(item.output) : item.output.reduce((n, p) => n + partTokens(p, count), 0));
        break;
      case 'reasoning':
        // Earlier turns' reasoning is not re-read by the model on these servers.
        break;
    }
  }
  return total;
}
