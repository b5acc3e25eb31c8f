/**
 * Mistral's API, and Mistral models behind vLLM, llama.cpp or MLX (their chat template checks it),
 * take only tool call ids of exactly nine letters and digits: anything else is a 400 "Tool call id
 * was call_… but must be a-z, A-Z, 0-9, with a length of 9" on the turn that replays it. Calls made
 * by another model before a switch (`toolu_…`, `call_…`) break every Mistral tool loop that follows.
 *
 * Each other id in the history becomes nine base-62 characters of its SHA-256, on the call and on
 * its result alike, so the pair still matches; Mistral's own ids pass unchanged and nothing needs
 * restoring, since answers carry Mistral's ids. Only models named as Mistral's are touched.
 */
import { createHash } from 'node:crypto';
import { mayContain } from '../protocols/lazy-json.js';
import { isObject } from '../util/is-object.js';

type Obj = Record<string, unknown>;

const MISTRAL_MODEL = /mistral|mixtral|devstral|codestral|ministral|magistral|pixtral|voxtral/i;
const MISTRAL_ID = /^[A-Za-z0-9]{9}$/;
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export function isMistralModel(model: string): boolean {
  return MISTRAL_MODEL.test(model);
}

export function mistralToolCallId(id: string): string {
  if (MISTRAL_ID.test(id)) return id;
  const digest = createHash('sha256').update(id).digest();
  let out = '';
  for (let i = 0; i < 9; i++) out += BASE62[digest[i]! % 62];
  return out;
}

export function fitToolCallIds(body: Obj, model: string): void {
  if (!isMistralModel(model) || !mayContain(body, 'messages', 'tool_calls') || !Array.isArray(body.messages)) return;
  for (const m of body.messages as unknown[]) {
    if (!isObject(m)) continue;
    if (m.role === 'tool' && typeof m.tool_call_id === 'string') m.tool_call_id = mistralToolCallId(m.tool_call_id);
    if (m.role !== 'assistant' || !Array.isArray(m.tool_calls)) continue;
    for (const call of m.tool_calls as unknown[]) {
      if (isObject(call) && typeof call.id === 'string') call.id = mistralToolCallId(call.id);
    }
  }
}
