/**
 * GET …/models: provider bases list the live catalog (every connected provider, ids prefixed),
 * group bases exactly the group's names — each in the base's own list shape.
 */
import type { Exchange } from './exchange.js';
import { sendJson } from './respond.js';
import { lookupGroup } from './targets.js';

interface Listed {
  id: string;
  owner: string;
  /** Unix seconds. */
  created: number;
  displayName: string;
}

function iso(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toISOString().replace('.000Z', 'Z');
}

/** Protocol A `{"object":"list","data":[…]}`, protocol B `{"data":[…],"has_more":false,"first_id","last_id"}`. */
export function modelListBody(protocol: 'a' | 'b', models: Listed[]): string {
  if (protocol === 'a') {
    return JSON.stringify({ object: 'list', data: models.map((m) => ({ id: m.id, object: 'model', created: m.created, owned_by: m.owner })) });
  }
  return JSON.stringify({
    data: models.map((m) => ({ type: 'model', id: m.id, display_name: m.displayName, created_at: iso(m.created) })),
    has_more: false,
    first_id: models.length ? models[0]!.id : null,
    last_id: models.length ? models[models.length - 1]!.id : null,
  });
}

export async function handleModels(x: Exchange): Promise<void> {
  const { route, config, record } = x;
  let models: Listed[];
  if (route.group !== undefined) {
    const group = lookupGroup(config, route.group);
    const parsed = Date.parse(group.created);
    const created = Number.isFinite(parsed) ? Math.floor(parsed / 1000) : 0;
    models = group.models.map((m) => ({ id: m.name, owner: `group:${route.group}`, created, displayName: m.name }));
  } else {
    const catalog = await x.services.listModels(x.abort.signal);
    models = catalog.map((m) => ({ id: m.id, owner: m.provider, created: m.created ?? 0, displayName: m.displayName ?? m.id }));
  }
  sendJson(x.res, 200, modelListBody(route.protocol, models));
  record.firstByte();
  record.finish(x.deps.log, 200);
}
