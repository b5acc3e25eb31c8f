/**
 * The hint a refused connection to a local server gets: these servers run only while someone has
 * started them, so "could not connect" nearly always means "not started". Ollama and LM Studio are
 * known by their default ports; anything else is asked about by its address (origin only: no path,
 * no user or password). A custom endpoint on this machine (llama-server or LM Studio added with
 * `endpoint add`, for their Messages API) is such a server too; one elsewhere gets no hint.
 */
import { isLoopbackHost } from '../config/base-urls.js';
import { displayOrigin } from './base-url.js';

const BY_PORT: Readonly<Record<string, string>> = {
  '11434': 'Is Ollama running? Start it with `ollama serve`.',
  '1234': 'Is LM Studio running? Start its server in the app or with `lms server start`.',
};

export function localRefusedHint(baseUrl: string): string {
  let port = '';
  try {
    port = new URL(baseUrl).port;
  } catch {
    // not a URL: asked about as "the upstream" below
  }
  return (Object.hasOwn(BY_PORT, port) ? BY_PORT[port] : undefined) ?? `Is the server running on ${displayOrigin(baseUrl)}?`;
}

/** The hint for a custom endpoint: only when it is on this machine. */
export function loopbackRefusedHint(baseUrl: string): string | undefined {
  let host: string;
  try {
    host = new URL(baseUrl).hostname;
  } catch {
    return undefined;
  }
  return isLoopbackHost(host) ? localRefusedHint(baseUrl) : undefined;
}
