/**
 * A group's targets with those cooling down after a recent failure moved behind the others
 * (cooldowns.ts), each noted in the log; the order itself when none is.
 */
import type { Exchange } from './exchange.js';
import type { Target } from './targets.js';

export function coolingLast(x: Pick<Exchange, 'cooldowns' | 'record'>, targets: Target[]): Target[] {
  const { cooldowns, record } = x;
  let deferred: Target[] | undefined;
  const fresh: Target[] = [];
  for (const t of targets) {
    const cooling = t.provider && !t.refusal ? cooldowns.coolingDown(t.label) : undefined;
    if (!cooling) {
      fresh.push(t);
      continue;
    }
    (deferred ??= []).push(t);
    record.skipped(t.label, 'cooling_down', `failed moments ago (${cooling.code}): tried after the other targets for ${cooling.secondsLeft} s more`);
  }
  return deferred ? [...fresh, ...deferred] : targets;
}
