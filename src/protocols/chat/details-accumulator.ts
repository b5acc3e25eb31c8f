/**
 * Rebuilds OpenRouter reasoning_details from a stream. Entries arrive one per delta keyed by
 * `index`: text in pieces, the signature on a later entry of the same index, encrypted entries
 * whole. We merge entries of the same index and type (text/summary concatenated, other fields
 * set by the latest non-empty value) so the client gets back the array a non-streamed call holds.
 */
import { setOwn, type Json } from './guards.js';

const CONCATENATED = new Set(['text', 'summary']);

export class DetailsAccumulator {
  private readonly entries: Json[] = [];
  private readonly byKey = new Map<string, Json>();

  add(detail: Json): void {
    const index = detail.index;
    const key = typeof index === 'number' ? `${index}\u0000${String(detail.type)}` : undefined;
    const existing = key === undefined ? undefined : this.byKey.get(key);
    if (!existing) {
      const copy = { ...detail };
      this.entries.push(copy);
      if (key !== undefined) this.byKey.set(key, copy);
      return;
    }
    for (const [field, value] of Object.entries(detail)) {
      const prev = existing[field];
      if (CONCATENATED.has(field) && typeof value === 'string' && typeof prev === 'string') setOwn(existing, field, prev + value);
      else if (value !== undefined && value !== null && value !== '') setOwn(existing, field, value);
      else if (!Object.prototype.hasOwnProperty.call(existing, field)) setOwn(existing, field, value);
    }
  }

  get size(): number {
    return this.entries.length;
  }

  /** The merged entries so far (copies; the accumulator can keep going). */
  snapshot(): Json[] {
    return this.entries.map((e) => ({ ...e }));
  }
}
