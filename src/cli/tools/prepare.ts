/**
 * Everything `env` and `run` share: check --group and --model against the config, find the
 * address the tool must dial, pick the service key, and let the tool's profile build its setup.
 * Nothing is created (no key) until every check has passed.
 */
import { baseUrls } from '../../config/base-urls.js';
import { BUILTIN_PROVIDERS, type Config } from '../../config/schema.js';
import { WELL_KNOWN_LOCAL_SLUGS } from '../../providers/well-known-locals.js';
import { CliError, type CliContext } from '../io.js';
import { firstControl, printable } from '../../util/printable.js';
import { resolveKey, type KeyRequest, type ResolvedKey } from './key-source.js';
import { proxyBypass } from './proxy-bypass.js';
import { setsEnvironment, type ToolInput, type ToolProfile, type ToolSetup } from './types.js';

export interface PrepareOptions extends KeyRequest {
  group?: string;
  model?: string;
}

export interface Address {
  host: string;
  port: number;
}

export interface Prepared {
  tool: ToolProfile;
  input: ToolInput;
  setup: ToolSetup;
  key: ResolvedKey;
}

function checkGroup(config: Config, slug: string, model: string | undefined): void {
  const group = Object.hasOwn(config.groups, slug) ? config.groups[slug] : undefined;
  if (!group) {
    const known = Object.keys(config.groups);
    throw new CliError(`No group named "${slug}".${known.length ? ` Groups: ${known.join(', ')}.` : ''} See: svc-proxy group list`, 1, { code: 'unknown_group' });
  }
  if (model === undefined) return;
  const names = group.models.map((m) => m.name);
  if (!names.includes(model)) {
    throw new CliError(
      names.length
        ? `Group "${slug}" has no model named "${model}". Its names: ${names.join(', ')}.`
        : `Group "${slug}" has no model names yet. Add one: svc-proxy group set ${slug} ${model} <provider/model>`,
      1,
      { code: 'unknown_group_model', details: { group: slug, names } },
    );
  }
}

/**
 * A value that goes into the printed shell lines, config snippets and comments is one line of
 * printable text: a newline in it would add lines of its own to what the user evals.
 */
function checkOneLine(flag: string, value: string): void {
  const at = firstControl(value);
  if (at < 0) return;
  const code = value.codePointAt(at)!.toString(16).toUpperCase().padStart(4, '0');
  throw new CliError(`${flag} "${printable(value)}" has a control character (U+${code} at position ${at + 1}); give it as one line of printable text.`, 2, { code: 'control_character', details: { flag } });
}

/** On a provider base a model id is provider/model; an unknown provider only warns (the daemon may know it). */
function checkProviderModel(ctx: CliContext, config: Config, model: string): void {
  const slash = model.indexOf('/');
  if (slash <= 0 || slash === model.length - 1) {
    throw new CliError(`--model "${model}" must be provider/model (e.g. anthropic/claude-sonnet-4-5); a bare name works only on a group base (--group).`, 2, { code: 'invalid_model' });
  }
  const provider = model.slice(0, slash);
  const known = [...BUILTIN_PROVIDERS, ...Object.keys(config.endpoints), ...Object.keys(config.locals), ...WELL_KNOWN_LOCAL_SLUGS];
  if (!known.includes(provider)) {
    ctx.err(`svc-proxy: warning: "${provider}" is not a provider, endpoint or local server of this svc-proxy (known: ${known.join(', ')}).`);
  }
}

/**
 * Check, then build. `locate` says where the daemon listens (for `run`, after starting it);
 * it is called only once the checks passed.
 */
export async function prepare(ctx: CliContext, tool: ToolProfile, opts: PrepareOptions, locate: (config: Config) => Promise<Address>): Promise<Prepared> {
  const { ConfigStore } = await import('../../config/store.js');
  const config = (await ConfigStore.open(ctx.paths())).current();
  const model = opts.model?.trim() || undefined;
  const group = opts.group?.trim() || undefined;
  if (model) checkOneLine('--model', model);
  if (group) checkOneLine('--group', group);
  if (group) checkGroup(config, group, model);
  else if (model) checkProviderModel(ctx, config, model);
  if (tool.needsModel && !model) {
    throw new CliError(`${tool.title} needs a model for its settings: add --model ${group ? `<a model name of group "${group}">` : 'provider/model'}.`, 2, { code: 'model_required' });
  }

  const { host, port } = await locate(config);
  const urls = baseUrls(host, port, group);
  const key = await resolveKey(ctx, tool, opts);
  const { connectTimeoutMs, headersTimeoutMs, idleTimeoutMs } = config.settings;
  // to the headers, then to a stream's first event (the longer of the two body limits)
  const upstreamWaitMs = connectTimeoutMs + headersTimeoutMs + Math.max(headersTimeoutMs, idleTimeoutMs);
  const input: ToolInput = { baseUrl: tool.base === 'a' ? urls.a : urls.b, key: key.key, model, group, upstreamWaitMs };
  if (tool.usesModelFacts && model) {
    const { lookUpModelFacts } = await import('./model-facts.js');
    Object.assign(input, await lookUpModelFacts(ctx, config, model, group));
  }
  const setup = tool.setup(input);
  if (setsEnvironment(tool.via)) {
    const bypass = proxyBypass(ctx.io.env, new URL(input.baseUrl).hostname);
    if (bypass) {
      setup.env.push(...bypass.env);
      setup.notes.push(bypass.note);
    }
  }
  return { tool, input, setup, key };
}
