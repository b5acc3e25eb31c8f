/**
 * A reorder or a target removal writes a name's whole target list, built from the list on screen.
 * Changed elsewhere since it was shown (the CLI, another TUI; the screen polls every 15 s), that
 * write would silently undo the change, so the list is read again first and nothing is written
 * when it differs.
 */
import type { GroupManagement } from '../../cli/group-management.js';

export async function checkTargetsAsShown(groups: GroupManagement, shown: { slug: string; name: string; targets: readonly string[] }): Promise<void> {
  const now = (await groups.show(shown.slug)).models.find((m) => m.name === shown.name)?.targets.map((t) => t.target);
  if (now?.length === shown.targets.length && now.every((t, i) => t === shown.targets[i])) return;
  throw new Error(`The targets of "${shown.name}" in ${shown.slug} were changed elsewhere since they were shown: nothing was changed. Here they are as they are now.`);
}
