/**
 * Continue (VS Code / JetBrains extension, and its `cn` CLI): ~/.continue/config.yaml with a model
 * entry on the `openai` provider and `apiBase` on the protocol A base; `run` starts `cn` with the
 * same file given as `--config`. The file is printed whole: Continue refuses one without `name`
 * and `version` ("Failed to parse config: name: Required, version: Required", cn 1.5.47). Continue
 * reads no variable for this, so the entry carries the key (keep the file private, or move the key
 * into ~/.continue/.env as SVC_PROXY_KEY=… and write `apiKey: ${{ secrets.SVC_PROXY_KEY }}`).
 *
 * Continue knows what an `openai` model can do from its name (core/llm/toolSupport.ts: tools only
 * for names starting gpt-4 or o3), so a `provider/model` id got no agent mode (it needs tools) and
 * no image uploads, and an unknown model is pruned to 32,768 tokens of context with 4,096 out
 * (core/llm/constants.ts). The entry states `capabilities` (tool_use, image_input) where they are
 * known (model-facts.ts) and `defaultCompletionOptions` (contextLength, maxTokens).
 */
import { outputAllowance, STAND_IN_LIMITS } from './tool-limits.js';
import { emptySetup, type ToolInput, type ToolProfile } from './types.js';

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
  command: 'cn',
  install: 'npm install -g @continuedev/cli',
  needsModel: true,
  usesModelFacts: true,
  setup(input) {
    const { baseUrl, key } = input;
    const s = emptySetup();
    const m = input.model!;
    const capabilities = capabilitiesOf(input);
    s.file = {
      path: '~/.continue/config.yaml',
      format: 'yaml',
      content: [
        'name: svc-proxy',
        'version: 1.0.0',
        'schema: v1',
        'models:',
        `  - name: ${yamlString(`${m} (svc-proxy)`)}`,
        '    provider: openai',
        `    model: ${yamlString(m)}`,
        `    apiBase: ${yamlString(baseUrl)}`,
        `    apiKey: ${yamlString(key)}`,
        '    roles: [chat, edit, apply]',
        ...(capabilities.length ? [`    capabilities: [${capabilities.join(', ')}]`] : []),
        '    defaultCompletionOptions:',
        `      contextLength: ${contextLength(input)}`,
        `      maxTokens: ${outputAllowance(input)}`,
        '',
      ].join('\n'),
      how: 'save it as ~/.continue/config.yaml, or add its entry under `models:` in the one you have',
    };
    // `svc-proxy run continue …` starts the `cn` CLI on the same file, written for the run only
    s.runConfig = { flag: '--config', content: s.file.content, extension: 'yaml' };
    if (input.contextWindow === undefined) s.notes.push(`contextLength ${STAND_IN_LIMITS.contextWindow} is a stand-in: set your model's own window.`);
    const unknown = [input.callsTools ? '' : 'tool_use if it calls tools (agent mode needs it)', input.inputs === undefined ? 'image_input if it reads images' : ''].filter(Boolean);
    if (unknown.length) s.notes.push(`Not known here for this model; add to its capabilities ${unknown.join(', and ')}.`);
    return s;
  },
};

/**
 * Continue keeps `maxTokens` (and its tools and a safety margin) out of `contextLength` when it
 * prunes the prompt, and refuses to send at all when `maxTokens` comes near it (core/llm/countTokens.ts
 * compileChatMessages). Where the window known is the input alone, the output allowance beside it
 * (OpenAI's documented one, openai-windows.ts; Gemini's), the output goes back in, so the prompt
 * still gets the whole input and gpt-5-pro's 272,000 out fits its 128,000 in. Anthropic's window
 * holds both already: it is contextLength as it is.
 */
function contextLength(input: ToolInput): number {
  if (input.contextWindow === undefined) return STAND_IN_LIMITS.contextWindow;
  return input.maxOutput !== undefined && input.outputBesideWindow ? input.contextWindow + input.maxOutput : input.contextWindow;
}

/** Continue's names for what the model is known to do. */
function capabilitiesOf(input: ToolInput): string[] {
  const out: string[] = [];
  if (input.callsTools) out.push('tool_use');
  if (input.inputs?.includes('image')) out.push('image_input');
  return out;
}
