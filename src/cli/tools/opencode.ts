/**
 * opencode (`opencode`): a custom provider in its JSON config, served by the AI SDK's
 * OpenAI-compatible package on the protocol A base. OPENCODE_CONFIG_CONTENT holds inline config
 * that opencode merges over its files, so the same JSON works from the environment alone; the key
 * is read from SVC_PROXY_KEY through opencode's `{env:…}` substitution, never written to a file.
 */
import { outlastMs } from './tool-limits.js';
import { emptySetup, type ToolProfile } from './types.js';

export const OPENCODE_PROVIDER_ID = 'svc-proxy';

/**
 * opencode gives up on a request without response headers after 300 s (`headerTimeout`), and the
 * daemon sends its headers with the model's first event, so a long prompt to a slow local model
 * failed there. The daemon bounds that wait itself; opencode's limit only needs to outlast it.
 */
function config(baseUrl: string, model: string, headerTimeout: number): Record<string, unknown> {
  return {
    $schema: 'https://opencode.ai/config.json',
    provider: {
      [OPENCODE_PROVIDER_ID]: {
        npm: '@ai-sdk/openai-compatible',
        name: 'svc-proxy',
        options: { baseURL: baseUrl, apiKey: '{env:SVC_PROXY_KEY}', headerTimeout },
        models: { [model]: { name: model } },
      },
    },
    model: `${OPENCODE_PROVIDER_ID}/${model}`,
  };
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
  setup({ baseUrl, key, model, upstreamWaitMs }) {
    const s = emptySetup();
    const json = config(baseUrl, model!, outlastMs({ upstreamWaitMs }));
    s.env.push(['SVC_PROXY_KEY', key], ['OPENCODE_CONFIG_CONTENT', JSON.stringify(json)]);
    s.file = {
      path: '~/.config/opencode/opencode.json',
      format: 'json',
      content: `${JSON.stringify(json, null, 2)}\n`,
      how: 'or keep it in a file: merge into ~/.config/opencode/opencode.json (or a project opencode.json) and export only SVC_PROXY_KEY',
    };
    return s;
  },
};
