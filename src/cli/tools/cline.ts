/**
 * Cline (VS Code extension): configured in its settings panel, not by variables. The
 * "OpenAI Compatible" provider takes the protocol A base, the key and a model id.
 */
import { emptySetup, type ToolProfile } from './types.js';

export const cline: ToolProfile = {
  id: 'cline',
  aliases: [],
  title: 'Cline',
  base: 'a',
  via: 'app',
  needsModel: true,
  setup({ baseUrl, key, model }) {
    const s = emptySetup();
    s.settings = [
      { label: 'API Provider', value: 'OpenAI Compatible' },
      { label: 'Base URL', value: baseUrl },
      { label: 'API Key', value: key },
      { label: 'Model ID', value: model! },
    ];
    return s;
  },
};
