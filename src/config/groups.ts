/**
 * Model groups: private endpoints whose model names map to ordered `provider/model` targets.
 * Implemented once, used by the admin API (daemon running) and by the CLI offline (config.json
 * under its lock). Names are whatever a client sends as a model (`/` and `.` included); targets
 * are validated against the upstreams the config knows.
 */
import { baseUrls, type BaseUrls } from './base-urls.js';
import { OperationError } from './errors.js';
import { BUILTIN_PROVIDERS, slugSchema, type Config, type Group } from './schema.js';
import type { ConfigStore } from './store.js';

export interface GroupModel {
  name: string;
  targets: string[];
}

export interface GroupSummary {
  slug: string;
  created: string;
  models: GroupModel[];
}

export type UpstreamKind = 'provider' | 'endpoint' | 'local';

export interface TargetStatus {
  target: string;
  provider: string;
  model: string;
  /** undefined: the provider no longer exists in the config (endpoint or local server removed). */
  kind?: UpstreamKind;
  /** A request routed here has a credential to send (or needs none). */
  connected: boolean;
  /** Why this target will fail as things stand, e.g. "not connected"; absent when it is usable. */
  problem?: string;
}

export interface GroupDetail {
  slug: string;
  created: string;
  models: { name: string; targets: TargetStatus[] }[];
  /** `…/g/<slug>/protocol-a/v1` and `…/g/<slug>/protocol-b`. */
  baseUrls: BaseUrls;
}

/** Whether an upstream has a usable credential; the caller knows where credentials live. */
export type ConnectedCheck = (slug: string, kind: UpstreamKind) => boolean | Promise<boolean>;

const MAX_NAME = 256;
const MAX_TARGETS = 16;

// ---------------------------------------------------------------------------------------------
// Validation
// ---------------------------------------------------------------------------------------------

export function validateGroupSlug(raw: unknown): string {
  const parsed = slugSchema.safeParse(typeof raw === 'string' ? raw.trim() : raw);
  if (!parsed.success) throw new OperationError(400, 'invalid_slug', `Group name "${String(raw)}": ${parsed.error.issues[0]?.message}.`);
  return parsed.data;
}

/** A model name as clients send it: any printable text without surrounding spaces. */
export function validateModelName(raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new OperationError(400, 'invalid_model_name', 'A model name cannot be empty.');
  const name = raw.trim();
  if (name.length > MAX_NAME) throw new OperationError(400, 'invalid_model_name', `Model names are at most ${MAX_NAME} characters.`);
  if (/[\p{Cc}\p{Cf}]/u.test(name)) throw new OperationError(400, 'invalid_model_name', `Model name "${name}" contains control characters.`);
  return name;
}

export function upstreamKind(config: Config, slug: string): UpstreamKind | undefined {
  if ((BUILTIN_PROVIDERS as readonly string[]).includes(slug)) return 'provider';
  if (Object.hasOwn(config.endpoints, slug)) return 'endpoint';
  if (Object.hasOwn(config.locals, slug)) return 'local';
  return undefined;
}

function knownUpstreams(config: Config): string {
  return [...BUILTIN_PROVIDERS, ...Object.keys(config.endpoints), ...Object.keys(config.locals)].join(', ');
}

/** `provider/model`, split at the first slash; the provider must be one the config knows. */
const MAX_TARGET_LENGTH = 256;

export function validateTarget(config: Config, raw: unknown): string {
  if (typeof raw !== 'string' || raw.trim() === '') throw new OperationError(400, 'invalid_target', 'A target cannot be empty.');
  const target = raw.trim();
  // model ids run to ~100 characters (OpenRouter's with their vendor); this keeps a paste accident out of config.json
  if (target.length > MAX_TARGET_LENGTH) throw new OperationError(400, 'invalid_target', `Target "${target.slice(0, 40)}…" is longer than ${MAX_TARGET_LENGTH} characters.`);
  const slash = target.indexOf('/');
  if (slash <= 0 || slash === target.length - 1) {
    throw new OperationError(400, 'invalid_target', `Target "${target}" must be written provider/model, e.g. anthropic/claude-sonnet-4-5.`);
  }
  if (/[\s,\p{Cc}]/u.test(target)) throw new OperationError(400, 'invalid_target', `Target "${target}" cannot contain spaces, commas or control characters.`);
  const provider = target.slice(0, slash);
  if (!upstreamKind(config, provider)) {
    // a name no endpoint or local server could ever take (they are slugs) is malformed, not missing:
    // 400, so the CLI exits 2 as for any value no state of svc-proxy would take
    if (!slugSchema.safeParse(provider).success) {
      const lower = `${provider.toLowerCase()}/${target.slice(slash + 1)}`;
      const hint = upstreamKind(config, provider.toLowerCase()) ? ` Did you mean ${lower}?` : '';
      throw new OperationError(400, 'invalid_target', `Target "${target}": "${provider}" cannot be a provider name (lowercase letters, digits, "-" or "_").${hint}`);
    }
    // 404, not 400: refused for what is configured now (an endpoint of that name would make it good), as `models nope` is
    throw new OperationError(404, 'unknown_provider', `Target "${target}": unknown provider "${provider}". Known: ${knownUpstreams(config)}.`);
  }
  return target;
}

/** Targets from a comma-separated string or a list; order kept, each validated once. */
export function validateTargets(config: Config, raw: unknown): string[] {
  const parts = typeof raw === 'string' ? raw.split(',') : Array.isArray(raw) ? raw : undefined;
  if (!parts) throw new OperationError(400, 'invalid_target', 'Targets must be a list of provider/model strings.');
  const nonEmpty = parts.filter((p) => !(typeof p === 'string' && p.trim() === ''));
  if (nonEmpty.length === 0) throw new OperationError(400, 'invalid_target', 'Give at least one target (provider/model).');
  if (nonEmpty.length > MAX_TARGETS) throw new OperationError(400, 'invalid_target', `At most ${MAX_TARGETS} targets per model name.`);
  const targets = nonEmpty.map((p) => validateTarget(config, p));
  const dup = targets.find((t, i) => targets.indexOf(t) !== i);
  if (dup) throw new OperationError(400, 'invalid_target', `Target "${dup}" is listed twice.`);
  return targets;
}

/**
 * `--model <name>=<target>[,<target>…]`, split at the FIRST "=": names given this way cannot
 * contain "=" (use `group set <slug> <name> <targets>` for such a name); targets never do.
 */
export function parseModelSpec(spec: string): { name: string; targets: string } {
  const eq = spec.indexOf('=');
  if (eq < 0) throw new OperationError(400, 'invalid_model_spec', `"${spec}" must be <name>=<provider/model>[,<provider/model>…].`);
  return { name: spec.slice(0, eq), targets: spec.slice(eq + 1) };
}

// ---------------------------------------------------------------------------------------------
// Reading
// ---------------------------------------------------------------------------------------------

function requireGroup(config: Config, slug: string): Group {
  const group = Object.hasOwn(config.groups, slug) ? config.groups[slug] : undefined;
  if (!group) throw new OperationError(404, 'group_not_found', `No group named "${slug}". See: svc-proxy group list`);
  return group;
}

export function listGroups(config: Config): GroupSummary[] {
  return Object.entries(config.groups).map(([slug, g]) => ({
    slug,
    created: g.created,
    models: g.models.map((m) => ({ name: m.name, targets: [...m.targets] })),
  }));
}

export async function targetStatus(config: Config, target: string, connected: ConnectedCheck): Promise<TargetStatus> {
  const slash = target.indexOf('/');
  const provider = slash < 0 ? target : target.slice(0, slash);
  const model = slash < 0 ? '' : target.slice(slash + 1);
  const kind = upstreamKind(config, provider);
  if (!kind) return { target, provider, model, connected: false, problem: `unknown provider "${provider}" (removed?)` };
  if (kind === 'provider' && config.providers[provider]?.enabled === false) {
    return { target, provider, model, kind, connected: false, problem: 'provider disabled' };
  }
  const ok = await connected(provider, kind);
  return ok ? { target, provider, model, kind, connected: true } : { target, provider, model, kind, connected: false, problem: 'not connected' };
}

/**
 * Connection check from a credential lookup: local servers and endpoints without a credential need
 * none; built-in providers and endpoints with one need it resolvable.
 */
export function connectedVia(config: Config, credentials: { resolve(slug: string): Promise<unknown> }): ConnectedCheck {
  return async (slug, kind) => {
    if (kind === 'local') return true;
    if (kind === 'endpoint' && !config.endpoints[slug]?.hasCredential) return true;
    return (await credentials.resolve(slug).catch(() => undefined)) !== undefined;
  };
}

/** Where the daemon listens (or will): the group's base URLs are built from it. */
export interface ShowGroupOptions {
  host: string;
  port: number;
  connected: ConnectedCheck;
}

export async function showGroup(config: Config, rawSlug: unknown, opts: ShowGroupOptions): Promise<GroupDetail> {
  const slug = validateGroupSlug(rawSlug);
  const group = requireGroup(config, slug);
  // One check per upstream, however many names point at it.
  const cache = new Map<string, Promise<TargetStatus>>();
  const status = (t: string) => {
    let p = cache.get(t);
    if (!p) cache.set(t, (p = targetStatus(config, t, opts.connected)));
    return p;
  };
  const models = await Promise.all(group.models.map(async (m) => ({ name: m.name, targets: await Promise.all(m.targets.map(status)) })));
  return { slug, created: group.created, models, baseUrls: baseUrls(opts.host, opts.port, slug) };
}

// ---------------------------------------------------------------------------------------------
// Changing
// ---------------------------------------------------------------------------------------------

export interface AddGroupInput {
  slug: unknown;
  /** `[{name, targets}]`, targets a list or a comma-separated string. May be empty: add names later. */
  models?: unknown;
}

function validateModels(config: Config, raw: unknown): GroupModel[] {
  if (raw === undefined || raw === null) return [];
  if (!Array.isArray(raw)) throw new OperationError(400, 'invalid_argument', '"models" must be a list of {name, targets}.');
  const models = raw.map((m: { name?: unknown; targets?: unknown } | null | undefined) => ({
    name: validateModelName(m?.name),
    targets: validateTargets(config, m?.targets),
  }));
  const seen = new Set<string>();
  for (const m of models) {
    if (seen.has(m.name)) throw new OperationError(400, 'duplicate_model_name', `Model name "${m.name}" is given twice.`);
    seen.add(m.name);
  }
  return models;
}

export async function addGroup(store: ConfigStore, input: AddGroupInput): Promise<GroupSummary> {
  const slug = validateGroupSlug(input.slug);
  const created = new Date().toISOString();
  return store.update((config) => {
    if (Object.hasOwn(config.groups, slug)) {
      throw new OperationError(409, 'group_exists', `A group named "${slug}" already exists; change its names with: svc-proxy group set ${slug} <name> <targets>`);
    }
    const models = validateModels(config, input.models);
    config.groups[slug] = { models, created };
    return { slug, created, models };
  });
}

/** Adds the name, or replaces its targets in place (its position in the list stays). */
export async function setGroupModel(store: ConfigStore, rawSlug: unknown, rawName: unknown, rawTargets: unknown): Promise<GroupSummary & { replaced: boolean }> {
  const slug = validateGroupSlug(rawSlug);
  const name = validateModelName(rawName);
  return store.update((config) => {
    const group = requireGroup(config, slug);
    const targets = validateTargets(config, rawTargets);
    const existing = group.models.find((m) => m.name === name);
    if (existing) existing.targets = targets;
    else group.models.push({ name, targets });
    return { slug, created: group.created, models: group.models.map((m) => ({ name: m.name, targets: [...m.targets] })), replaced: existing !== undefined };
  });
}

export async function unsetGroupModel(store: ConfigStore, rawSlug: unknown, rawName: unknown): Promise<GroupSummary> {
  const slug = validateGroupSlug(rawSlug);
  const name = validateModelName(rawName);
  return store.update((config) => {
    const group = requireGroup(config, slug);
    const index = group.models.findIndex((m) => m.name === name);
    if (index < 0) {
      const names = group.models.map((m) => m.name);
      throw new OperationError(404, 'model_not_found', `Group "${slug}" has no model named "${name}"${names.length ? ` (it has: ${names.join(', ')})` : ''}.`);
    }
    group.models.splice(index, 1);
    return { slug, created: group.created, models: group.models.map((m) => ({ name: m.name, targets: [...m.targets] })) };
  });
}

export async function removeGroup(store: ConfigStore, rawSlug: unknown): Promise<{ slug: string }> {
  const slug = validateGroupSlug(rawSlug);
  return store.update((config) => {
    requireGroup(config, slug);
    delete config.groups[slug];
    return { slug };
  });
}
