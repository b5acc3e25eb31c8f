/**
 * Servers in thinking mode that want `reasoning_content` back on assistant messages (DeepSeek on
 * every one, Kimi on those with tool calls) get each such message's plain `reasoning` text, else a
 * placeholder. A message keeps a `reasoning_content` the server reads as present: any string when
 * the placeholder is empty (DeepSeek), a non-empty one otherwise (Kimi reads "" as missing).
 */
import { mayContain } from '../protocols/lazy-json.js';

type Obj = Record<string, unknown>;

export function fillAssistantReasoning(body: Obj, which: 'all' | 'tool-calls', placeholder: string): void {
  if (!mayContain(body, 'messages', which === 'all' ? 'assistant' : 'tool_calls') || !Array.isArray(body.messages)) return;
  for (const m of body.messages as unknown[]) {
    if (typeof m !== 'object' || m === null) continue;
    const message = m as Obj;
    if (message.role !== 'assistant') continue;
    if (which === 'tool-calls' && !(Array.isArray(message.tool_calls) && message.tool_calls.length > 0)) continue;
    const own = message.reasoning_content;
    if (typeof own === 'string' && (own !== '' || placeholder === '')) continue;
    message.reasoning_content = typeof message.reasoning === 'string' && message.reasoning !== '' ? message.reasoning : placeholder;
  }
}
