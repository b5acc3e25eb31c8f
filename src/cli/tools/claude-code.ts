/**
 * Claude Code (`claude`): reads everything from the environment. The service key goes in
 * ANTHROPIC_AUTH_TOKEN (sent as `Authorization: Bearer`), and ANTHROPIC_API_KEY is removed: with
 * both set Claude Code warns about two credentials, and in interactive mode it asks to approve an
 * API key before using it. AUTH_TOKEN alone works in every mode, `--bare` included.
 */
import { outlastMs } from './tool-limits.js';
import { emptySetup, type ToolProfile } from './types.js';

/**
 * The model variables Claude Code reads: the main model, one per tier its picker and sub-tasks use,
 * the sub-agent model, and ANTHROPIC_SMALL_FAST_MODEL (the 1.x name of the Haiku tier).
 */
export const CLAUDE_MODEL_VARS = [
  'ANTHROPIC_MODEL',
  'ANTHROPIC_DEFAULT_OPUS_MODEL',
  'ANTHROPIC_DEFAULT_SONNET_MODEL',
  'ANTHROPIC_DEFAULT_HAIKU_MODEL',
  'ANTHROPIC_SMALL_FAST_MODEL',
  'CLAUDE_CODE_SUBAGENT_MODEL',
] as const;

/** Claude Code's own model names (claude-sonnet-4-5 …); a provider/model id is never one. */
const OWN_NAME = /^claude-/i;

export const claudeCode: ToolProfile = {
  id: 'claude-code',
  aliases: ['claude'],
  title: 'Claude Code',
  base: 'b',
  via: 'env',
  command: 'claude',
  install: 'npm install -g @anthropic-ai/claude-code',
  usesModelFacts: true,
  setup(input) {
    const { baseUrl, key, model, group } = input;
    const s = emptySetup();
    s.env.push(['ANTHROPIC_BASE_URL', baseUrl], ['ANTHROPIC_AUTH_TOKEN', key]);
    // Telemetry, error reports, update checks: none of it should leave the machine behind the user's back.
    s.env.push(['CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC', '1']);
    // For a base URL that is not Anthropic's, Claude Code's HTTP client gives up after 300 s without
    // a byte and sends the turn again, so a long prompt to a slow local model restarts for ever. The
    // daemon bounds every upstream wait itself and answers with an error, so Claude Code's own
    // limits only need to outlast the daemon's.
    s.env.push(['API_FORCE_IDLE_TIMEOUT', '0'], ['API_TIMEOUT_MS', String(outlastMs(input))]);
    if (model) for (const name of CLAUDE_MODEL_VARS) s.env.push([name, model]);
    // Claude Code compacts the conversation before it reaches the window it believes the model
    // has; for a name it does not know that is 1,000,000 tokens unless this says otherwise.
    if (input.contextWindow !== undefined) s.env.push(['CLAUDE_CODE_MAX_CONTEXT_TOKENS', String(input.contextWindow)]);
    // A group name that is one of Claude Code's own keeps the window Claude Code has for it
    // (200,000 for claude-sonnet-4-5, measured with 2.1.332): the variable is not read for it.
    if (group && model && OWN_NAME.test(model)) {
      s.notes.push(
        `Claude Code takes ${model} for one of its own models and compacts by the window it has for it, whatever CLAUDE_CODE_MAX_CONTEXT_TOKENS says: where a target's window is smaller, add a name of your own (not claude-…) to the group and pass that with --model.`,
      );
    } else if (input.contextWindow === undefined && model) {
      s.notes.push(
        `The context window of ${model} is not known here (the provider's model list does not state it — for OpenAI, its model pages read here do not — or no daemon runs to ask): Claude Code takes a model it does not know for one of 1,000,000 tokens and compacts only near that. For a smaller model, set CLAUDE_CODE_MAX_CONTEXT_TOKENS to its window.`,
      );
    }
    s.unset.push('ANTHROPIC_API_KEY');
    if (!model) {
      s.notes.push(
        group
          ? `Claude Code asks for its own model names (claude-sonnet-…, claude-haiku-…): map them in group "${group}", or add --model <name of the group> to use one name for every tier.`
          : 'Claude Code asks for its own model names (claude-…), which are not provider/model ids: add --model provider/model (e.g. --model anthropic/claude-sonnet-4-5), or use --group.',
      );
    }
    return s;
  },
};
