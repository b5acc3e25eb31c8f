/** The groups screen as one list of rows (group, its names, their targets) and target moves. */
import type { GroupDetail, TargetStatus } from '../../config/groups.js';

export type GroupRow =
  | { kind: 'group'; slug: string; names: number }
  | { kind: 'name'; slug: string; name: string; targets: string[] }
  | { kind: 'target'; slug: string; name: string; index: number; status: TargetStatus; targets: string[] };

export function groupRows(groups: readonly GroupDetail[]): GroupRow[] {
  const rows: GroupRow[] = [];
  for (const g of groups) {
    rows.push({ kind: 'group', slug: g.slug, names: g.models.length });
    for (const m of g.models) {
      const targets = m.targets.map((t) => t.target);
      rows.push({ kind: 'name', slug: g.slug, name: m.name, targets });
      m.targets.forEach((status, index) => rows.push({ kind: 'target', slug: g.slug, name: m.name, index, status, targets }));
    }
  }
  return rows;
}

export function rowId(r: GroupRow): string {
  if (r.kind === 'group') return `g:${r.slug}`;
  if (r.kind === 'name') return `n:${r.slug}:${r.name}`;
  return `t:${r.slug}:${r.name}:${r.index}`;
}

/** Targets with the one at `index` moved by `delta` places; null when it cannot move. */
export function moveTarget(targets: readonly string[], index: number, delta: -1 | 1): string[] | null {
  const to = index + delta;
  if (index < 0 || index >= targets.length || to < 0 || to >= targets.length) return null;
  const next = [...targets];
  [next[index], next[to]] = [next[to]!, next[index]!];
  return next;
}

/** Comma- or space-separated targets as typed. */
export function parseTargets(text: string): string[] {
  return text
    .split(/[,\s]+/)
    .map((t) => t.trim())
    .filter(Boolean);
}
