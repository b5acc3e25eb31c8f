/**
 * From the model a client asked for to the ordered list of upstream targets.
 *
 * Provider bases: `provider/model`, split at the FIRST slash, exactly one target; a bad id is the
 * client's error right away. Group bases: the group's name → its ordered targets; a target whose
 * provider is unknown or not connected is kept as a skipped attempt (so the log shows why) and
 * the next one is tried.
 */
import type { Config } from '../config/schema.js';
import { ProtocolError, badRequest } from '../protocols/errors.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { ProviderResolution } from './services.js';

export interface Target {
  /** `provider/model` as configured or asked (for the log). */
  label: string;
  /** Upstream model id (after the first slash). */
  model: string;
  provider?: ResolvedProvider;
  /** Set when the target cannot be used at all (unknown provider, not connected). */
  refusal?: ProtocolError;
}

export function splitModelId(id: string): { provider: string; model: string } | undefined {
  const slash = id.indexOf('/');
  if (slash <= 0 || slash === id.length - 1) return undefined;
  return { provider: id.slice(0, slash), model: id.slice(slash + 1) };
}

function resolveOne(label: string, resolve: (slug: string) => ProviderResolution): Target {
  const parts = splitModelId(label);
  if (!parts) {
    return {
      label,
      model: label,
      refusal: badRequest('invalid_model', `Model "${label}" is not a provider/model id (e.g. "anthropic/claude-sonnet-4-5" or "openrouter/meta-llama/llama-4").`, 'model'),
    };
  }
  const r = resolve(parts.provider);
  if ('error' in r) {
    const refusal =
      r.error === 'unknown_provider'
        ? badRequest(
            'invalid_model',
            `Unknown provider "${parts.provider}" in model "${label}". Known providers: ${r.known.length ? r.known.join(', ') : '(none)'}.`,
            'model',
          )
        : notConnected(r.hint, r.code);
    return { label, model: parts.model, refusal };
  }
  return { label, model: parts.model, provider: r };
}

/**
 * A model of a provider without a credential, disabled, or a detected local server that is silent;
 * the hint says how to connect it. `code`: provider_credential_invalid when the credential it has
 * from the environment is unusable.
 */
export function notConnected(hint: string, code = 'provider_not_connected'): ProtocolError {
  return new ProtocolError(400, code, hint, 'model');
}

/** Throws the client's error (400 invalid_model / provider_not_connected, 404 group_not_found / model_not_found). */
export function resolveTargets(
  config: Config,
  group: string | undefined,
  model: string,
  resolve: (slug: string) => ProviderResolution,
): Target[] {
  if (group === undefined) {
    const target = resolveOne(model, resolve);
    if (target.refusal) throw target.refusal;
    return [target];
  }
  return groupTargets(groupModel(config, group, model), resolve);
}

export function groupTargets(entry: { targets: readonly string[] }, resolve: (slug: string) => ProviderResolution): Target[] {
  return entry.targets.map((label) => resolveOne(label, resolve));
}

/**
 * What a group name none of whose targets can be used at all is refused with: the first target's
 * refusal, as a generation with it is (each skipped, the first refusal thrown); undefined while
 * one target has a provider to ask.
 */
export function unusableGroupName(targets: readonly Target[]): ProtocolError | undefined {
  return targets.every((t) => t.refusal !== undefined) ? targets[0]?.refusal : undefined;
}

/** A group's entry for a model name; throws 404 group_not_found / model_not_found. */
export function groupModel(config: Config, group: string, name: string): { name: string; targets: string[] } {
  const g = lookupGroup(config, group);
  const entry = g.models.find((m) => m.name === name);
  if (!entry) {
    const names = g.models.map((m) => m.name);
    throw new ProtocolError(
      404,
      'model_not_found',
      `Model "${name}" is not in group "${group}". Its models: ${names.length ? names.join(', ') : '(none)'}.`,
      'model',
    );
  }
  return entry;
}

export function lookupGroup(config: Config, group: string): Config['groups'][string] {
  const g = Object.prototype.hasOwnProperty.call(config.groups, group) ? config.groups[group] : undefined;
  if (!g) throw new ProtocolError(404, 'group_not_found', `No group "${group}". Create it with: svc-proxy group add ${group} --model <name>=<provider/model>`);
  return g;
}
