import type { Effort } from '../protocols/hub.js';
import type { SystemPlacement } from './system-placement.js';

/**
 * What upstreams said they take, kept for every later request while the daemon runs: bounded,
 * least recent dropped first. Output limits and effort levels hold for upstreams of every
 * dialect; the rest are Chat fits (chat-fit.ts).
 */
export class UpstreamFits {
  /** `slug/model` → the model's own output limit. */
  private readonly limits = new Map<string, number>();
  /** `slug/model` → the effort levels the model said it takes (effort-refusal.ts). */
  private readonly efforts = new Map<string, readonly Effort[]>();
  /** Slugs of endpoints that refuse reasoning fields (the value is unused). */
  private readonly noReasoning = new Map<string, true>();
  /** `slug/model` → top-level parameters the model refused. */
  private readonly refused = new Map<string, readonly string[]>();
  /** `slug/model` → where the model's chat template takes system text. */
  private readonly systems = new Map<string, SystemPlacement>();

  constructor(private readonly maxEntries = 512) {}

  outputLimit(slug: string, model: string): number | undefined {
    return this.limits.size === 0 ? undefined : this.limits.get(`${slug}/${model}`);
  }

  effortLevels(slug: string, model: string): readonly Effort[] | undefined {
    return this.efforts.size === 0 ? undefined : this.efforts.get(`${slug}/${model}`);
  }

  setEffortLevels(slug: string, model: string, levels: readonly Effort[]): void {
    this.remember(this.efforts, `${slug}/${model}`, levels);
  }

  refusesReasoning(slug: string): boolean {
    return this.noReasoning.size > 0 && this.noReasoning.has(slug);
  }

  refusedParams(slug: string, model: string): readonly string[] | undefined {
    return this.refused.size === 0 ? undefined : this.refused.get(`${slug}/${model}`);
  }

  addRefusedParams(slug: string, model: string, names: readonly string[]): void {
    const known = this.refusedParams(slug, model) ?? [];
    this.remember(this.refused, `${slug}/${model}`, [...known, ...names.filter((n) => !known.includes(n))]);
  }

  systemPlacement(slug: string, model: string): SystemPlacement | undefined {
    return this.systems.size === 0 ? undefined : this.systems.get(`${slug}/${model}`);
  }

  setSystemPlacement(slug: string, model: string, placement: SystemPlacement): void {
    this.remember(this.systems, `${slug}/${model}`, placement);
  }

  setOutputLimit(slug: string, model: string, cap: number): void {
    this.remember(this.limits, `${slug}/${model}`, cap);
  }

  setRefusesReasoning(slug: string): void {
    this.remember(this.noReasoning, slug, true);
  }

  private remember<V>(map: Map<string, V>, key: string, value: V): void {
    map.delete(key);
    map.set(key, value);
    if (map.size > this.maxEntries) map.delete(map.keys().next().value as string);
  }
}
