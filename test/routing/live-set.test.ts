/** LiveSet (routing/live-set.ts): the in-flight registry the engine and the stream relay keep. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LiveSet } from '../../src/routing/live-set.js';

describe('LiveSet', () => {
  it('holds what was added and not removed, whatever the order (against a Set)', () => {
    const op = fc.oneof(fc.record({ add: fc.integer({ min: 0, max: 1_000 }) }), fc.record({ remove: fc.nat({ max: 40 }) }));
    fc.assert(
      fc.property(fc.array(op, { maxLength: 200 }), (ops) => {
        const live = new LiveSet<{ n: number }>();
        const model = new Set<{ n: number }>();
        const tickets: [number, { n: number }][] = [];
        for (const o of ops) {
          if ('add' in o) {
            const item = { n: o.add };
            tickets.push([live.add(item), item]);
            model.add(item);
          } else if (tickets.length > 0) {
            // sometimes a ticket already removed, maybe handed out again since: removing twice
            // must not disturb the rest
            const [ticket, item] = tickets[o.remove % tickets.length]!;
            live.remove(ticket, item);
            model.delete(item);
          }
          expect(live.size).toBe(model.size);
        }
        const items = live.items();
        expect(items).toHaveLength(model.size);
        expect(new Set(items)).toEqual(model);
      }),
    );
  });

  it('reuses emptied slots: churn at a steady concurrency does not grow it', () => {
    const live = new LiveSet<object>();
    const open: [number, object][] = [];
    let highest = -1;
    for (let i = 0; i < 10_000; i++) {
      const item = {};
      const ticket = live.add(item);
      highest = Math.max(highest, ticket);
      open.push([ticket, item]);
      if (open.length > 3) {
        const [ticket, item] = open.shift()!;
        live.remove(ticket, item);
      }
    }
    expect(highest).toBe(3);
    expect(live.size).toBe(3);
  });

  it('ignores tickets it never handed out, and a ticket with another item', () => {
    const live = new LiveSet<string>();
    const t = live.add('a');
    live.remove(t + 1, 'a');
    live.remove(-1, 'a');
    live.remove(t, 'b');
    expect(live.size).toBe(1);
    expect(live.items()).toEqual(['a']);
  });

  it('items() is a copy: removing while walking it visits every item once', () => {
    const live = new LiveSet<number>();
    const tickets = [1, 2, 3].map((n) => live.add(n));
    const seen: number[] = [];
    for (const n of live.items()) {
      seen.push(n);
      live.remove(tickets[n - 1]!, n);
    }
    expect(seen).toEqual([1, 2, 3]);
    expect(live.size).toBe(0);
  });
});
