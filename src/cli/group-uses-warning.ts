/**
 * The warning `endpoint remove`, `local remove` and `provider disconnect` give when model groups
 * still route to the upstream.
 */
import { groupUsesText, type GroupUse } from '../config/group-uses.js';
import { printable } from '../util/printable.js';
import type { CliContext } from './io.js';

/** `state`: what became of it, as the sentence says it ("is gone", "is disconnected"). */
export function warnGroupUses(ctx: CliContext, slug: string, uses: readonly GroupUse[], state = 'is gone'): void {
  if (uses.length === 0) return;
  // names come from config.json, which a hand edit may have filled with anything
  ctx.err(printable(`svc-proxy: warning: ${slug} ${state}, but ${groupUsesText(uses)}; those targets now fail. Change them with: svc-proxy group set <group> <name> <targets>`));
}
