/**
 * Built-in providers whose model lists state no context window (OpenAI's): asking the catalog for
 * a window there is a round trip to the provider that cannot answer. Which fields the other lists
 * state is in models.ts (contextWindowOf); Gemini's come from its native list (gemini-limits.ts).
 */
export const LISTS_WITHOUT_WINDOWS: ReadonlySet<string> = new Set(['openai']);
