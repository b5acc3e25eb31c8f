/**
 * The reasoning controls providers' model lists stated per model, as the catalogs read them: the
 * effort levels a model takes (Anthropic's `capabilities.effort`, anthropic-capabilities.ts; none
 * for a model Gemini's native list states does not think) and how it takes thinking (Anthropic's
 * `capabilities.thinking.types`). The proxy's catalog (GET …/models) and the admin API's
 * (`svc-proxy models`, a tool's setup) write into the one store the daemon keeps, and requests read
 * it. A request never waits for a list: a model not listed yet has nothing here.
 */
import type { Effort } from '../protocols/hub.js';
import type { ThinkingMode } from './anthropic-models.js';

/** What a list stated of one model; a control it did not state is absent. */
export interface ModelControls {
  /** The effort levels the model takes; empty: none. */
  efforts?: readonly Effort[];
  thinking?: ThinkingMode;
  /** Thinking off is refused (Anthropic's `capabilities.thinking.types.disabled` false). */
  refusesDisabled?: boolean;
  /** `thinking: {type: "between_tools"}` is refused (`capabilities.thinking.types.between_tools` false). */
  refusesBetweenTools?: boolean;
}

export class StatedControls {
  /** slug → model (its id as the provider knows it) → controls; only providers whose last list stated some. */
  private readonly bySlug = new Map<string, Map<string, ModelControls>>();

  /** A provider's good list: what it states replaces what its previous list stated. */
  keep(slug: string, models: Iterable<{ model: string } & ModelControls>): void {
    const stated = new Map<string, ModelControls>();
    for (const { model, efforts, thinking, refusesDisabled, refusesBetweenTools } of models) {
      if (efforts === undefined && thinking === undefined && refusesDisabled === undefined && refusesBetweenTools === undefined) continue;
      stated.set(model, {
        ...(efforts ? { efforts } : {}),
        ...(thinking ? { thinking } : {}),
        ...(refusesDisabled !== undefined ? { refusesDisabled } : {}),
        ...(refusesBetweenTools !== undefined ? { refusesBetweenTools } : {}),
      });
    }
    if (stated.size > 0) this.bySlug.set(slug, stated);
    else this.bySlug.delete(slug);
  }

  /** Forget the providers no longer configured. */
  keepOnly(slugs: ReadonlySet<string>): void {
    for (const slug of this.bySlug.keys()) if (!slugs.has(slug)) this.bySlug.delete(slug);
  }

  of(slug: string, model: string): ModelControls | undefined {
    return this.bySlug.size === 0 ? undefined : this.bySlug.get(slug)?.get(model);
  }
}
