/**
 * Zed (editor): an OpenAI-compatible provider in its settings.json, `language_models.openai_compatible`
 * (zed-industries/zed docs/src/ai/use-api-access.md "OpenAI-Compatible Endpoints"): `api_url` and
 * `available_models` entries with `name` (sent as the model) and `max_tokens` (the context window).
 * Models default to Chat Completions with tools on. The key never goes in settings.json: Zed reads
 * it from its Agent settings (kept in the system keychain) or from `<PROVIDER_ID>_API_KEY` in upper
 * snake case (crates/language_models/src/provider/open_ai_compatible.rs), SVC_PROXY_API_KEY here,
 * which reaches Zed only when it is started from that shell.
 */
import { STAND_IN_LIMITS } from './tool-limits.js';
import { emptySetup, type ToolProfile } from './types.js';

export const ZED_PROVIDER_ID = 'svc-proxy';
export const ZED_KEY_VAR = 'SVC_PROXY_API_KEY';

export const zed: ToolProfile = {
  id: 'zed',
  aliases: [],
  title: 'Zed',
  base: 'a',
  via: 'file',
  needsModel: true,
  usesModelFacts: true,
  setup({ baseUrl, key, model, contextWindow, inputs }) {
    const s = emptySetup();
    const images = inputs?.includes('image') === true;
    // Zed sends no image to a model whose `capabilities.images` is false, its default; older Zed
    // reads the four flags only all together, so all four are written (the others as Zed's defaults)
    const capabilities = { tools: true, images, parallel_tool_calls: false, prompt_cache_key: false };
    const settings = {
      language_models: {
        openai_compatible: {
          [ZED_PROVIDER_ID]: {
            api_url: baseUrl,
            available_models: [{ name: model!, display_name: `${model!} (svc-proxy)`, max_tokens: contextWindow ?? STAND_IN_LIMITS.contextWindow, capabilities }],
          },
        },
      },
    };
    s.env.push([ZED_KEY_VAR, key]);
    s.file = {
      path: '~/.config/zed/settings.json',
      format: 'json',
      content: `${JSON.stringify(settings, null, 2)}\n`,
      how: 'merge it into that file (command palette: zed: open settings file); each further model is one more entry in available_models',
    };
    s.settings = [{ label: `Agent settings → LLM Providers → ${ZED_PROVIDER_ID} → API key`, value: key }];
    s.notes.push(
      `Or leave the key to ${ZED_KEY_VAR} (exported above): Zed reads it only when started from this shell.`,
    );
    if (contextWindow === undefined) s.notes.push(`max_tokens ${STAND_IN_LIMITS.contextWindow} (the context window Zed counts against) is a stand-in: set your model's own.`);
    // known not to read images (gpt-3.5, claude-3-5-haiku): nothing to ask
    if (inputs === undefined) s.notes.push('The model is not known here to read images: set capabilities.images to true if it does (Zed sends it none until then).');
    return s;
  },
};
