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

/**
 * Whether a provider's window is the input alone, its max output on top of it: OpenAI's documented
 * window is the page's context less its max output (openai-windows.ts), Gemini's `inputTokenLimit`
 * is the input's own limit beside `outputTokenLimit`. Anthropic's `max_input_tokens` is not: input
 * and `max_tokens` share it ("input length and `max_tokens` exceed context limit: 188162 + 32000 >
 * 200000", output-caps.ts), as they do on any other list's window.
 */
export function outputBesideWindow(provider: string): boolean {
  return provider === 'openai' || provider === 'gemini';
}

/** The documented max output tokens of such a model, or undefined. */
export function documentedMaxOutput(provider: string, model: string): number | undefined {
  return provider === 'openai' ? openaiDocumentedLimits(model)?.maxOutput : undefined;
}
