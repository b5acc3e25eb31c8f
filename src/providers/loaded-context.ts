/**
 * Ollama and LM Studio list no context window on their OpenAI-compatible `/v1/models`. What a
 * request through `/v1` gets is the context the model is loaded with, which their own APIs state:
 *
 * - Ollama: `GET /api/ps` gives each loaded model's `context_length`; a model not loaded is loaded
 *   with its Modelfile's `num_ctx` when it sets one (`POST /api/show` → `parameters`), else with the
 *   server's default, which no API states.
 * - LM Studio (0.4+): `GET /api/v1/models` gives each model's `loaded_instances[].config.context_length`;
 *   a model not loaded is loaded on first use with the app's default, which no API states.
 *
 * What is not stated stays unknown: the trained maximum both APIs also give would overstate the
 * window, and a tool that believes it compacts too late (cli/tools/model-facts.ts).
 */

import { tokenCount } from './token-count.js';

type Obj = Record<string, unknown>;

/** The server root, beside the `/v1` its models list was read from. */
export function serverRoot(modelsUrl: string): string | undefined {
  const at = modelsUrl.search(/\/v1\/models(?:\?.*)?$/);
  return at < 0 ? undefined : modelsUrl.slice(0, at);
}

/** Ollama's `/api/ps`: loaded model name → the context it is loaded with; undefined when the answer is not Ollama's. */
export function ollamaLoaded(ps: Obj): Map<string, number> | undefined {
  if (!Array.isArray(ps.models)) return undefined;
  const out = new Map<string, number>();
  for (const m of ps.models as unknown[]) {
    if (typeof m !== 'object' || m === null) continue;
    const { name, model, context_length: context } = m as Obj;
    const n = tokenCount(context);
    if (n === undefined) continue;
    for (const id of [name, model]) if (typeof id === 'string') out.set(id, n);
  }
  return out;
}

/** The `num_ctx` an Ollama model's Modelfile sets (`/api/show` → `parameters`, one "key value" per line). */
export function modelfileContext(show: Obj): number | undefined {
  if (typeof show.parameters !== 'string') return undefined;
  const m = /(?:^|\n)\s*num_ctx\s+(\d+)\s*(?:\n|$)/.exec(show.parameters);
  return m ? tokenCount(Number(m[1])) : undefined;
}

/**
 * LM Studio's `/api/v1/models`: model key → the smallest context a loaded instance has, and each
 * instance's own id (a second instance is listed on `/v1` as `key:2`) → its context; undefined
 * when the answer is not LM Studio's.
 */
export function lmStudioLoaded(list: Obj): Map<string, number> | undefined {
  if (!Array.isArray(list.models)) return undefined;
  const out = new Map<string, number>();
  for (const m of list.models as unknown[]) {
    if (typeof m !== 'object' || m === null) continue;
    const { key, loaded_instances: instances } = m as Obj;
    if (typeof key !== 'string' || !Array.isArray(instances)) continue;
    for (const inst of instances as unknown[]) {
      const n = tokenCount(((inst as Obj | null)?.config as Obj | undefined)?.context_length);
      if (n === undefined) continue;
      if (n < (out.get(key) ?? Infinity)) out.set(key, n);
      const id = (inst as Obj).id;
      if (typeof id === 'string' && id !== key) out.set(id, n);
    }
  }
  return out;
}
