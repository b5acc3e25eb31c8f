/**
 * Model-group operations as the CLI (and the TUI) see them: through the running daemon's admin
 * API, or straight on config.json under its lock when no daemon runs. Both end in
 * src/config/groups.ts.
 */
import type { AddGroupInput, GroupDetail, GroupSummary } from '../config/groups.js';
import type { StatePaths } from '../config/paths.js';
import type { ModeNotice } from '../secrets/file-store.js';
import type { AdminClient } from './admin-client.js';
import { connectAdmin } from './connect-admin.js';
import type { CliContext } from './io.js';

export interface GroupModelInput {
  name: string;
  /** provider/model targets in order (or one comma-separated string). */
  targets: string[] | string;
}

export interface GroupManagement {
  readonly mode: 'daemon' | 'offline';
  list(): Promise<GroupSummary[]>;
  show(slug: string): Promise<GroupDetail>;
  add(slug: string, models: GroupModelInput[]): Promise<GroupSummary>;
  /** Adds the name or replaces its targets (keeping its place). */
  set(slug: string, name: string, targets: string[] | string): Promise<GroupSummary & { replaced: boolean }>;
  unset(slug: string, name: string): Promise<GroupSummary>;
  remove(slug: string): Promise<{ slug: string }>;
}

/** The admin API calls; the TUI uses these too. Names travel in bodies and query strings. */
export function groupsViaDaemon(client: AdminClient): GroupManagement {
  const at = (slug: string) => `/admin/groups/${encodeURIComponent(slug)}`;
  return {
    mode: 'daemon',
    list: async () => (await client.request<{ groups: GroupSummary[] }>('GET', '/admin/groups')).groups,
    show: (slug) => client.request('GET', at(slug)),
    add: (slug, models) => client.request('POST', '/admin/groups', { slug, models } satisfies AddGroupInput),
    set: (slug, name, targets) => client.request('PUT', `${at(slug)}/models`, { name, targets }),
    unset: (slug, name) => client.request('DELETE', `${at(slug)}/models?name=${encodeURIComponent(name)}`),
    remove: (slug) => client.request('DELETE', at(slug)),
  };
}

async function groupsOffline(paths: StatePaths, env: Record<string, string | undefined>, notice?: ModeNotice): Promise<GroupManagement> {
  const [ops, { ConfigStore }] = await Promise.all([import('../config/groups.js'), import('../config/store.js')]);
  const store = await ConfigStore.open(paths);
  const fresh = async () => {
    await store.reload();
    return store.current();
  };
  return {
    mode: 'offline',
    list: async () => ops.listGroups(await fresh()),
    async show(slug) {
      const config = await fresh();
      // Only `show` needs credentials (to flag targets that are not connected): load them lazily.
      const [{ CredentialStore }, { CredentialFile }, { createKeychain, DEFAULT_KEYCHAIN_SERVICE }] = await Promise.all([
        import('../secrets/credentials.js'),
        import('../secrets/file-store.js'),
        import('../secrets/keychain.js'),
      ]);
      const credentials = new CredentialStore(
        createKeychain(env.SVC_PROXY_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE),
        new CredentialFile(paths.credentialsFile, notice),
        env,
      );
      return ops.showGroup(config, slug, { host: config.settings.host, port: config.settings.port, connected: ops.connectedVia(config, credentials) });
    },
    add: (slug, models) => ops.addGroup(store, { slug, models }),
    set: (slug, name, targets) => ops.setGroupModel(store, slug, name, targets),
    unset: (slug, name) => ops.unsetGroupModel(store, slug, name),
    remove: (slug) => ops.removeGroup(store, slug),
  };
}

export async function openGroupManagement(ctx: CliContext): Promise<GroupManagement> {
  const client = await connectAdmin(ctx);
  return client ? groupsViaDaemon(client) : groupsOffline(ctx.paths(), ctx.io.env, ctx.warn);
}
