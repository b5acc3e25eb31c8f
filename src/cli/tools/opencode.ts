/**
 * opencode (`opencode`): a custom provider in its JSON config, served by the AI SDK's
 * OpenAI-compatible package on the protocol A base. OPENCODE_CONFIG_CONTENT holds inline config
 * that opencode merges over its files, so the same JSON works from the environment alone; the key
 * is read from SVC_PROXY_KEY through opencode's `{env:…}` substitution, never written to a file.
 *
 * A model opencode's catalog (models.dev) does not list — ours never are — counts as text only,
 * not reasoning, with no window: an image or PDF it turns into "ERROR: Cannot read … (this model
 * does not support image input)" for the model, `--variant` offers no effort level, and it never
 * compacts. So the entry states what is known of the model (model-facts.ts): `limit` (window,
 * output allowance), `modalities` and `attachment` for what it reads, `reasoning`.
 */
import { outlastMs, outputAllowance, STAND_IN_LIMITS } from './tool-limits.js';
import { emptySetup, type ToolInput, type ToolProfile } from './types.js';

export const OPENCODE_PROVIDER_ID = 'svc-proxy';

/**
 * opencode gives up on a request without response headers after 300 s (`headerTimeout`), and the
 * daemon sends its headers with the model's first event, so a long prompt to a slow local model
 * failed there. The daemon bounds that wait itself; opencode's limit only needs to outlast it.
 */
function config(input: ToolInput, model: string): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [OPENCODE_PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'svc-proxy',
        options: { baseURL: input.baseUrl, apiKey: '{env:SVC_PROXY_KEY}', headerTimeout: outlastMs(input) },
        models: { [model]: modelEntry(input, model) },
      },
    },
    model: `${OPENCODE_PROVIDER_ID}/${model}`,
  };
}

function modelEntry(input: ToolInput, model: string): Record<string, unknown> {
  // opencode asks for `output`, capped at its own 32,000 (OPENCODE_EXPERIMENTAL_OUTPUT_TOKEN_MAX): so a model
  // that writes less (gpt-4o's 16,384) is never asked for more. `context` is the input the model takes, as
  // opencode's provider docs define it ("Maximum input tokens the model accepts").
  const limit: Record<string, number> = { context: input.contextWindow ?? STAND_IN_LIMITS.contextWindow, output: outputAllowance(input) };
  // Undocumented `limit.input`, in the config schema of the released 1.18.33 (its binary: `limit: {context,
  // input?: Finite, output}`, a custom model's `input: C.limit?.input`): the input budget it compacts at.
  // With it, opencode compacts once the last turn's tokens reach `input` less min(20,000, output); without,
  // `context` less the output allowance. Only where the window is the input alone (OpenAI's, Gemini's;
  // for a group, every target's) is it written: there the second figure holds back the answer's room
  // twice. Where the window holds the output too (Claude's, OpenRouter's, a local server's), `input`
  // would let a turn of window − 20,000 ask for its whole output on top, past the limit. A stand-in
  // window is not a budget either.
  if (input.contextWindow !== undefined && input.outputBesideWindow) limit.input = input.contextWindow;
  const entry: Record<string, unknown> = { name: model, limit };
  if (input.reasons) entry.reasoning = true;
  if (input.inputs?.length) {
    entry.attachment = true;
    // opencode names them as svc-proxy does: `image`, `pdf`
    entry.modalities = { input: ['text', ...input.inputs], output: ['text'] };
  }
  return entry;
}

/** Notes on the figures the entry could not know. */
function notes(input: ToolInput): string[] {
  const out: string[] = [];
  if (input.contextWindow === undefined) out.push(`limit.context ${STAND_IN_LIMITS.contextWindow} (where opencode compacts) is a stand-in: set your model's own window.`);
  if (input.inputs === undefined) out.push('The model is taken to read text only (opencode turns images and PDFs into an error text for it): add "modalities": {"input": ["text", "image"], "output": ["text"]} and "attachment": true to its entry if it reads images.');
  if (input.reasons === undefined) out.push('The model is not said to reason, so opencode offers no --variant effort levels for it: add "reasoning": true to its entry if it does.');
  return out;
}

export const opencode: ToolProfile = {
  id: 'opencode',
  aliases: [],
  title: 'opencode',
  base: 'a',
  via: 'env+file',
  command: 'opencode',
  install: 'npm install -g opencode-ai',
  needsModel: true,
  usesModelFacts: true,
  setup(input) {
    const s = emptySetup();
    const json = config(input, input.model!);
    s.env.push(['SVC_PROXY_KEY', input.key], ['OPENCODE_CONFIG_CONTENT', JSON.stringify(json)]);
    s.file = {
      path: '~/.config/opencode/opencode.json',
      format: 'json',
      content: `${JSON.stringify(json, null, 2)}\n`,
      how: 'or keep it in a file: merge into ~/.config/opencode/opencode.json (or a project opencode.json) and export only SVC_PROXY_KEY',
    };
    s.notes.push(...notes(input));
    return s;
  },
};
