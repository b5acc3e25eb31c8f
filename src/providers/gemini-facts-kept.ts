/**
 * What Gemini's native list stated of a model, kept while a refresh cannot read that list. Its
 * OpenAI-compatible list says none of it, so a refresh whose native read failed would otherwise
 * forget that a model does not think, and the daemon would send it the `reasoning_effort` Google
 * refuses ("Thinking is not enabled for models/…") until the next good read; or list again a model
 * it said cannot generate content.
 */
import type { CatalogModel } from './models.js';

/** The fields the native list gives a listed model (models.ts withGeminiFacts). */
const NATIVE_FIELDS = ['contextWindow', 'maxOutput', 'reasons', 'efforts'] as const;

/**
 * The ids a list left out as unable to generate content, beside that list: they are not in it, so
 * the next refresh could not learn them from it. Keyed by the list itself, which the catalog hands
 * back as `lastGood` (a failed refresh keeps the same one).
 */
const notGenerating = new WeakMap<readonly CatalogModel[], ReadonlySet<string>>();

/** Gives `model` what the last good list stated of the same id, for a model the native read said nothing of. */
export function keepLastGeminiFacts(model: CatalogModel, lastGood: ReadonlyMap<string, CatalogModel>): void {
  const before = lastGood.get(model.id);
  if (!before) return;
  for (const field of NATIVE_FIELDS) if (before[field] !== undefined) Object.assign(model, { [field]: before[field] });
}

/** Records the ids `list` left out as unable to generate content. */
export function rememberNotGenerating(list: readonly CatalogModel[], ids: ReadonlySet<string>): void {
  notGenerating.set(list, ids);
}

/** The ids the last good list left out as unable to generate content. */
export function lastNotGenerating(lastGood: readonly CatalogModel[]): ReadonlySet<string> {
  return notGenerating.get(lastGood) ?? new Set();
}
