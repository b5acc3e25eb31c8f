/**
 * Which values complete an argument or an option's value, where commander has no choices of its
 * own: names from the binary (providers, tools), and `@kind` for names read from config.json at
 * each completion (`svc-proxy __complete <kind>`, completion-values.ts). Keyed by command path
 * and `<argument>` or `--option`; test/cli/completion-tree.test.ts checks every key is in the tree.
 */
import { BUILTIN_PROVIDERS } from '../../config/schema.js';
import { WELL_KNOWN_LOCAL_SLUGS } from '../../providers/well-known-locals.js';
import { TOOLS } from '../tools/index.js';
import { SHELLS } from '../tools/render.js';

/** File names: what a word takes when it is a file or a path (the scripts list them themselves). */
export const FILES = ':files';

/**
 * What the hidden command reads from config.json (`keys`: active keys' names, `key-ids`: their ids;
 * `…-with-revoked`: revoked keys' too).
 */
export const DYNAMIC_KINDS = ['endpoints', 'locals', 'groups', 'keys', 'key-ids', 'keys-with-revoked', 'key-ids-with-revoked'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

const builtin = [...BUILTIN_PROVIDERS];
const upstreams = [...BUILTIN_PROVIDERS, ...WELL_KNOWN_LOCAL_SLUGS, '@endpoints', '@locals'];
const groups = ['@groups'];
/** `--key` of env/run: a key itself or the name of a saved one (an id is not worth offering there). */
const keyNames = ['@keys'];
/** Where a key is taken by id or name (findKey). */
const keyRefs = ['@keys', '@key-ids'];
/** The log filter: a revoked key's requests stay in the log, so its name and id find them. */
const loggedKeyRefs = ['@keys-with-revoked', '@key-ids-with-revoked'];
/** findTool takes an alias (`claude`) as well as the id. */
const tools = TOOLS.flatMap((t) => [t.id, ...t.aliases]);
const runnableTools = TOOLS.filter((t) => t.command).flatMap((t) => [t.id, ...t.aliases]);

export const VALUE_SOURCES: Readonly<Record<string, readonly string[]>> = {
  'provider connect <provider>': builtin,
  'provider disconnect <provider>': builtin,
  'provider set <provider>': builtin,
  'endpoint remove <slug>': ['@endpoints'],
  'local remove <slug>': ['@locals'],
  'group set <slug>': groups,
  'group unset <slug>': groups,
  'group show <slug>': groups,
  'group remove <slug>': groups,
  'key revoke <key>': keyRefs,
  'models <providers>': upstreams,
  'logs --provider': upstreams,
  'logs --key': loggedKeyRefs,
  'logs --group': groups,
  'stats --provider': upstreams,
  'stats --key': loggedKeyRefs,
  'stats --group': groups,
  'env <tool>': tools,
  'env --key': keyNames,
  'env --group': groups,
  'env --shell': [...SHELLS],
  'run <tool>': runnableTools,
  // the tool's own arguments: often files (no option of svc-proxy's own takes one)
  'run <args>': [FILES],
  'run --key': keyNames,
  'run --group': groups,
};
