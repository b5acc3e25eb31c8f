/** The warning `endpoint remove` and `local remove` give when model groups still route to the upstream. */
import { groupUsesText, type GroupUse } from '../config/group-uses.js';
import { printable } from '../util/printable.js';
import type { CliContext } from './io.js';

export function warnGroupUses(ctx: CliContext, slug: string, uses: readonly GroupUse[]): void {
  if (uses.length === 0) return;
  // names come from config.json, which a hand edit may have filled with anything
  ctx.err(printable(`svc-proxy: warning: ${slug} is gone, but model ${groupUsesText(uses)}; those targets now fail. Change them with: svc-proxy group set <group> <name> <targets>`));
}
