/**
 * What `config check` says of a config.json beyond its schema: fields the schema does not know
 * (a typo such as `logBodys` is ignored, and dropped from the file at the next change; parse.ts
 * names them), and values
 * the CLI and admin API refuse but a hand edit can write (an ftp:// or #fragment URL, a password in
 * a URL or a key in a fixed header, an endpoint named like a built-in provider, one slug used twice, a group name given twice, a group target that is
 * not provider/model). The daemon runs with such a file; these say where it will not do as meant.
 */
import { OperationError } from './errors.js';
import { fixedHeaderCredentialProblem } from './header-settings.js';
import { validateTargets } from './groups.js';
import type { Config } from './schema.js';
import { BUILTIN_PROVIDERS } from './schema.js';
import { validateSlug, validateUrl } from './upstream-values.js';

function problemOf(check: () => unknown): string | undefined {
  try {
    check();
    return undefined;
  } catch (err) {
    if (err instanceof OperationError) return err.message;
    throw err;
  }
}

/** Values a CLI or admin change would have refused. */
export function refusedValues(config: Config): string[] {
  const out: string[] = [];
  const add = (where: string, problem: string | undefined) => {
    if (problem) out.push(`${where}: ${problem}`);
  };
  for (const name of BUILTIN_PROVIDERS) {
    const base = config.providers[name]?.baseUrl;
    if (base !== undefined) add(`providers.${name}.baseUrl`, problemOf(() => validateUrl(base, 'base URL')));
  }
  const builtin = new Set<string>(BUILTIN_PROVIDERS);
  for (const [kind, table] of [['endpoints', config.endpoints], ['locals', config.locals]] as const) {
    for (const [slug, entry] of Object.entries(table)) {
      add(`${kind}.${slug}`, problemOf(() => validateSlug(slug, kind === 'endpoints' ? 'Endpoint' : 'Local server')));
      if (builtin.has(slug)) add(`${kind}.${slug}`, `"${slug}" is a built-in provider name; its models would never reach this upstream.`);
      add(`${kind}.${slug}.url`, problemOf(() => validateUrl(entry.url, 'URL')));
    }
  }
  for (const slug of Object.keys(config.endpoints)) {
    if (Object.hasOwn(config.locals, slug)) out.push(`endpoints.${slug} and locals.${slug}: one slug names two upstreams; only one of them can be reached.`);
  }
  const withHeaders: Array<[string, Record<string, string> | undefined]> = [
    ...BUILTIN_PROVIDERS.map((name): [string, Record<string, string> | undefined] => [`providers.${name}`, config.providers[name]?.headers]),
    ...Object.entries(config.endpoints).map(([slug, e]): [string, Record<string, string> | undefined] => [`endpoints.${slug}`, e.headers]),
  ];
  for (const [where, headers] of withHeaders) {
    for (const [name, value] of Object.entries(headers ?? {})) add(`${where}.headers.${name}`, fixedHeaderCredentialProblem(name, value));
  }
  for (const [slug, group] of Object.entries(config.groups)) {
    const first = new Map<string, number>();
    group.models.forEach((m, i) => {
      add(`groups.${slug}.models[${i}] (${m.name})`, problemOf(() => validateTargets(config, m.targets)));
      const earlier = first.get(m.name);
      // a request for the name gets the first entry's targets; this one is never used
      if (earlier !== undefined) out.push(`groups.${slug}.models[${i}] (${m.name}): the name is taken by models[${earlier}]; only that entry is used.`);
      else first.set(m.name, i);
    });
  }
  return out;
}
