/** Management without a daemon: the same operations, straight on config.json (under its lock). */
import { ensureStateDir, type StatePaths } from '../config/paths.js';
import { ConfigStore } from '../config/store.js';
import { createKey, listKeys, revokeKey } from '../keys/operations.js';
import { CredentialStore } from '../secrets/credentials.js';
import { CredentialFile, type ModeNotice } from '../secrets/file-store.js';
import { createKeychain, DEFAULT_KEYCHAIN_SERVICE } from '../secrets/keychain.js';
import * as upstreams from '../secrets/operations.js';
import type { Management } from './management.js';

export async function openOfflineManagement(paths: StatePaths, env: Record<string, string | undefined>, notice?: ModeNotice): Promise<Management> {
  // a fresh machine has no state dir yet: the first write (its lock file) needs it, 0700
  await ensureStateDir(paths.dir, notice);
  const store = await ConfigStore.open(paths);
  const credentials = new CredentialStore(
    createKeychain(env.SVC_PROXY_KEYCHAIN_SERVICE || DEFAULT_KEYCHAIN_SERVICE),
    new CredentialFile(paths.credentialsFile, notice),
    env,
  );
  // Each call re-reads the file under the lock (store.update), so nothing is lost to a concurrent writer.
  const fresh = async () => {
    await store.reload();
    return store.current();
  };
  return {
    mode: 'offline',
    createKey: (name) => createKey(store, name),
    listKeys: async () => listKeys(await fresh()),
    revokeKey: (ref) => revokeKey(store, ref),
    listProviders: async () => upstreams.listProviders(await fresh(), credentials),
    connectProvider: (name, credential, opts) => upstreams.connectProvider(credentials, name, credential, opts),
    disconnectProvider: async (name) => upstreams.disconnectProvider(await fresh(), credentials, name),
    setProviderBaseUrl: (name, url) => upstreams.setProviderBaseUrl(store, name, url),
    setProviderHeaders: (name, settings) => upstreams.setProviderHeaders(store, name, settings),
    listEndpoints: async () => upstreams.listEndpoints(await fresh(), credentials),
    addEndpoint: (input) => upstreams.addEndpoint(store, credentials, input),
    removeEndpoint: (slug) => upstreams.removeEndpoint(store, credentials, slug),
    listLocals: async () => upstreams.listLocals(await fresh()),
    addLocal: (input) => upstreams.addLocal(store, input),
    removeLocal: (slug) => upstreams.removeLocal(store, slug),
  };
}
