/**
 * Tool names every target accepts: `^[A-Za-z0-9_-]{1,64}$` is the intersection of OpenAI's rule
 * (64 chars) and Anthropic's (128 chars, same alphabet). Messages clients (Claude Code's
 * `mcp__server__tool` names) routinely exceed 64; Gemini-style clients use dots.
 *
 * A name that does not fit is cleaned and cut, and an 8-hex hash of the original keeps distinct
 * names distinct. The mapping is a pure function of the name, so history items and tool
 * definitions agree without coordination; answers are restored through the per-request map.
 */
import type { HubEvent, HubRequest, HubResponse } from '../protocols/hub.js';

const MAX_LEN = 64;
const SAFE = /^[A-Za-z0-9_-]+$/;

/** Short name → original name, for the names that had to change in one request. */
export type ToolNameMap = Map<string, string>;

export function safeToolName(name: string): string {
  if (name.length > 0 && name.length <= MAX_LEN && SAFE.test(name)) return name;
  const cleaned = name.replace(/[^A-Za-z0-9_-]/g, '_');
  return `${cleaned.slice(0, MAX_LEN - 9)}_${fnv1a(name)}`;
}

/**
 * Rewrite every tool name in the hub request in place (definitions, tool_choice, history).
 * Returns the map to restore names in the answer, or undefined when nothing changed.
 */
export function shortenToolNames(req: HubRequest): ToolNameMap | undefined {
  let map: ToolNameMap | undefined;
  const shorten = (name: string): string => {
    const safe = safeToolName(name);
    if (safe !== name) (map ??= new Map()).set(safe, name);
    return safe;
  };
  for (const tool of req.tools) {
    if (tool.type === 'function') tool.name = shorten(tool.name);
  }
  const choice = req.toolChoice;
  if (choice?.type === 'function') choice.name = shorten(choice.name);
  else if (choice?.type === 'allowed_tools') choice.names = choice.names.map(shorten);
  for (const item of req.items) {
    if (item.type === 'function_call') item.name = shorten(item.name);
  }
  return map;
}

export function restoreToolName(map: ToolNameMap, name: string): string {
  return map.get(name) ?? name;
}

/** Restore names in a non-streamed answer, in place. */
export function restoreResponseToolNames(res: HubResponse, map: ToolNameMap): void {
  for (const item of res.output) {
    if (item.type === 'function_call') item.name = restoreToolName(map, item.name);
  }
}

/** Restore the name on a stream event, in place (only function-call block starts carry one). */
export function restoreEventToolName(ev: HubEvent, map: ToolNameMap): void {
  if (ev.type === 'block_start' && ev.block.type === 'function_call') ev.block.name = restoreToolName(map, ev.block.name);
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
