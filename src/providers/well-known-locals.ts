/**
 * The local model servers the daemon looks for by itself (local-detect.ts): their slugs work in
 * model ids with no config entry. Data only, so the CLI can name them without loading the HTTP
 * client the detector probes with.
 */

export interface LocalCandidate {
  slug: string;
  /** Base URL (what `/chat/completions` and `/models` are appended to). */
  url: string;
  /** Name shown in hints. */
  label: string;
  /** How to start it, as the hint says it when it does not answer ("with `ollama serve`"). */
  start?: string;
}

export const WELL_KNOWN_LOCALS: readonly LocalCandidate[] = [
  { slug: 'ollama', url: 'http://127.0.0.1:11434/v1', label: 'Ollama', start: 'with `ollama serve`' },
  { slug: 'lmstudio', url: 'http://127.0.0.1:1234/v1', label: 'LM Studio', start: 'in the app or with `lms server start`' },
];

export const WELL_KNOWN_LOCAL_SLUGS: readonly string[] = WELL_KNOWN_LOCALS.map((c) => c.slug);
