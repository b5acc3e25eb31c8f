/**
 * Limits a profile writes into a tool's own settings. A tool that gives up on a request the daemon
 * is still waiting for sends it again (a long prompt to a slow model then never finishes), so its
 * wait is set a minute past the longest the daemon waits for an upstream's first byte: the
 * daemon's error, not a silent resend, ends a wait that is too long.
 */
import type { ToolInput } from './types.js';

const MARGIN_MS = 60_000;

/** The tool's own limit, in milliseconds. */
export function outlastMs({ upstreamWaitMs }: Pick<ToolInput, 'upstreamWaitMs'>): number {
  return upstreamWaitMs + MARGIN_MS;
}

/** The same limit for tools that take whole seconds (rounded up, so it still outlasts the daemon). */
export function outlastSeconds(input: Pick<ToolInput, 'upstreamWaitMs'>): number {
  return Math.ceil(outlastMs(input) / 1000);
}

/**
 * Tools that must be told a model's context window and output allowance before they use it
 * (Crush, Zed) get these stand-ins: svc-proxy cannot know them for every provider/model. They fit
 * the models coding tools are mostly pointed at (Claude, GPT-5, Gemini 2.5); the notes say to
 * change them for a smaller model. An output allowance a model refuses with its limit stated is
 * fitted by the daemon (routing/output-caps.ts).
 */
export const STAND_IN_LIMITS = { contextWindow: 200_000, maxOutputTokens: 32_000 } as const;

/** The model's documented max output where it is known (model-facts.ts), else the stand-in. */
export function outputAllowance({ maxOutput }: Pick<ToolInput, 'maxOutput'>): number {
  return maxOutput ?? STAND_IN_LIMITS.maxOutputTokens;
}
