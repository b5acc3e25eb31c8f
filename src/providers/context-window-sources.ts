/**
 * Built-in providers whose model lists state no context window (OpenAI's): their windows are the
 * figures the provider documents (openai-windows.ts), known without asking the catalog, which
 * would be a round trip to a provider that cannot say more. Which fields the other lists state is
 * in models.ts (contextWindowOf); Gemini's come from its native list (gemini-native-list.ts).
 */
import { openaiDocumentedLimits, openaiInputWindow } from './openai-windows.js';

export const LISTS_WITHOUT_WINDOWS: ReadonlySet<string> = new Set(['openai']);

/** The documented window of a model of such a provider (`model` without the slug), or undefined. */
export function documentedWindow(provider: string, model: string): number | undefined {
  return provider === 'openai' ? openaiInputWindow(model) : undefined;
}

/** The documented max output tokens of such a model, or undefined. */
export function documentedMaxOutput(provider: string, model: string): number | undefined {
  return provider === 'openai' ? openaiDocumentedLimits(model)?.maxOutput : undefined;
}
