/**
 * Auto-detection of local model servers that were not added by hand: Ollama on 127.0.0.1:11434
 * and LM Studio on 127.0.0.1:1234, probed on their OpenAI-compatible `/v1/models` with a short
 * timeout. The last result is cached (shorter when nothing answered, so starting Ollama is noticed
 * soon) and read synchronously by the registry; the model catalog refreshes it.
 * `SVC_PROXY_NO_LOCAL_DETECT=1` turns detection off.
 */
import { upstreamText } from './upstream-text.js';
import { WELL_KNOWN_LOCALS, type LocalCandidate } from './well-known-locals.js';

export interface LocalDetectorOptions {
  candidates?: readonly LocalCandidate[];
  /** Per-probe bound. */
  timeoutMs?: number;
  /** How long a result with at least one server stays fresh. */
  ttlMs?: number;
  /** How long "nothing answered" stays fresh. */
  missTtlMs?: number;
  enabled?: boolean;
}

interface Snapshot {
  at: number;
  found: LocalCandidate[];
}

export class LocalDetector {
  readonly candidates: readonly LocalCandidate[];
  private readonly timeoutMs: number;
  private readonly ttlMs: number;
  private readonly missTtlMs: number;
  readonly enabled: boolean;
  private last: Snapshot | undefined;
  private inflight: Promise<LocalCandidate[]> | undefined;

  constructor(opts: LocalDetectorOptions = {}) {
    this.candidates = opts.candidates ?? WELL_KNOWN_LOCALS;
    this.timeoutMs = opts.timeoutMs ?? 300;
    this.ttlMs = opts.ttlMs ?? 30_000;
    this.missTtlMs = opts.missTtlMs ?? 5_000;
    this.enabled = opts.enabled ?? process.env.SVC_PROXY_NO_LOCAL_DETECT !== '1';
  }

  candidate(slug: string): LocalCandidate | undefined {
    return this.enabled ? this.candidates.find((c) => c.slug === slug) : undefined;
  }

  /** Last result, or undefined when never probed. Synchronous: safe on the request path. */
  snapshot(): { found: readonly LocalCandidate[]; stale: boolean } | undefined {
    if (!this.last) return undefined;
    const ttl = this.last.found.length > 0 ? this.ttlMs : this.missTtlMs;
    return { found: this.last.found, stale: Date.now() - this.last.at > ttl };
  }

  /** Probe now; concurrent callers share one probe. */
  refresh(): Promise<LocalCandidate[]> {
    if (!this.enabled) return Promise.resolve([]);
    if (!this.inflight) {
      this.inflight = Promise.all(this.candidates.map((c) => this.probe(c)))
        .then((results) => {
          const found = this.candidates.filter((_, i) => results[i]);
          this.last = { at: Date.now(), found };
          return found;
        })
        .finally(() => {
          this.inflight = undefined;
        });
    }
    return this.inflight;
  }

  /** A fresh result: probes when never probed or stale. */
  async detect(): Promise<readonly LocalCandidate[]> {
    const snap = this.snapshot();
    if (snap && !snap.stale) return snap.found;
    return this.refresh();
  }

  /** Kick a background probe when the cached result is stale or missing (never throws). */
  touch(): void {
    const snap = this.snapshot();
    if (this.enabled && (!snap || snap.stale)) void this.refresh().catch(() => undefined);
  }

  private async probe(c: LocalCandidate): Promise<boolean> {
    const url = `${c.url}/models`;
    try {
      const res = await upstreamText({
        url,
        method: 'GET',
        headers: { accept: 'application/json' },
        signal: AbortSignal.timeout(this.timeoutMs),
        connectTimeoutMs: this.timeoutMs,
        headersTimeoutMs: this.timeoutMs,
        idleTimeoutMs: this.timeoutMs,
      }, 4 * 1024 * 1024);
      if (res.status !== 200) return false;
      const parsed: unknown = JSON.parse(res.text);
      return typeof parsed === 'object' && parsed !== null && Array.isArray((parsed as { data?: unknown }).data);
    } catch {
      return false;
    }
  }
}

/** The daemon-wide detector shared by the registry and the model catalog. */
export const defaultLocalDetector = new LocalDetector();
