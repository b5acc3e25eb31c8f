/**
 * Any program built on an Anthropic SDK (the official Python and Node SDKs, the Vercel AI SDK's
 * @ai-sdk/anthropic …): they read ANTHROPIC_BASE_URL and ANTHROPIC_API_KEY (sent as x-api-key).
 * The base is the one the official SDKs append `/v1/messages` to; clients that append only
 * `/messages` reach the same endpoint (the proxy accepts the path with or without `/v1`).
 */
import { emptySetup, type ToolProfile } from './types.js';

export const anthropicSdk: ToolProfile = {
  id: 'anthropic',
  aliases: ['anthropic-sdk'],
  title: 'Anthropic SDKs (any tool that reads ANTHROPIC_BASE_URL)',
  base: 'b',
  via: 'env',
  setup({ baseUrl, key, model }) {
    const s = emptySetup();
    s.env.push(['ANTHROPIC_BASE_URL', baseUrl], ['ANTHROPIC_API_KEY', key]);
    if (model) s.notes.push(`Pass model "${model}" in each request (the SDKs read no model variable).`);
    return s;
  },
};
