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

/** What the hidden command reads from config.json. */
export const DYNAMIC_KINDS = ['endpoints', 'locals', 'groups', 'keys'] as const;
export type DynamicKind = (typeof DYNAMIC_KINDS)[number];

const builtin = [...BUILTIN_PROVIDERS];
const upstreams = [...BUILTIN_PROVIDERS, ...WELL_KNOWN_LOCAL_SLUGS, '@endpoints', '@locals'];
const groups = ['@groups'];
const keys = ['@keys'];
const tools = TOOLS.map((t) => t.id);
const runnableTools = TOOLS.filter((t) => t.command).map((t) => t.id);

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
  'key revoke <key>': keys,
  'models <providers>': upstreams,
  'logs --provider': upstreams,
  'logs --key': keys,
  'logs --group': groups,
  'stats --provider': upstreams,
  'stats --key': keys,
  'stats --group': groups,
  'env <tool>': tools,
  'env --key': keys,
  'env --group': groups,
  'env --shell': [...SHELLS],
  'run <tool>': runnableTools,
  'run --key': keys,
  'run --group': groups,
};
