/**
 * Built-in providers whose model lists state no context window (OpenAI's; Gemini's
 * OpenAI-compatible one): asking the catalog for a window there is a round trip to the provider
 * that cannot answer. Which fields the other lists state is in models.ts (contextWindowOf).
 */
export const LISTS_WITHOUT_WINDOWS: ReadonlySet<string> = new Set(['openai', 'gemini']);
