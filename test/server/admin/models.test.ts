/** GET /admin/models: the live catalog with a count per upstream (the TUI's providers screen), narrowed by ?provider=. */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { statePaths } from '../../../src/config/paths.js';
import { ConfigStore } from '../../../src/config/store.js';
import type { AdminContext } from '../../../src/server/admin/context.js';
import { createAdminApp } from '../../../src/server/admin/index.js';
import type { ModelsAnswer } from '../../../src/server/admin/models.js';
import { GenericChatMock } from '../../fixtures/mock-upstream/index.js';
import { closedPortUrl } from '../../fixtures/ports.js';

const TOKEN = 'models-admin-token';
let dir: string;
let open: GenericChatMock;
let locked: GenericChatMock;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svc-admin-models-'));
  open = await new GenericChatMock({ name: 'open', models: ['qwen3-coder', 'deepseek-r1'] }).listen();
  locked = await new GenericChatMock({ name: 'locked', apiKey: 'right-key', models: ['secret-model'] }).listen();
});
afterAll(async () => {
  await open.close();
  await locked.close();
  await rm(dir, { recursive: true, force: true });
});

describe('/admin/models', () => {
  it('counts the models each upstream lists; one that fails or is down adds nothing', async () => {
    const store = await ConfigStore.open(statePaths(dir));
    const created = new Date().toISOString();
    const down = await closedPortUrl('/v1');
    await store.update((c) => {
      c.endpoints.open = { url: open.baseUrl, format: 'a', hasCredential: false, created };
      c.endpoints.locked = { url: locked.baseUrl, format: 'a', hasCredential: true, created };
      c.endpoints.down = { url: down, format: 'a', hasCredential: false, created };
    });
    const credentials: Record<string, string> = { locked: 'wrong-key' };
    const ctx = {
      store,
      credentials: { get: (slug: string) => credentials[slug], resolve: async () => undefined },
      daemon: { pid: 1, host: '127.0.0.1', port: 4545, startedAt: new Date(), stateDir: dir },
    } as unknown as AdminContext;
    const app = await createAdminApp(ctx, { adminToken: TOKEN, report: (err) => console.error(err) });

    const unauth = await app.request('/admin/models');
    expect(unauth.status).toBe(401);

    const res = await app.request('/admin/models', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    const body = (await res.json()) as ModelsAnswer;
    expect(body.counts.open).toBe(2);
    expect(body.counts.locked).toBeUndefined();
    expect(body.counts.down).toBeUndefined();
    // each failed list with the code a client and the request log get for it
    expect(body.failed).toEqual({
      locked: { code: 'upstream_auth_failed', reason: expect.stringMatching(/^the provider refused the credential \(401\)/) },
      down: { code: 'upstream_unreachable', reason: expect.stringMatching(/^Could not connect to /) },
    });
    expect(body.models.filter((m) => m.provider === 'open').map((m) => m.id).sort()).toEqual(['open/deepseek-r1', 'open/qwen3-coder']);
    // Built-in providers without a credential are not asked at all.
    expect(Object.keys(body.counts).filter((k) => ['anthropic', 'openai', 'openrouter', 'gemini'].includes(k))).toEqual([]);

    // ?provider= narrows `failed` as well: the failures kept for the others are not this answer's
    const only = async (...slugs: string[]): Promise<ModelsAnswer> => {
      const r = await app.request(`/admin/models?${slugs.map((p) => `provider=${p}`).join('&')}`, { headers: { authorization: `Bearer ${TOKEN}` } });
      expect(r.status).toBe(200);
      return (await r.json()) as ModelsAnswer;
    };
    const opened = await only('open');
    expect({ counts: opened.counts, failed: opened.failed }).toEqual({ counts: { open: 2 }, failed: {} });
    expect(Object.keys((await only('locked')).failed)).toEqual(['locked']);
    expect(Object.keys((await only('locked', 'down')).failed).sort()).toEqual(['down', 'locked']);
    // a working key stored since: the failure of the key it replaced is not its
    credentials.locked = 'right-key';
    const relisted = await only('locked');
    expect({ counts: relisted.counts, failed: relisted.failed }).toEqual({ counts: { locked: 1 }, failed: {} });
  });
});
