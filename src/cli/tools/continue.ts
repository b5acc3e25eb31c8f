/**
 * Continue (VS Code / JetBrains extension): a model entry in ~/.continue/config.yaml with the
 * `openai` provider and `apiBase` on the protocol A base. Continue reads no variable for this, so
 * the entry carries the key (keep the file private, or move the key into ~/.continue/.env as
 * SVC_PROXY_KEY=… and write `apiKey: ${{ secrets.SVC_PROXY_KEY }}`).
 */
import { emptySetup, type ToolProfile } from './types.js';

/** A YAML double-quoted scalar (JSON strings are valid YAML). */
function yamlString(value: string): string {
  return JSON.stringify(value);
}

export const continueDev: ToolProfile = {
  id: 'continue',
  aliases: ['continue-dev'],
  title: 'Continue',
  base: 'a',
  via: 'file',
  needsModel: true,
  setup({ baseUrl, key, model }) {
    const s = emptySetup();
    const m = model!;
    s.file = {
      path: '~/.continue/config.yaml',
      format: 'yaml',
      content: [
        'models:',
        `  - name: ${yamlString(`${m} (svc-proxy)`)}`,
        '    provider: openai',
        `    model: ${yamlString(m)}`,
        `    apiBase: ${yamlString(baseUrl)}`,
        `    apiKey: ${yamlString(key)}`,
        '    roles: [chat, edit, apply]',
        '',
      ].join('\n'),
      how: 'add the entry under `models:` in ~/.continue/config.yaml',
    };
    return s;
  },
};
