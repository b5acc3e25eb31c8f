/**
 * Tool names every target accepts: `^[A-Za-z0-9_-]{1,64}$` is the intersection of OpenAI's rule
 * (64 chars) and Anthropic's (128 chars, same alphabet). Messages clients (Claude Code's
 * `mcp__server__tool` names) routinely exceed 64; Gemini-style clients use dots.
 *
 * A name that does not fit is cleaned and cut, and an 8-hex hash of the original keeps distinct
 * names distinct. The mapping is a pure function of the name, so history items and tool
 * definitions agree without coordination; answers are restored through the per-request map.
 *
 * Functions of a Responses `namespace` tool (Codex's `multi_agent_v1`) reach targets without
 * namespaces as `${namespace}__${name}`, made safe the same way; answers get the namespace and
 * the name inside it back. This file is the only place that joins and splits them.
 */
import type { HubEvent, HubRequest, HubResponse } from '../protocols/hub.js';

const MAX_LEN = 64;
const SAFE = /^[A-Za-z0-9_-]+$/;
const NAMESPACE_JOIN = '__';

/** The client's own name for a tool: the name alone, or a namespace and the name inside it. */
export type ClientToolName = string | { namespace: string; name: string };

/** Target-facing name → the client's name, for the names that had to change in one request. */
export type ToolNameMap = Map<string, ClientToolName>;

/** The name a target sees for a client's tool (`namespace` for functions of a namespace tool). */
export function targetToolName(name: string, namespace?: string): string {
  return safeToolName(namespace === undefined ? name : `${namespace}${NAMESPACE_JOIN}${name}`);
}

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
  const rename = (name: string, namespace: string | undefined): string => {
    const target = targetToolName(name, namespace);
    if (namespace !== undefined) (map ??= new Map()).set(target, { namespace, name });
    else if (target !== name) (map ??= new Map()).set(target, name);
    return target;
  };
  // A tool choice names a function without its namespace (the SDK has no field for it): a flat
  // function of that name wins, else the namespace that declares it.
  const plain = new Set<string>();
  const declaredIn = new Map<string, string>();
  for (const tool of req.tools) {
    if (tool.type !== 'function') continue;
    if (tool.namespace === undefined) plain.add(tool.name);
    else if (!declaredIn.has(tool.name)) declaredIn.set(tool.name, tool.namespace);
  }
  const chosen = (name: string, namespace?: string): string =>
    rename(name, namespace ?? (plain.has(name) ? undefined : declaredIn.get(name)));

  for (const tool of req.tools) {
    if (tool.type !== 'function') continue;
    tool.name = rename(tool.name, tool.namespace);
    delete tool.namespace;
  }
  const choice = req.toolChoice;
  if (choice?.type === 'function') {
    choice.name = chosen(choice.name, choice.namespace);
    delete choice.namespace;
  } else if (choice?.type === 'allowed_tools') {
    choice.names = choice.names.map((name) => chosen(name));
  }
  for (const item of req.items) {
    if (item.type !== 'function_call') continue;
    item.name = rename(item.name, item.namespace);
    delete item.namespace;
  }
  return map;
}

/** Give a function call from the target the client's name (and namespace) back, in place. */
function restoreCall(call: { name: string; namespace?: string }, map: ToolNameMap): void {
  const original = map.get(call.name);
  if (original === undefined) return;
  if (typeof original === 'string') {
    call.name = original;
  } else {
    call.name = original.name;
    call.namespace = original.namespace;
  }
}

/** Restore names in a non-streamed answer, in place. */
export function restoreResponseToolNames(res: HubResponse, map: ToolNameMap): void {
  for (const item of res.output) {
    if (item.type === 'function_call') restoreCall(item, map);
  }
}

/** Restore the name on a stream event, in place (only function-call block starts carry one). */
export function restoreEventToolName(ev: HubEvent, map: ToolNameMap): void {
  if (ev.type === 'block_start' && ev.block.type === 'function_call') restoreCall(ev.block, map);
}

function fnv1a(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return (h >>> 0).toString(16).padStart(8, '0');
}
