/**
 * llama.cpp's server (`llama-server`) lists its model with the context length the model was trained
 * for (`meta.n_ctx_train`), not the one the server was started with (`-c`, often far smaller on a
 * laptop). What one request may use is a slot's context, which `GET /props` gives as
 * `default_generation_settings.n_ctx`. Its list entries say `owned_by: "llamacpp"`.
 */

import { serverRoot } from './loaded-context.js';
import { tokenCount } from './token-count.js';

export function isLlamaCppEntry(entry: Record<string, unknown>): boolean {
  return entry.owned_by === 'llamacpp';
}

/** `/props` sits at the server's root, beside the `/v1` the models list was read from. */
export function propsUrl(modelsUrl: string): string | undefined {
  const root = serverRoot(modelsUrl);
  return root === undefined ? undefined : `${root}/props`;
}

/** The slot context a `/props` answer states. */
export function slotContext(props: Record<string, unknown>): number | undefined {
  const settings = props.default_generation_settings;
  if (typeof settings !== 'object' || settings === null) return undefined;
  return tokenCount((settings as Record<string, unknown>).n_ctx);
}
