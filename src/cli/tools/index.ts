/** Every tool profile `svc-proxy env` and `svc-proxy run` know, and lookup by name or alias. */
import { aider } from './aider.js';
import { anthropicSdk } from './anthropic-sdk.js';
import { claudeCode } from './claude-code.js';
import { cline } from './cline.js';
import { codex } from './codex.js';
import { continueDev } from './continue.js';
import { crush } from './crush.js';
import { cursor } from './cursor.js';
import { goose } from './goose.js';
import { opencode } from './opencode.js';
import { openaiSdk } from './openai-sdk.js';
import { qwenCode } from './qwen-code.js';
import type { ToolProfile } from './types.js';
import { zed } from './zed.js';

export const TOOLS: readonly ToolProfile[] = [claudeCode, codex, openaiSdk, anthropicSdk, aider, opencode, qwenCode, crush, goose, continueDev, cline, cursor, zed];

export function findTool(name: string): ToolProfile | undefined {
  const n = name.trim().toLowerCase();
  return TOOLS.find((t) => t.id === n || t.aliases.includes(n));
}

export function toolNames(): string {
  return TOOLS.map((t) => t.id).join(', ');
}

/** The tools `svc-proxy run` starts (the others are apps or SDKs: `svc-proxy env` only). */
export function runnableToolNames(): string {
  return TOOLS.filter((t) => t.command).map((t) => t.id).join(', ');
}
