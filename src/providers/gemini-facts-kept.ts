/**
 * What Gemini's native list stated of a model, kept while a refresh cannot read that list. Its
 * OpenAI-compatible list says none of it, so a refresh whose native read failed would otherwise
 * forget that a model does not think, and the daemon would send it the `reasoning_effort` Google
 * refuses ("Thinking is not enabled for models/…") until the next good read.
 */
import type { CatalogModel } from './models.js';

/** The fields the native list gives a listed model (models.ts withGeminiFacts). */
const NATIVE_FIELDS = ['contextWindow', 'maxOutput', 'reasons', 'efforts'] as const;

/** Gives `model` what the last good list stated of the same id, for a model the native read said nothing of. */
export function keepLastGeminiFacts(model: CatalogModel, lastGood: ReadonlyMap<string, CatalogModel>): void {
  const before = lastGood.get(model.id);
  if (!before) return;
  for (const field of NATIVE_FIELDS) if (before[field] !== undefined) Object.assign(model, { [field]: before[field] });
}
