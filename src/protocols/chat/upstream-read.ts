/** Reading upstream Chat messages and deltas the way servers actually send them. */
import type { FunctionCallItem } from '../hub.js';
import { isRecord, str, type Json } from './guards.js';
import { callIdBase, synthesizedCallId } from './ids.js';

/** Gemini's `extra_content.google.thought_signature` on a tool call. */
export function thoughtSignatureOf(tc: Json): string | undefined {
  const extra = tc.extra_content;
  if (!isRecord(extra) || !isRecord(extra.google)) return undefined;
  return str(extra.google.thought_signature) || undefined;
}

/** Arguments as JSON text: some servers send the object itself (Ollama, some proxies). */
export function argumentsText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (v === undefined || v === null) return '';
  return JSON.stringify(v);
}

/** Tool calls of a non-streamed upstream message; ids synthesised where missing or repeated. */
export function readMessageToolCalls(message: Json, responseId: string | undefined): FunctionCallItem[] {
  const raw = message.tool_calls;
  const calls: FunctionCallItem[] = [];
  const seen = new Set<string>();
  let base: string | undefined;
  const invent = (n: number): string => synthesizedCallId((base ??= callIdBase(responseId)), n);
  if (Array.isArray(raw)) {
    for (const tc of raw) {
      if (!isRecord(tc)) continue;
      const fn = isRecord(tc.function) ? tc.function : {};
      let id = str(tc.id);
      if (!id || seen.has(id)) id = invent(calls.length);
      seen.add(id);
      const call: FunctionCallItem = { type: 'function_call', callId: id, name: str(fn.name) ?? '', arguments: argumentsText(fn.arguments) || '{}' };
      const sig = thoughtSignatureOf(tc);
      if (sig) call.thoughtSignature = sig;
      calls.push(call);
    }
  }
  // The deprecated single function_call (old servers).
  if (calls.length === 0 && isRecord(message.function_call)) {
    const fc = message.function_call;
    calls.push({ type: 'function_call', callId: invent(0), name: str(fc.name) ?? '', arguments: argumentsText(fc.arguments) || '{}' });
  }
  return calls;
}

/** Text of `content`: a string, or (some servers) a list of text parts. */
export function contentText(v: unknown): string {
  if (typeof v === 'string') return v;
  if (!Array.isArray(v)) return '';
  return v.map((p) => (isRecord(p) && typeof p.text === 'string' ? p.text : '')).join('');
}
