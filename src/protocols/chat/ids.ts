/** Ids a Chat client sees, and ids we must invent for servers that omit them. */
import { randomUUID } from 'node:crypto';

const FOREIGN_PREFIX = /^(?:msg_|resp_)/;

/**
 * `chatcmpl-…` for the client, reusing the upstream id's suffix so one request keeps one id
 * (msg_01ab → chatcmpl-01ab). Falls back to the context's suffix, then to a random one.
 */
export function chatCompletionId(hubId: string | undefined, idSuffix?: string): string {
  if (hubId) {
    if (hubId.startsWith('chatcmpl-')) return hubId;
    const rest = hubId.replace(FOREIGN_PREFIX, '');
    if (rest) return `chatcmpl-${rest}`;
  }
  return `chatcmpl-${idSuffix ?? randomUUID().replace(/-/g, '')}`;
}

/**
 * A tool-call id for a server that sent none (or an empty one). It mixes in the upstream response
 * id so ids stay unique across turns (Anthropic rejects duplicate tool_use ids in one request),
 * yet stays deterministic for one upstream answer.
 */
export function synthesizedCallId(responseId: string | undefined, n: number): string {
  const base = (responseId ?? '').replace(/[^A-Za-z0-9]/g, '').slice(-24);
  return base ? `call_${base}_${n}` : `call_${n}`;
}
