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
