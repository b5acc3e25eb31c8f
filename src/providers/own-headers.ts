/**
 * An upstream's own header settings (config/header-settings.ts) applied to its adapter — a custom
 * endpoint's, or a built-in provider's reached through a gateway: the credential moved to the
 * header the settings name, the fixed headers added. Upstreams without such settings keep the
 * shared adapter as it is; one with them gets its own, made once per config snapshot.
 */
import type { HeaderSettings } from '../config/header-settings.js';
import type { ProviderAdapter } from './types.js';

/** The auth headers the adapters set from the credential (Bearer, or Messages' x-api-key). */
const FORMAT_AUTH = ['authorization', 'x-api-key'];

const made = new WeakMap<HeaderSettings, ProviderAdapter>();

export function withOwnHeaders(adapter: ProviderAdapter, settings: HeaderSettings): ProviderAdapter {
  if (!settings.authHeader && !settings.headers) return adapter;
  let own = made.get(settings);
  if (!own) {
    const authHeader = settings.authHeader?.toLowerCase();
    const fixed = Object.entries(settings.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const);
    own = {
      ...adapter,
      headers(credential, client, from) {
        const headers = adapter.headers(credential, client, from);
        if (authHeader) {
          for (const name of FORMAT_AUTH) delete headers[name];
          if (credential) headers[authHeader] = authHeader === 'authorization' ? `Bearer ${credential}` : credential;
        }
        for (const [name, value] of fixed) headers[name] = value;
        return headers;
      },
    };
    made.set(settings, own);
  }
  return own;
}
