/**
 * A reorder or a target removal writes a name's whole target list, built from the list on screen.
 * Changed elsewhere since it was shown (the CLI, another TUI; the screen polls every 15 s), that
 * write would silently undo the change, so the list is read again first and nothing is written
 * when it differs. An edit checks the list its field opened with; refused, it checks the list as it
 * is now, so a second Enter writes what was typed over a change the user has seen.
 */
import type { GroupManagement } from '../../cli/group-management.js';

/** The targets differ from those shown; `now` (none: the name is gone) is what a retry compares with. */
export class TargetsChangedError extends Error {
  constructor(
    shown: { slug: string; name: string },
    readonly now: string[],
  ) {
    super(`The targets of "${shown.name}" in ${shown.slug} were changed elsewhere since they were shown: nothing was changed. Here they are as they are now.`);
  }
}

export async function checkTargetsAsShown(groups: GroupManagement, shown: { slug: string; name: string; targets: readonly string[] }): Promise<void> {
  const now = (await groups.show(shown.slug)).models.find((m) => m.name === shown.name)?.targets.map((t) => t.target);
  if (now?.length === shown.targets.length && now.every((t, i) => t === shown.targets[i])) return;
  throw new TargetsChangedError(shown, now ?? []);
}
