/**
 * Any program built on an OpenAI SDK (the official Python and Node SDKs, the Vercel AI SDK's
 * @ai-sdk/openai, LangChain, LlamaIndex …): they read OPENAI_BASE_URL and OPENAI_API_KEY.
 * Chat Completions and Responses both work on the protocol A base.
 */
import { emptySetup, type ToolProfile } from './types.js';

export const openaiSdk: ToolProfile = {
  id: 'openai',
  aliases: ['openai-sdk'],
  title: 'OpenAI SDKs (any tool that reads OPENAI_BASE_URL)',
  base: 'a',
  via: 'env',
  setup({ baseUrl, key, model }) {
    const s = emptySetup();
    s.env.push(['OPENAI_BASE_URL', baseUrl], ['OPENAI_API_KEY', key]);
    if (model) s.notes.push(`Pass model "${model}" in each request (the SDKs read no model variable).`);
    return s;
  },
};
