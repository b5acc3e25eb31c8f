/**
 * Which model groups still route to an upstream: removing an endpoint or a local server leaves
 * their targets naming something that no longer exists, and those requests fail (or fall back)
 * from then on, so the removal says where.
 */
import type { Config } from './schema.js';

/** A group's model name with the targets of it that name the upstream. */
export interface GroupUse {
  group: string;
  name: string;
  targets: string[];
}

const providerOf = (target: string) => target.slice(0, target.indexOf('/'));

/** A group's names and their targets, as config.json holds them or the admin API lists them. */
export interface GroupTargets {
  slug: string;
  models: readonly { name: string; targets: readonly string[] }[];
}

export function groupsRoutingTo(config: Config, upstream: string): GroupUse[] {
  return usesIn(
    Object.entries(config.groups).map(([slug, g]) => ({ slug, models: g.models })),
    upstream,
  );
}

/** The same over groups as the admin API lists them (the TUI has no config.json of its own). */
export function usesIn(groups: Iterable<GroupTargets>, upstream: string): GroupUse[] {
  const uses: GroupUse[] = [];
  for (const { slug, models } of groups) {
    for (const m of models) {
      const targets = m.targets.filter((t) => providerOf(t) === upstream);
      if (targets.length) uses.push({ group: slug, name: m.name, targets });
    }
  }
  return uses;
}

/** "model group work still routes coder to gw/qwen3; model group home still routes chat to gw/x, gw/y": each one named alike. */
export function groupUsesText(uses: readonly GroupUse[]): string {
  return uses.map((u) => `model group ${u.group} still routes ${u.name} to ${u.targets.join(', ')}`).join('; ');
}
