/**
 * Hub request → body of Gemini's native `models/{model}:countTokens` (the OpenAI-compatible
 * surface has no count endpoint). Everything Gemini reads is included: system instruction, tool
 * declarations, and the conversation with calls and results. Media Gemini cannot fetch itself
 * (remote URLs, foreign file ids) are left out and estimated separately by the caller.
 */
import type { ContentPart, HubRequest } from '../protocols/hub.js';
import { sanitizeGeminiSchema } from './gemini-schema.js';
import { stripModelsPrefix } from './gemini.js';
import { IMAGE_TOKENS } from './local-token-estimate.js';

type Part = Record<string, unknown>;
interface Content {
  role: 'user' | 'model';
  parts: Part[];
}

export interface GeminiCountRequest {
  body: Record<string, unknown>;
  /** Tokens for parts that could not be sent (added to Gemini's total). */
  extraTokens: number;
}

function parseArgs(text: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(text);
    return typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : { value: v };
  } catch {
    return { arguments: text };
  }
}

export function geminiCountBody(hub: HubRequest, model: string): GeminiCountRequest {
  let extraTokens = 0;
  const partOf = (p: ContentPart): Part | undefined => {
    switch (p.type) {
      case 'text':
      case 'refusal':
        return p.text === '' ? undefined : { text: p.text };
      case 'audio':
        return { inlineData: { mimeType: `audio/${p.format}`, data: p.data } };
      case 'image':
      case 'file':
        if (p.source.kind === 'base64') return { inlineData: { mimeType: p.source.mediaType, data: p.source.data } };
        if (p.source.kind === 'text') return { text: p.source.text };
        extraTokens += IMAGE_TOKENS;
        return undefined;
    }
  };

  const contents: Content[] = [];
  const push = (role: Content['role'], parts: Part[]) => {
    if (parts.length === 0) return;
    const last = contents[contents.length - 1];
    if (last && last.role === role) last.parts.push(...parts);
    else contents.push({ role, parts });
  };
  const callNames = new Map<string, string>();
  for (const item of hub.items) {
    switch (item.type) {
      case 'message':
        push(item.role === 'assistant' ? 'model' : 'user', item.content.map(partOf).filter((p): p is Part => p !== undefined));
        break;
      case 'function_call': {
        callNames.set(item.callId, item.name);
        const part: Part = { functionCall: { name: item.name, args: parseArgs(item.arguments) } };
        if (item.thoughtSignature) part.thoughtSignature = item.thoughtSignature;
        push('model', [part]);
        break;
      }
      case 'function_call_output': {
        const output =
          typeof item.output === 'string'
            ? item.output
            : item.output
                .map((p) => (p.type === 'text' ? p.text : ''))
                .filter((t) => t !== '')
                .join('\n');
        if (typeof item.output !== 'string') {
          for (const p of item.output) if (p.type !== 'text') extraTokens += IMAGE_TOKENS;
        }
        push('user', [{ functionResponse: { name: callNames.get(item.callId) ?? 'tool', response: { content: output } } }]);
        break;
      }
      case 'reasoning':
        break;
    }
  }

  // countTokens needs at least one content; a lone space costs nothing measurable.
  if (contents.length === 0) contents.push({ role: 'user', parts: [{ text: ' ' }] });
  const request: Record<string, unknown> = { model: `models/${stripModelsPrefix(model)}`, contents };
  const system = hub.system.map((s) => s.text).filter((t) => t !== '');
  if (system.length > 0) request.systemInstruction = { parts: system.map((text) => ({ text })) };
  const declarations: Record<string, unknown>[] = [];
  for (const tool of hub.tools) {
    if (tool.type !== 'function') continue;
    const decl: Record<string, unknown> = { name: tool.name };
    if (tool.description) decl.description = tool.description;
    if (tool.parameters) {
      const params = sanitizeGeminiSchema(tool.parameters);
      if (!(params.type === 'object' && params.properties === undefined)) decl.parameters = params;
    }
    declarations.push(decl);
  }
  if (declarations.length > 0) request.tools = [{ functionDeclarations: declarations }];
  return { body: { generateContentRequest: request }, extraTokens };
}
