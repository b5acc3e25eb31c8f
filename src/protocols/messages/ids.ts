/**
 * Message ids the Messages client sees: `msg_` + the upstream id's suffix, so one request keeps
 * one id across the log and every dialect; synthesised only when the upstream gave none.
 */
import { randomBytes } from 'node:crypto';
import type { ResponseContext } from '../codec.js';

const KNOWN_PREFIXES = /^(?:msg_|chatcmpl-|resp_|gen-)/;

export function clientMessageId(upstreamId: string | undefined, ctx: ResponseContext): string {
  const suffix = upstreamId?.replace(KNOWN_PREFIXES, '') || ctx.idSuffix || randomBytes(12).toString('hex');
  return `msg_${suffix}`;
}

/** A tool_use id for a call that arrived without one (some chat servers omit it). */
export function syntheticToolUseId(ctx: ResponseContext, n: number): string {
  return `toolu_${ctx.idSuffix ?? randomBytes(8).toString('hex')}_${n}`;
}

/**
 * Anthropic takes only tool_use ids matching ^[a-zA-Z0-9_-]+$ (400 "tool_use.id: String should
 * match pattern"), and other models issue ids outside it (Kimi K2: `functions.get_weather:0`). Such
 * an id enters Messages as `svcp_` + its base64url form and leaves as it was: a Messages client
 * can take the conversation to Claude, and the model that issued the id still sees its own (Kimi
 * reads the call index from it). A safe id that happens to start with the prefix is encoded too,
 * so every id comes back exactly.
 */
const SAFE_TOOL_USE_ID = /^[A-Za-z0-9_-]+$/;
const ENCODED_ID = 'svcp_';

export function toolUseId(callId: string): string {
  if (SAFE_TOOL_USE_ID.test(callId) && !callId.startsWith(ENCODED_ID)) return callId;
  return ENCODED_ID + Buffer.from(callId, 'utf8').toString('base64url');
}

/** The call id a tool_use id stands for (only an exact round trip is decoded). */
export function callIdOf(id: string): string {
  if (!id.startsWith(ENCODED_ID)) return id;
  const decoded = Buffer.from(id.slice(ENCODED_ID.length), 'base64url').toString('utf8');
  return toolUseId(decoded) === id ? decoded : id;
}
