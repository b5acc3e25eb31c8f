/**
 * A model's context window for a tool's settings, from the running daemon's live catalog (what
 * the provider's model list states: see providers/models.ts). Claude Code takes a model name it
 * does not know for one with a 1,000,000-token window (2.1.332; 200,000 before) and compacts only
 * near that, so a 32k local model overflows first; Crush and Zed need a figure in their config.
 * On a group base the smallest window any of the name's targets states is used: a fallback may
 * land on it. Nothing is started for this: without a daemon, or a stated window, it is unknown.
 */
import type { Config } from '../../config/schema.js';
import { LISTS_WITHOUT_WINDOWS } from '../../providers/context-window-sources.js';
import { splitModelId } from '../../routing/targets.js';
import type { ModelsAnswer } from '../../server/admin/models.js';
import type { CliContext } from '../io.js';

/** Only the model's providers are asked, each for up to 3 s; a daemon that is not answering must not hold `env` up longer. */
const LOOKUP_TIMEOUT_MS = 8_000;

export async function lookUpContextWindow(ctx: CliContext, config: Config, model: string, group: string | undefined): Promise<number | undefined> {
  const targets = group ? (config.groups[group]?.models.find((m) => m.name === model)?.targets ?? []) : [model];
  const asked = targets.flatMap((id) => {
    const parts = splitModelId(id);
    return parts && !LISTS_WITHOUT_WINDOWS.has(parts.provider) ? [{ id, provider: parts.provider }] : [];
  });
  if (asked.length === 0) return undefined;
  const { AdminClient, modelsPath } = await import('../admin-client.js');
  const client = await AdminClient.connect(ctx.paths()).catch(() => null);
  if (!client) return undefined;
  let answer: ModelsAnswer;
  try {
    answer = await client.request<ModelsAnswer>('GET', modelsPath(new Set(asked.map((t) => t.provider))), undefined, LOOKUP_TIMEOUT_MS);
  } catch {
    return undefined;
  }
  const windows = new Map(answer.models.map((m) => [m.id, m.contextWindow]));
  let smallest: number | undefined;
  for (const { id } of asked) {
    const w = windows.get(id);
    if (w !== undefined && (smallest === undefined || w < smallest)) smallest = w;
  }
  return smallest;
}
