/**
 * Crush (`crush`, charmbracelet/crush): a custom provider in its JSON config. Crush 0.9x prefers a
 * Bash `crushrc` but still reads `crush.json` (docs/config/README.md "Legacy JSON", and the
 * crushrc ↔ crush.json table in internal/skills/builtin/crush-config/SKILL.md); the JSON works on
 * older Crush releases too. Keys from schema.json at the repository root: `providers.<id>` with
 * `type`, `base_url`, `api_key` and `models[]` (id, name, context_window, default_max_tokens);
 * `models.large` / `models.small` = {provider, model} (large codes, small summarises);
 * `options.request_timeout` (seconds) and `options.disable_metrics`. `api_key` is shell-expanded
 * when Crush loads the file, so it holds `$SVC_PROXY_KEY` and the key never lands in the file.
 *
 * Protocol B, `type: "anthropic"`, for every model: Messages is the richer wire through svc-proxy.
 * Crush's Anthropic client marks its own prompt-cache breakpoints, which reach anthropic/… models
 * untouched (same dialect, passthrough), and keeps thinking blocks with their signatures in its
 * history, which the daemon needs to hand reasoning back to the provider that wrote it. Its
 * OpenAI-compatible client would send Chat Completions, where neither has a standard place.
 *
 * `svc-proxy run` does not start Crush: Crush takes providers only from config files, and the one
 * variable that moves them (CRUSH_GLOBAL_CONFIG) would set aside the user's whole global config.
 * Crush reads the global file, then its data file (~/.local/share/crush/crush.json, where its UI
 * saves a picked model), then project files (internal/config/load.go lookupConfigCandidates).
 */
import { outlastSeconds, outputAllowance, STAND_IN_LIMITS } from './tool-limits.js';
import { emptySetup, type ToolInput, type ToolProfile } from './types.js';

export const CRUSH_PROVIDER_ID = 'svc-proxy';

/**
 * Crush needs both figures for every model it is told about: it summarises before the window
 * fills. A model not said to take attachments has its images dropped before they are sent
 * (`supports_attachments`), and one not said to reason offers no thinking (`can_reason`): both
 * are stated where what the model reads and does is known (model-facts.ts). `default_max_tokens`
 * is what every request asks for; Crush does not take it from the window (it summarises once
 * 20,000 tokens, or a fifth of a small window, are left), so the model's documented max output is
 * given whole where it is known.
 */
function modelEntry(input: ToolInput, model: string): Record<string, unknown> {
  const entry: Record<string, unknown> = { id: model, name: model, context_window: input.contextWindow ?? STAND_IN_LIMITS.contextWindow, default_max_tokens: outputAllowance(input) };
  if (input.reasons) entry.can_reason = true;
  if (input.inputs?.includes('image')) entry.supports_attachments = true;
  return entry;
}

function config(input: ToolInput): Record<string, unknown> {
  const model = input.model!;
  const selected = { provider: CRUSH_PROVIDER_ID, model };
  return {
    $schema: 'https://charm.land/crush.json',
    providers: {
      [CRUSH_PROVIDER_ID]: {
        name: 'svc-proxy',
        type: 'anthropic',
        base_url: input.baseUrl,
        api_key: '$SVC_PROXY_KEY',
        models: [modelEntry(input, model)],
      },
    },
    models: { large: selected, small: selected },
    options: {
      // 60 s by default, counted while no byte comes, so a long prompt to a slow model failed
      // before its first token; the daemon bounds that wait itself.
      request_timeout: outlastSeconds(input),
      // No usage metrics sent behind the user's back, as for Claude Code and Codex.
      disable_metrics: true,
    },
  };
}

export const crush: ToolProfile = {
  id: 'crush',
  aliases: [],
  title: 'Crush',
  base: 'b',
  via: 'env&file',
  install: 'npm install -g @charmland/crush',
  needsModel: true,
  usesModelFacts: true,
  runRefusal:
    'svc-proxy run does not start Crush: it takes its provider only from a config file, and run writes none. Save the file once (svc-proxy env crush --model <id> --config-file, merged into ~/.config/crush/crush.json), export SVC_PROXY_KEY (eval "$(svc-proxy env crush --model <id>)") and run crush.',
  setup(input) {
    const s = emptySetup();
    s.env.push(['SVC_PROXY_KEY', input.key]);
    s.file = {
      path: '~/.config/crush/crush.json',
      format: 'json',
      content: `${JSON.stringify(config(input), null, 2)}\n`,
      how: 'merge it into that file (or a project .crush.json); Crush reads the key from SVC_PROXY_KEY',
    };
    // a list may state a max output without a window (model-facts.ts combine keeps each where known)
    const figures =
      input.contextWindow === undefined
        ? input.maxOutput === undefined
          ? `context_window ${STAND_IN_LIMITS.contextWindow} and default_max_tokens ${outputAllowance(input)} are stand-ins: set your model's own figures.`
          : `context_window ${STAND_IN_LIMITS.contextWindow} is a stand-in: set your model's own; default_max_tokens is its max output as its provider states it.`
        : input.maxOutput === undefined
          ? `context_window is what the provider's model list states; default_max_tokens ${STAND_IN_LIMITS.maxOutputTokens} is a stand-in: set your model's own.`
          : // both known: OpenAI's from its model pages (openai-windows.ts), Anthropic's and Gemini's from their lists
            "context_window and default_max_tokens are the model's window and max output as its provider states them (OpenAI's model pages, Anthropic's or Gemini's model list).";
    const unknown = [input.reasons === undefined ? '"can_reason": true if it reasons' : '', input.inputs === undefined ? '"supports_attachments": true if it reads images' : ''].filter(Boolean);
    if (unknown.length) s.notes.push(`Not known here for this model; add to its entry ${unknown.join(', and ')} (else Crush offers no thinking, or drops images).`);
    s.notes.push(
      `${figures} Crush keeps a model picked in its UI in ~/.local/share/crush/crush.json, read after ~/.config/crush/crush.json: if it picks another model, choose ${input.model!} once (ctrl+l), or use a project .crush.json, read last.`,
    );
    return s;
  },
};
