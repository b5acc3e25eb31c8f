/**
 * Anthropic's context editing (`context_management.edits`, beta context-management-2025-06-27) on
 * a Messages request converted for another model. Anthropic applies the edits to the prompt before
 * the model reads it and says in the answer what it cleared (`context_management.applied_edits`);
 * no other provider knows the field, so the conversion applies them itself. Claude Code sends
 * `clear_tool_uses_20250919` when a session comes back after its prompt cache expired: old tool
 * results are cleared then rather than paid for again.
 *
 * - `clear_tool_uses_20250919`: once the prompt is over `trigger` (input tokens, 100,000 by default,
 *   or a number of tool uses), every tool result but those of the last `keep` tool uses (3) and of
 *   `exclude_tools` is replaced by a placeholder; `clear_tool_inputs` (true, or tool names) clears
 *   those calls' inputs too; nothing is cleared when that would clear fewer than `clear_at_least`
 *   input tokens. Tokens are estimated (4 characters each, a media part 1,000): the upstream's own
 *   count is not known before it answers.
 * - Other edits (`clear_thinking_20251015`: thinking of earlier turns, which other models do not
 *   get back anyway; compaction) are left alone and not reported as applied.
 *
 * The client keeps its full history, as with Anthropic: only what this one request sends changes.
 */
import type { AppliedContextEdit, ContentPart, FunctionCallItem, FunctionCallOutputItem, HubRequest } from '../hub.js';
import { badRequest } from '../errors.js';
import { isObject, type JsonObject } from './json.js';

export const CLEAR_TOOL_USES = 'clear_tool_uses_20250919' as const;
/** What a cleared tool result says instead. */
export const CLEARED_TOOL_RESULT = '[This tool result was cleared from the context to save space.]';
const DEFAULT_TRIGGER_TOKENS = 100_000;
const DEFAULT_KEEP_TOOL_USES = 3;
const MEDIA_TOKENS = 1000;

interface Threshold {
  type: 'input_tokens' | 'tool_uses';
  value: number;
}

function tokensOfText(text: string): number {
  return Math.ceil(text.length / 4);
}

function tokensOfParts(content: string | ContentPart[]): number {
  if (typeof content === 'string') return tokensOfText(content);
  let n = 0;
  for (const part of content) n += part.type === 'text' || part.type === 'refusal' ? tokensOfText(part.text) : MEDIA_TOKENS;
  return n;
}

/** The prompt's size as the trigger counts it: system, tools and every item. */
export function estimatePromptTokens(hub: HubRequest): number {
  let n = tokensOfText(JSON.stringify(hub.tools));
  for (const s of hub.system) n += tokensOfText(s.text);
  for (const item of hub.items) {
    if (item.type === 'message') n += tokensOfParts(item.content);
    else if (item.type === 'reasoning') n += tokensOfText(item.text);
    else if (item.type === 'function_call') n += tokensOfText(item.arguments);
    else n += tokensOfParts(item.output);
  }
  return n;
}

function threshold(v: unknown, path: string, types: ReadonlyArray<Threshold['type']>): Threshold | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v) || !types.includes(v.type as Threshold['type']) || typeof v.value !== 'number' || !Number.isInteger(v.value) || v.value < 0) {
    throw badRequest('invalid_request', `${path} must be {"type": ${types.map((t) => JSON.stringify(t)).join(' or ')}, "value": a whole number ≥ 0}.`, path);
  }
  return { type: v.type as Threshold['type'], value: v.value };
}

function names(v: unknown, path: string): Set<string> {
  if (v === undefined || v === null) return new Set();
  if (!Array.isArray(v) || !v.every((n) => typeof n === 'string')) throw badRequest('invalid_request', `${path} must be a list of tool names.`, path);
  return new Set(v as string[]);
}

/** One clear_tool_uses edit on the hub request, in place; undefined when it did not apply. */
function clearToolUses(hub: HubRequest, edit: JsonObject, path: string): AppliedContextEdit | undefined {
  const trigger = threshold(edit.trigger, `${path}.trigger`, ['input_tokens', 'tool_uses']) ?? { type: 'input_tokens', value: DEFAULT_TRIGGER_TOKENS };
  const keep = threshold(edit.keep, `${path}.keep`, ['tool_uses'])?.value ?? DEFAULT_KEEP_TOOL_USES;
  const atLeast = threshold(edit.clear_at_least, `${path}.clear_at_least`, ['input_tokens'])?.value ?? 0;
  const excluded = names(edit.exclude_tools, `${path}.exclude_tools`);
  const inputs = edit.clear_tool_inputs;
  if (inputs !== undefined && inputs !== null && typeof inputs !== 'boolean') names(inputs, `${path}.clear_tool_inputs`);
  const clearsInput = (name: string): boolean => inputs === true || (Array.isArray(inputs) && inputs.includes(name));

  const calls = hub.items.filter((i): i is FunctionCallItem => i.type === 'function_call');
  const size = trigger.type === 'tool_uses' ? calls.length : estimatePromptTokens(hub);
  if (size <= trigger.value) return undefined;
  const results = new Map<string, FunctionCallOutputItem>();
  for (const item of hub.items) if (item.type === 'function_call_output') results.set(item.callId, item);

  const cleared: Array<{ call: FunctionCallItem; result: FunctionCallOutputItem | undefined }> = [];
  let tokens = 0;
  for (const call of calls.slice(0, Math.max(0, calls.length - keep))) {
    if (excluded.has(call.name)) continue;
    const result = results.get(call.callId);
    const resultTokens = result && result.output !== CLEARED_TOOL_RESULT ? tokensOfParts(result.output) : 0;
    const inputTokens = clearsInput(call.name) && call.arguments !== '{}' ? tokensOfText(call.arguments) : 0;
    if (resultTokens === 0 && inputTokens === 0) continue;
    tokens += resultTokens + inputTokens;
    cleared.push({ call, result: resultTokens > 0 ? result : undefined });
  }
  if (cleared.length === 0 || tokens < atLeast) return undefined;
  for (const { call, result } of cleared) {
    if (result) result.output = CLEARED_TOOL_RESULT;
    if (clearsInput(call.name)) call.arguments = '{}';
  }
  return { type: CLEAR_TOOL_USES, clearedToolUses: cleared.length, clearedInputTokens: tokens };
}

/**
 * Apply a request's `context_management` to its hub form, in place. Undefined when the request has
 * none (the answer then says nothing of it); otherwise the edits applied, in order (maybe none).
 */
export function applyContextEdits(hub: HubRequest, contextManagement: unknown): AppliedContextEdit[] | undefined {
  if (contextManagement === undefined || contextManagement === null) return undefined;
  if (!isObject(contextManagement)) throw badRequest('invalid_request', 'context_management must be an object with an "edits" list.', 'context_management');
  const edits = contextManagement.edits ?? [];
  if (!Array.isArray(edits)) throw badRequest('invalid_request', 'context_management.edits must be a list.', 'context_management.edits');
  const applied: AppliedContextEdit[] = [];
  edits.forEach((edit: unknown, i) => {
    const path = `context_management.edits[${i}]`;
    if (!isObject(edit) || typeof edit.type !== 'string') throw badRequest('invalid_request', `${path} must be an object with a type.`, path);
    if (edit.type !== CLEAR_TOOL_USES) return;
    const done = clearToolUses(hub, edit, path);
    if (done) applied.push(done);
  });
  return applied;
}

/** The answer's `context_management`, as Anthropic reports the edits it applied. */
export function contextManagementOf(edits: readonly AppliedContextEdit[]): { applied_edits: Array<{ type: string; cleared_tool_uses: number; cleared_input_tokens: number }> } {
  return { applied_edits: edits.map((e) => ({ type: e.type, cleared_tool_uses: e.clearedToolUses, cleared_input_tokens: e.clearedInputTokens })) };
}
