/**
 * goose (`goose`, aaif-goose/goose, formerly block/goose): its `openai` provider, configured by
 * variables (goose reads a config key from the environment before config.yaml; see its
 * documentation/docs/guides/environment-variables.md). From crates/goose/src/providers/openai.rs:
 * - OPENAI_HOST is joined with OPENAI_BASE_PATH (default v1/chat/completions), so the host is the
 *   origin alone and the path carries the rest of the base. A path that names chat/completions
 *   keeps every model on Chat Completions (otherwise gpt-5-like names go to /responses).
 * - With a host that is not api.openai.com, goose sets no separate fast model, so its background
 *   calls use the main model, a provider/model id too.
 * - OPENAI_TIMEOUT (seconds, default 600) is the whole request's limit (reqwest's client timeout,
 *   crates/goose/src/providers/api_client.rs), first byte included.
 * Its anthropic provider was not chosen: it appends v1/messages to ANTHROPIC_HOST, takes no
 * timeout setting and names a fixed fast model (claude-haiku-4-5) that is no provider/model id.
 * goose compacts by a window it knows from the model's name, 128,000 for a name it does not know;
 * GOOSE_CONTEXT_LIMIT overrides that (its environment-variables guide, "for custom models that
 * don't match goose's predefined model patterns"), set where the window is known (model-facts.ts).
 */
import { outlastSeconds } from './tool-limits.js';
import { emptySetup, type ToolProfile } from './types.js';
import { trimSlashes } from '../../util/slashes.js';

/** The origin for OPENAI_HOST and the path (no leading slash) for OPENAI_BASE_PATH. */
function hostAndPath(baseUrl: string): [host: string, path: string] {
  const url = new URL(baseUrl);
  return [url.origin, `${trimSlashes(url.pathname)}/chat/completions`];
}

export const goose: ToolProfile = {
  id: 'goose',
  aliases: [],
  title: 'goose',
  base: 'a',
  via: 'env',
  command: 'goose',
  install: 'curl -fsSL https://github.com/aaif-goose/goose/releases/download/stable/download_cli.sh | bash',
  usesModelFacts: true,
  setup(input) {
    const s = emptySetup();
    const [host, path] = hostAndPath(input.baseUrl);
    s.env.push(['GOOSE_PROVIDER', 'openai']);
    if (input.model) s.env.push(['GOOSE_MODEL', input.model]);
    s.env.push(['OPENAI_HOST', host], ['OPENAI_BASE_PATH', path], ['OPENAI_API_KEY', input.key]);
    // 600 s by default, shorter than the daemon's own wait for a first byte (20 min 10 s by
    // default): a long prompt to a slow model would fail at 10 minutes.
    s.env.push(['OPENAI_TIMEOUT', String(outlastSeconds(input))]);
    if (input.contextWindow !== undefined) s.env.push(['GOOSE_CONTEXT_LIMIT', String(input.contextWindow)]);
    // Off unless the user opted in; set so an earlier opt-in does not send usage data from here.
    s.env.push(['GOOSE_TELEMETRY_ENABLED', 'false']);
    if (!input.model) {
      s.notes.push('No --model given: goose uses GOOSE_MODEL from its config.yaml, which must be a provider/model id (or, with --group, a name of the group).');
    }
    return s;
  },
};
