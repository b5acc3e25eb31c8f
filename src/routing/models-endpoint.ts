/**
 * GET …/models and GET …/models/{id}: provider bases list the live catalog (every connected
 * provider, ids prefixed), group bases the group's names that have a target to ask — each in the base's own shape
 * (model-entries.ts), protocol B's list paged as Anthropic pages it (model-paging.ts). A provider
 * whose list failed is left out of the list and logged, and answers for its own models
 * (list-failures.ts); a model of a provider that is not connected is refused as generation
 * refuses it (provider_not_connected), not as unlisted; so is a group name whose targets are all
 * on such providers (or on unknown ones).
 */
import { ProtocolError } from '../protocols/errors.js';
import type { ProviderListFailure } from '../providers/model-list-failure.js';
import { isResolveFailure } from '../providers/registry.js';
import type { Exchange } from './exchange.js';
import { listFailureError, logListFailures } from './list-failures.js';
import { modelJson, modelListJson, type ListedModel } from './model-entries.js';
import { sendJson } from './respond.js';
import type { ProviderResolution } from './services.js';
import { groupModel, groupTargets, lookupGroup, notConnected, splitModelId, unusableGroupName } from './targets.js';
import { trimTrailingSlashes } from '../util/slashes.js';

export async function handleModels(x: Exchange): Promise<void> {
  const url = x.req.url ?? '';
  const q = url.indexOf('?');
  const query = new URLSearchParams(q === -1 ? '' : url.slice(q));
  const { models, failed } = await listed(x);
  logListFailures(x.record, failed);
  answer(x, modelListJson(x.route.protocol, models, query));
}

export async function handleModel(x: Exchange): Promise<void> {
  const id = modelIdOfPath(x.req.url ?? '');
  x.record.entry.modelAsked = id;
  const { group } = x.route;
  // a group's names are its config: its own model_not_found names them
  if (group !== undefined) {
    const refusal = unusableGroupName(groupTargets(groupModel(x.config, group, id), resolver(x)));
    if (refusal) throw refusal;
  }
  const { models, failed } = await listed(x, id);
  logListFailures(x.record, failed);
  const found = models.find((m) => m.id === id);
  if (!found) {
    // only the id's provider was asked: a failure is its
    const failure = failed[0];
    if (failure) {
      const r = x.services.resolveProvider(failure.provider);
      throw listFailureError(failure, id, isResolveFailure(r) ? undefined : r.credential);
    }
    // the catalog skips such a provider: nothing was asked, so nothing says the model is missing
    const parts = group === undefined ? splitModelId(id) : undefined;
    const r = parts && x.services.resolveProvider(parts.provider);
    if (r && isResolveFailure(r) && r.error === 'not_connected') throw notConnected(r.hint, r.code);
    throw new ProtocolError(404, 'model_not_found', `Model "${id.slice(0, 200)}" is not listed by any connected provider (see: svc-proxy models).`, 'model');
  }
  answer(x, modelJson(x.route.protocol, found));
}

/**
 * The model id of GET …/models/{id}: everything after `/models/`, percent-decoded. The official
 * SDKs send a `/` inside the id as %2F; curl and others send it as it is, so both are read.
 */
export function modelIdOfPath(url: string): string {
  const q = url.indexOf('?');
  const path = q === -1 ? url : url.slice(0, q);
  // the base before it (`/g/<slug>/protocol-b/v1`) cannot hold `/models/`: the first is the route's
  const raw = trimTrailingSlashes(path.slice(path.indexOf('/models/') + '/models/'.length));
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ProtocolError(404, 'model_not_found', `The model id in ${path.slice(0, 200)} is not valid percent-encoding.`, 'model');
  }
}

/** The base's models, and the providers asked whose list failed; for one `id` on a provider base only its provider is asked. */
async function listed(x: Exchange, id?: string): Promise<{ models: ListedModel[]; failed: ProviderListFailure[] }> {
  const { group } = x.route;
  if (group !== undefined) {
    const g = lookupGroup(x.config, group);
    const parsed = Date.parse(g.created);
    const created = Number.isFinite(parsed) ? Math.floor(parsed / 1000) : 0;
    const resolve = resolver(x);
    // a name no target of which can be asked is refused when used: it is not one the base takes
    const names = g.models.filter((m) => (id === undefined || m.name === id) && !unusableGroupName(groupTargets(m, resolve)));
    // only protocol B entries carry a window and an output limit: protocol A's group list asks no provider
    const { windows, outputs, failed } = x.route.protocol === 'b' ? await targetLimits(x, names) : { windows: new Map<string, number>(), outputs: new Map<string, number>(), failed: [] };
    const models = names.map((m) => {
      const model: ListedModel = { id: m.name, owner: `group:${group}`, created, displayName: m.name };
      const window = groupLimit(m.targets, windows);
      if (window !== undefined) model.contextWindow = window;
      const maxOutput = groupLimit(m.targets, outputs);
      if (maxOutput !== undefined) model.maxOutput = maxOutput;
      return model;
    });
    // a target whose list failed leaves its names without a window or output limit, and the log says why
    return { models, failed };
  }
  let only: ReadonlySet<string> | undefined;
  if (id !== undefined) {
    const parts = splitModelId(id);
    if (!parts) return { models: [], failed: [] };
    only = new Set([parts.provider]);
  }
  const catalog = await x.services.listModels(x.abort.signal, only);
  const models = catalog.models.map((m) => {
    const model: ListedModel = { id: m.id, owner: m.provider, created: m.created ?? 0, displayName: m.displayName ?? m.id };
    if (m.contextWindow !== undefined) model.contextWindow = m.contextWindow;
    if (m.maxOutput !== undefined) model.maxOutput = m.maxOutput;
    return model;
  });
  return { models, failed: catalog.failed };
}

/** The windows and output limits the catalog states for the targets of these group names (only their providers are asked), and the providers whose list failed. */
async function targetLimits(x: Exchange, names: ReadonlyArray<{ targets: string[] }>): Promise<{ windows: Map<string, number>; outputs: Map<string, number>; failed: ProviderListFailure[] }> {
  const providers = new Set(names.flatMap((m) => m.targets.flatMap((t) => splitModelId(t)?.provider ?? [])));
  const windows = new Map<string, number>();
  const outputs = new Map<string, number>();
  if (providers.size === 0) return { windows, outputs, failed: [] };
  const { models, failed } = await x.services.listModels(x.abort.signal, providers);
  for (const m of models) {
    if (m.contextWindow !== undefined) windows.set(m.id, m.contextWindow);
    if (m.maxOutput !== undefined) outputs.set(m.id, m.maxOutput);
  }
  return { windows, outputs, failed };
}

/**
 * A group name's window or output limit: a fallback may land on any of its targets, so the smallest
 * — and only when every target's is known, since one not stated could be smaller still.
 */
export function groupLimit(targets: readonly string[], limits: ReadonlyMap<string, number>): number | undefined {
  let smallest: number | undefined;
  for (const t of targets) {
    const w = limits.get(t);
    if (w === undefined) return undefined;
    smallest = smallest === undefined ? w : Math.min(smallest, w);
  }
  return smallest;
}

function resolver(x: Exchange): (slug: string) => ProviderResolution {
  return (slug) => x.services.resolveProvider(slug);
}

function answer(x: Exchange, body: string): void {
  sendJson(x.res, 200, body);
  x.record.firstByte();
  x.record.finish(x.deps.log, 200);
}
