/**
 * Mistral's API, and Mistral models' chat templates, want an assistant turn between tool results
 * and the next user message: `tool → user` is a 400 "Unexpected role 'user' after role 'tool'"
 * (reported against Zed, Crush, avante.nvim, hermes-agent …). Other providers take it, and it is
 * what a Messages client's turn that holds tool results and text becomes (Claude Code adds
 * reminders beside its tool results), as well as a Chat client's history when the user spoke
 * before the model went on. For models named as Mistral's, a short assistant turn bridges the two.
 */
import { mayContain } from '../protocols/lazy-json.js';
import { isMistralModel } from './mistral-tool-ids.js';

type Obj = Record<string, unknown>;

/** What the bridging turn says: that the results arrived, and nothing a model could take as an answer. */
export const TOOL_RESULTS_RECEIVED = 'Tool results received.';

function roleOf(m: unknown): unknown {
  return typeof m === 'object' && m !== null ? (m as Obj).role : undefined;
}

export function bridgeToolToUser(body: Obj, model: string): void {
  if (!isMistralModel(model) || !mayContain(body, 'messages', 'tool') || !Array.isArray(body.messages)) return;
  const messages = body.messages as unknown[];
  for (let i = messages.length - 1; i > 0; i--) {
    if (roleOf(messages[i]) === 'user' && roleOf(messages[i - 1]) === 'tool') messages.splice(i, 0, { role: 'assistant', content: TOOL_RESULTS_RECEIVED });
  }
}
