/**
 * The TUI's connection to the daemon: connected (with a backend), or lost and retrying every
 * second until a daemon answers again for the same state dir — possibly a new process on a new
 * port with a new admin token, which is why each reconnect opens a fresh client.
 */
import type { AdminClient } from '../cli/admin-client.js';
import { backendFor, type TuiBackend } from './backend.js';

export type LinkState =
  | { status: 'connecting' }
  | { status: 'connected'; backend: TuiBackend }
  | { status: 'lost'; reason: string };

export interface DaemonLinkOptions {
  /** Finds the daemon and reads its token; null when none answers. */
  open(): Promise<AdminClient | null>;
  retryMs?: number;
}

export class DaemonLink {
  private current: LinkState = { status: 'connecting' };
  private readonly listeners = new Set<(s: LinkState) => void>();
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;
  private started = false;
  private attempt = 0;
  private readonly retryMs: number;

  constructor(private readonly opts: DaemonLinkOptions) {
    this.retryMs = opts.retryMs ?? 1_000;
  }

  get state(): LinkState {
    return this.current;
  }

  subscribe(listener: (s: LinkState) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Connect now (or keep trying in the background). */
  start(): void {
    if (this.stopped || this.started) return;
    this.started = true;
    void this.tryConnect();
  }

  stop(): void {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.listeners.clear();
  }

  /** Report that `backend` lost its daemon; ignored when that backend is no longer the current one. */
  lost(backend: TuiBackend, reason: string): void {
    if (this.stopped || this.current.status !== 'connected' || this.current.backend !== backend) return;
    this.set({ status: 'lost', reason });
    this.schedule();
  }

  private set(s: LinkState): void {
    this.current = s;
    for (const l of this.listeners) l(s);
  }

  private schedule(): void {
    if (this.stopped || this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      void this.tryConnect();
    }, this.retryMs);
    this.timer.unref?.();
  }

  private async tryConnect(): Promise<void> {
    const attempt = ++this.attempt;
    let client: AdminClient | null = null;
    let reason = 'no daemon is running';
    try {
      client = await this.opts.open();
    } catch (err) {
      reason = err instanceof Error ? err.message : String(err);
    }
    if (this.stopped || attempt !== this.attempt) return;
    if (!client) {
      if (this.current.status !== 'lost') this.set({ status: 'lost', reason });
      this.schedule();
      return;
    }
    const backend: TuiBackend = backendFor(client, (err) => this.lost(backend, err instanceof Error ? err.message : String(err)));
    this.set({ status: 'connected', backend });
  }
}
