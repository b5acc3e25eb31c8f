/**
 * Aider (`aider`): talks to OpenAI-compatible servers through LiteLLM, which reads
 * OPENAI_API_BASE / OPENAI_API_KEY and wants the model as `openai/<model>` (the `openai/` prefix
 * means "an OpenAI-compatible server"; LiteLLM strips it and sends the rest). Every aider option
 * also has an AIDER_… variable, so the model goes in AIDER_MODEL.
 */
import { outlastSeconds } from './tool-limits.js';
import { emptySetup, type ToolProfile } from './types.js';

export const aider: ToolProfile = {
  id: 'aider',
  aliases: [],
  title: 'Aider',
  base: 'a',
  via: 'env',
  command: 'aider',
  install: 'python -m pip install aider-install && aider-install',
  setup(input) {
    const { baseUrl, key, model } = input;
    const s = emptySetup();
    s.env.push(['OPENAI_API_BASE', baseUrl], ['OPENAI_API_KEY', key]);
    // --timeout (AIDER_TIMEOUT, aider 0.66+) is 600 s by default, and aider retries a request that
    // timed out ("Read timed out. (read timeout=600) Retry in 0.2 seconds.", aider#276): a long
    // prompt to a slow model would start over. The daemon bounds that wait itself.
    s.env.push(['AIDER_TIMEOUT', String(outlastSeconds(input))]);
    if (model) {
      // The weak model (commit messages, summaries) would otherwise default to an OpenAI model name.
      s.env.push(['AIDER_MODEL', `openai/${model}`], ['AIDER_WEAK_MODEL', `openai/${model}`]);
      // Aider knows no context size for ids it has never seen and warns on every start.
      s.env.push(['AIDER_SHOW_MODEL_WARNINGS', 'false']);
    } else {
      s.notes.push('Add --model provider/model (or a group name with --group): aider then gets --model openai/<that id>.');
    }
    return s;
  },
};
