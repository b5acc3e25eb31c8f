/**
 * Codex CLI (`codex`): a model provider whose `env_key` names the variable holding the service
 * key, speaking the Responses API (the only wire API current Codex accepts). The settings are
 * printed as a Codex profile file, ~/.codex/svc-proxy.config.toml, used with
 * `codex --profile svc-proxy` (or merged into config.toml to make it the default).
 * `svc-proxy run codex` passes the same settings as `-c key=value` overrides and touches no file.
 *
 * Codex also offers the model the hosted `web_search` tool, which svc-proxy runs only on
 * openai/… models (OpenAI's own) and anthropic/… models (as Anthropic's server tool), so for any
 * other model it is switched off (`web_search = "disabled"`). The multi-agent `namespace` tool stays on: its functions are
 * converted for every provider. So does the freeform `apply_patch` (a `custom` tool, which Codex
 * sends for GPT-5-family model names, as when a group maps one to another provider's model): it
 * reaches other providers as a function taking the patch text.
 * Usage analytics are switched off too (`analytics.enabled`), as Claude Code's non-essential traffic is.
 *
 * Codex knows a model's reasoning and window from its name, and knows no `provider/model` id
 * (Codex 0.171 prints "reasoning effort: none" for `openai/gpt-5.4` and `anthropic/…` alike): it
 * sent no reasoning, so Claude never thought, and has no window to compact by. Where the model is
 * known to reason (model-facts.ts) the profile sets what Codex uses for its own GPT-5 models,
 * `model_reasoning_effort = "medium"` and `model_reasoning_summary = "auto"`, and where its window
 * is known, `model_context_window`.
 */
import { emptySetup, type ToolInput, type ToolProfile } from './types.js';

export const CODEX_PROVIDER_ID = 'svc-proxy';
export const CODEX_KEY_VAR = 'SVC_PROXY_KEY';

/** A TOML basic string (JSON's escapes are valid TOML for the text we put in). */
function tomlString(value: string): string {
  return JSON.stringify(value);
}

/** Only an openai/… or anthropic/… model on a provider base is sure to run Codex's web search. */
function webSearchOk({ model, group }: ToolInput): boolean {
  return !group && model !== undefined && (model.startsWith('openai/') || model.startsWith('anthropic/'));
}

/** The settings as [dotted key, TOML value] pairs: the file and the -c overrides come from one list. */
function settings(input: ToolInput): Array<[string, string]> {
  const root: Array<[string, string]> = [['model_provider', tomlString(CODEX_PROVIDER_ID)]];
  if (input.model) root.push(['model', tomlString(input.model)]);
  if (!webSearchOk(input)) root.push(['web_search', tomlString('disabled')]);
  if (input.reasons) root.push(['model_reasoning_effort', tomlString('medium')], ['model_reasoning_summary', tomlString('auto')]);
  if (input.contextWindow !== undefined) root.push(['model_context_window', String(input.contextWindow)]);
  // Like CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC for Claude Code: no usage analytics behind the user's back.
  root.push(['analytics.enabled', 'false']);
  const p = `model_providers.${CODEX_PROVIDER_ID}`;
  return [
    ...root,
    [`${p}.name`, tomlString('svc-proxy')],
    [`${p}.base_url`, tomlString(input.baseUrl)],
    [`${p}.env_key`, tomlString(CODEX_KEY_VAR)],
    [`${p}.wire_api`, tomlString('responses')],
  ];
}

function configToml(input: ToolInput): string {
  const lines: string[] = [];
  const providerPrefix = `model_providers.${CODEX_PROVIDER_ID}.`;
  const all = settings(input);
  for (const [key, value] of all) {
    if (key.startsWith(providerPrefix)) continue;
    if (key === 'web_search') lines.push('# Web search runs only on openai/… and anthropic/… models through svc-proxy; other providers refuse it.');
    if (key === 'analytics.enabled') lines.push('# No usage analytics sent to OpenAI.');
    if (key === 'model_reasoning_effort') lines.push('# Codex sends no reasoning for a model name it does not know; these are its defaults for its own GPT-5 models.');
    if (key === 'model_context_window') lines.push("# The window the provider's model list (for OpenAI, its model page) states: Codex compacts by it.");
    lines.push(`${key} = ${value}`);
  }
  lines.push('', `[model_providers.${CODEX_PROVIDER_ID}]`);
  for (const [key, value] of all) if (key.startsWith(providerPrefix)) lines.push(`${key.slice(providerPrefix.length)} = ${value}`);
  return `${lines.join('\n')}\n`;
}

export const codex: ToolProfile = {
  id: 'codex',
  aliases: ['codex-cli'],
  title: 'Codex CLI',
  base: 'a',
  via: 'env+file',
  command: 'codex',
  install: 'npm install -g @openai/codex',
  usesModelFacts: true,
  setup(input) {
    const s = emptySetup();
    s.env.push([CODEX_KEY_VAR, input.key]);
    s.file = {
      path: `~/.codex/${CODEX_PROVIDER_ID}.config.toml`,
      format: 'toml',
      content: configToml(input),
      how: `save as that file ($CODEX_HOME/${CODEX_PROVIDER_ID}.config.toml) and run codex --profile ${CODEX_PROVIDER_ID}; or merge it into config.toml (top-level keys above the first [table]) to make it the default`,
    };
    for (const [key, value] of settings(input)) s.runArgs.push('-c', `${key}=${value}`);
    if (!input.model) s.notes.push('No --model given: Codex uses the model set in its config.toml (it must be a provider/model id or, with --group, a name of the group), or pass -m provider/model.');
    return s;
  },
};
