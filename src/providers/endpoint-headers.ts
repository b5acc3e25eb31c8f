/**
 * A custom endpoint's own header settings (config/endpoint-headers.ts) applied to its adapter: the
 * credential moved to the header the endpoint names, its fixed headers added. Endpoints without
 * such settings keep the shared adapter as it is; one with them gets its own, made once per
 * config snapshot.
 */
import type { Endpoint } from '../config/schema.js';
import type { ProviderAdapter } from './types.js';

/** The auth headers a format's adapter sets from the credential. */
const FORMAT_AUTH = ['authorization', 'x-api-key'];

const made = new WeakMap<Endpoint, ProviderAdapter>();

export function withEndpointHeaders(adapter: ProviderAdapter, endpoint: Endpoint): ProviderAdapter {
  if (!endpoint.authHeader && !endpoint.headers) return adapter;
  let own = made.get(endpoint);
  if (!own) {
    const authHeader = endpoint.authHeader?.toLowerCase();
    const fixed = Object.entries(endpoint.headers ?? {}).map(([name, value]) => [name.toLowerCase(), value] as const);
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
    made.set(endpoint, own);
  }
  return own;
}
