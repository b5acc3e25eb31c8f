/**
 * Upgrades config.json written by an older svc-proxy to the current shape, one version at a time.
 * Runs on the raw JSON before validation; the upgraded shape is written back on the next write
 * (the previous file stays in config.json.bak).
 */
import { CONFIG_VERSION } from './schema.js';

type Raw = Record<string, unknown>;

interface Migration {
  from: number;
  describe: string;
  up(raw: Raw): Raw;
}

const isObject = (v: unknown): v is Raw => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * Version 1 (the first development releases) kept the listener settings at the top level, spelled
 * provider URL overrides `baseURL`, held custom endpoints under `customEndpoints`, and marked
 * revoked keys with `revokedAt`.
 */
const v1ToV2: Migration = {
  from: 1,
  describe: 'settings grouped under "settings", baseURL -> baseUrl, customEndpoints -> endpoints, revokedAt -> revoked',
  up(raw) {
    const { port, host, logRetentionDays, customEndpoints, providers, keys, ...rest } = raw;
    const settings: Raw = isObject(rest.settings) ? { ...rest.settings } : {};
    if (port !== undefined) settings.port = port;
    if (host !== undefined) settings.host = host;
    if (logRetentionDays !== undefined) settings.logRetentionDays = logRetentionDays;
    const out: Raw = { ...rest, version: 2, settings };
    if (isObject(providers)) {
      out.providers = Object.fromEntries(
        Object.entries(providers).map(([name, p]) => {
          if (!isObject(p)) return [name, p];
          const { baseURL, ...other } = p;
          return [name, baseURL === undefined ? other : { ...other, baseUrl: baseURL }];
        }),
      );
    }
    if (isObject(customEndpoints)) out.endpoints = { ...(isObject(rest.endpoints) ? rest.endpoints : {}), ...customEndpoints };
    if (Array.isArray(keys)) {
      out.keys = keys.map((k) => {
        if (!isObject(k)) return k;
        const { revokedAt, ...other } = k;
        return revokedAt === undefined ? other : { ...other, revoked: revokedAt };
      });
    }
    return out;
  },
};

const MIGRATIONS: Migration[] = [v1ToV2];

export class MigrationError extends Error {}

/** Returns the raw config at CONFIG_VERSION; `migrated` says whether any step ran. */
export function migrate(raw: Raw): { raw: Raw; migrated: boolean } {
  // A file without a version predates versioning: the first shape.
  const declared = raw.version === undefined ? 1 : raw.version;
  if (typeof declared !== 'number' || !Number.isInteger(declared) || declared < 1) {
    throw new MigrationError(`"version" must be a positive integer, got ${JSON.stringify(raw.version)}`);
  }
  let version: number = declared;
  if (version > CONFIG_VERSION) {
    throw new MigrationError(
      `it was written by a newer svc-proxy (config version ${version}; this one understands up to ${CONFIG_VERSION}). Upgrade svc-proxy.`,
    );
  }
  let current = raw;
  let migrated = false;
  while (version < CONFIG_VERSION) {
    const step = MIGRATIONS.find((m) => m.from === version);
    if (!step) throw new MigrationError(`no migration from config version ${version}`);
    current = step.up(current);
    version = current.version as number;
    migrated = true;
  }
  return { raw: current, migrated };
}
