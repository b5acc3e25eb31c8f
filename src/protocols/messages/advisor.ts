/**
 * Anthropic's advisor tool (`advisor_20260301`, beta `advisor-tool-2026-03-01`): during a Claude
 * answer Anthropic runs a stronger model over the conversation and puts its advice in the answer,
 * as a `server_tool_use` named "advisor" followed by an `advisor_tool_result`. Claude Code declares
 * it when its advisor is on. Only Anthropic runs it; for any other model it is left out — the
 * model answers without an advisor, as Claude would when it does not consult one — and the
 * advisor blocks of earlier Claude turns are left out of the converted history, as past searches
 * are: the answer after them is what the conversation keeps.
 */
import type { JsonObject } from './json.js';

export function isAdvisorTool(tool: JsonObject): boolean {
  return typeof tool.type === 'string' && /^advisor_\d{8}$/.test(tool.type);
}

/** A block of an advisor consultation in an earlier assistant turn. */
export function isAdvisorBlock(block: JsonObject): boolean {
  return block.type === 'advisor_tool_result' || (block.type === 'server_tool_use' && block.name === 'advisor');
}
