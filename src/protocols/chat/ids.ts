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
 * The stem of tool-call ids we invent for one upstream answer: its response id (random when there
 * is none), so invented ids stay unique across turns — Anthropic rejects duplicate tool_use ids
 * in one request — yet stay deterministic for one answer.
 */
export function callIdBase(responseId: string | undefined): string {
  return (responseId ?? '').replace(/[^A-Za-z0-9]/g, '').slice(-24) || randomUUID().replace(/-/g, '').slice(0, 16);
}

/** A tool-call id for a call the server sent without one (or with another call's id). */
export function synthesizedCallId(base: string, n: number): string {
  return `call_${base}_${n}`;
}
