/**
 * GET /admin/models — the live model catalog (every connected provider, endpoint and local server),
 * for the TUI's provider screen, `svc-proxy models` and the context window `env` looks up
 * (`?provider=` narrows it, `failed` included, to those providers): `{models: [{id, provider, …}],
 * counts: {<slug>: n}, failed: {<slug>: {code, reason}}}`. A provider whose list cannot be fetched has no entry in
 * `counts` and says why in `failed`, with the code a client's GET …/models/{id} and the request log
 * give the same failure (upstream_auth_failed, upstream_unreachable …).
 */
import { Hono } from 'hono';
import { listFailureNotes, type ListFailureNote } from '../../providers/model-list-failure.js';
import { createModelCatalog, type CatalogModel, type ModelCatalog } from '../../providers/models.js';
import type { AdminModule } from './module.js';

export interface ModelsAnswer {
  models: CatalogModel[];
  counts: Record<string, number>;
  failed: Record<string, ListFailureNote>;
}

const modelsModule: AdminModule = {
  path: '/models',
  routes(ctx) {
    // Created on first use: a daemon nobody asks never fetches a list for the admin API. What its
    // lists state of reasoning controls goes to the proxy's store, for the requests of a tool it set up.
    let catalog: ModelCatalog | undefined;
    return new Hono().get('/', async (c) => {
      // ?provider=slug (repeatable): only those providers are asked (a tool's setup needs one model's)
      const only = c.req.queries('provider');
      const asked = only && only.length > 0 ? new Set(only) : undefined;
      // the failures are this listing's: those of the providers asked, with their current credential
      catalog ??= createModelCatalog({ config: () => ctx.store.current(), credential: (slug) => ctx.credentials.get(slug), ...(ctx.statedControls ? { stated: ctx.statedControls } : {}) });
      const { models, failed } = await catalog.listing(c.req.raw.signal, asked);
      const counts: Record<string, number> = {};
      for (const m of models) counts[m.provider] = (counts[m.provider] ?? 0) + 1;
      return c.json({ models, counts, failed: listFailureNotes(failed) } satisfies ModelsAnswer);
    });
  },
};
export default modelsModule;
