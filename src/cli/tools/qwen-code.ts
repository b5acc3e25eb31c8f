/**
 * Qwen Code (`qwen`, npm @qwen-code/qwen-code): its `openai` auth type on the protocol A base
 * (Chat Completions). Facts from Qwen Code 0.24.4 (QwenLM/qwen-code, docs shipped in the package
 * under bundled/qc-helper/docs/configuration/auth.md and settings.md, and its bundled source):
 * - OPENAI_API_KEY, OPENAI_BASE_URL and OPENAI_MODEL are the `openai` auth type's variables; with
 *   all three set and no auth type chosen elsewhere, Qwen Code infers that auth type
 *   (getAuthTypeFromEnv), so it neither asks for Qwen OAuth nor opens its /auth dialog. QWEN_OAUTH
 *   wins that inference, so it is removed.
 * - `--auth-type` beats `security.auth.selectedType` in ~/.qwen/settings.json, which beats the
 *   inference; `--model` beats `model.name` there (which /model saves), which beats OPENAI_MODEL.
 *   `run` passes both flags, so a settings file that chose another auth type or model does not
 *   take over (tried with 0.24.4: without --model, its `model.name` reached the daemon).
 * - QWEN_USAGE_STATISTICS_ENABLED: anything but true/1 turns usage statistics off (they are on by
 *   default), as Claude Code's and Codex's analytics are turned off.
 */
import { outlastMs } from './tool-limits.js';
import { emptySetup, type ToolProfile } from './types.js';

export const qwenCode: ToolProfile = {
  id: 'qwen',
  aliases: ['qwen-code'],
  title: 'Qwen Code',
  base: 'a',
  via: 'env',
  command: 'qwen',
  install: 'npm install -g @qwen-code/qwen-code',
  // The `openai` auth type is inferred only with OPENAI_MODEL set, and its default model is not a provider/model id.
  needsModel: true,
  setup(input) {
    const s = emptySetup();
    s.env.push(['OPENAI_BASE_URL', input.baseUrl], ['OPENAI_API_KEY', input.key], ['OPENAI_MODEL', input.model!]);
    // The OpenAI SDK in Qwen Code gives up on a request without response headers after 120 s
    // (`timeout`) and sends it again, up to 3 times; the daemon sends its headers with the model's
    // first event. Its stream guard then ends a stream silent for 240 s, also as a retryable
    // error, where the daemon itself waits idleTimeoutMs (300 s by default). Both outlast the daemon.
    const wait = String(outlastMs(input));
    s.env.push(['QWEN_CODE_API_TIMEOUT_MS', wait], ['QWEN_STREAM_IDLE_TIMEOUT_MS', wait]);
    s.env.push(['QWEN_USAGE_STATISTICS_ENABLED', 'false']);
    s.unset.push('QWEN_OAUTH');
    s.runArgs.push('--auth-type', 'openai', '--model', input.model!);
    s.notes.push(
      `If ~/.qwen/settings.json chooses another auth type or model (security.auth.selectedType, model.name), start qwen with --auth-type openai --model ${input.model!} (svc-proxy run qwen does).`,
    );
    return s;
  },
};
