/**
 * The effort levels providers' model lists stated per model (Anthropic's `capabilities.effort`,
 * anthropic-capabilities.ts; none for a model Gemini's native list states does not think), as the
 * catalogs read them: the proxy's (GET …/models) and the admin
 * API's (`svc-proxy models`, a tool's setup) write into the one store the daemon keeps, and
 * requests read it. A request never waits for a list: a model not listed yet has no levels here.
 */
import type { Effort } from '../protocols/hub.js';

export class StatedEfforts {
  /** slug → model (its id as the provider knows it) → levels; only providers whose last list stated some. */
  private readonly bySlug = new Map<string, Map<string, readonly Effort[]>>();

  /** A provider's good list: what it states replaces what its previous list stated. */
  keep(slug: string, models: Iterable<{ model: string; efforts?: readonly Effort[] }>): void {
    const stated = new Map<string, readonly Effort[]>();
    for (const m of models) if (m.efforts) stated.set(m.model, m.efforts);
    if (stated.size > 0) this.bySlug.set(slug, stated);
    else this.bySlug.delete(slug);
  }

  /** Forget the providers no longer configured. */
  keepOnly(slugs: ReadonlySet<string>): void {
    for (const slug of this.bySlug.keys()) if (!slugs.has(slug)) this.bySlug.delete(slug);
  }

  levels(slug: string, model: string): readonly Effort[] | undefined {
    return this.bySlug.size === 0 ? undefined : this.bySlug.get(slug)?.get(model);
  }
}
