/**
 * Continuing a paused turn. Anthropic runs its server tools (web search) in a loop of its own and
 * may stop a long one with `pause_turn`: the turn is not over, and the caller is to send the
 * request again with the paused content appended as the assistant's turn, verbatim, so the model
 * goes on from there. Messages clients do that themselves (passthrough). A Chat or Responses
 * client has no word for it: Responses shows it as `incomplete`, which Codex treats as a failed
 * stream and retries from scratch, searching again, until it gives up. So for a converted request
 * the daemon continues the turn itself, up to MAX_PAUSE_CONTINUATIONS times, and the client gets
 * one answer: the parts' output in order, their usage summed (each part is billed).
 */
import type { HubEvent, HubRequest, Usage } from '../protocols/hub.js';

type Obj = Record<string, unknown>;

/** Each pause comes after Anthropic's own limit of server-tool rounds (10 by default). */
export const MAX_PAUSE_CONTINUATIONS = 5;

/** Only a request that offers a server tool can be paused: the only one converted to Anthropic is web search. */
export function mayPause(hub: HubRequest): boolean {
  return hub.tools.some((t) => t.type === 'web_search');
}

/**
 * The request body sent again with the paused content as the assistant's turn. A body that already
 * ends with an assistant turn (a prefill, or the previous continuation) has the content appended
 * to it: the paused content continues that turn.
 */
export function continuationBody(sent: string | Buffer, content: readonly unknown[]): string {
  const body = JSON.parse(typeof sent === 'string' ? sent : sent.toString('utf8')) as Obj;
  const messages = Array.isArray(body.messages) ? (body.messages as Obj[]) : [];
  const last = messages[messages.length - 1];
  if (last?.role === 'assistant') {
    const before = typeof last.content === 'string' ? (last.content === '' ? [] : [{ type: 'text', text: last.content }]) : Array.isArray(last.content) ? (last.content as unknown[]) : [];
    messages[messages.length - 1] = { ...last, content: [...before, ...content] };
  } else {
    messages.push({ role: 'assistant', content: [...content] });
  }
  body.messages = messages;
  return JSON.stringify(body);
}

const USAGE_KEYS = ['inputTokens', 'outputTokens', 'cacheReadTokens', 'cacheWriteTokens', 'reasoningTokens'] as const;

/** Two parts' usage added field by field (a field either part lacks is the other's). */
export function addUsage(a: Partial<Usage> | undefined, b: Partial<Usage> | undefined): Partial<Usage> {
  const out: Partial<Usage> = {};
  for (const k of USAGE_KEYS) {
    const x = a?.[k];
    const y = b?.[k];
    if (x !== undefined || y !== undefined) out[k] = (x ?? 0) + (y ?? 0);
  }
  return out;
}

/**
 * A continuation's stream events as the next part of the answer already under way: its own
 * `start` dropped (its usage kept), block indices moved past the parts before, usage added to
 * theirs. Indices are tracked for the first part too (`seen`), so the shift knows where to start.
 */
export class PausedParts {
  /** One past the highest hub index of the parts so far. */
  private next = 0;
  private offset = 0;
  /** The usage of the parts before this one, summed. */
  private base: Partial<Usage> | undefined;
  /** A continuation part is under way (its events are shifted). */
  private shifting = false;

  /** A part paused with this finish: the next part's events go after it. */
  paused(finish: Extract<HubEvent, { type: 'finish' }>): void {
    this.base = finish.usage ?? this.base;
    this.offset = this.next;
    this.shifting = true;
  }

  /** An event of the current part, as the client's answer goes on (undefined: dropped). */
  map(ev: HubEvent): HubEvent | undefined {
    if (!this.shifting) {
      this.see(ev);
      return ev;
    }
    let out: HubEvent;
    switch (ev.type) {
      case 'start':
        if (!ev.usage) return undefined;
        out = { type: 'usage', usage: addUsage(this.base, ev.usage) };
        break;
      case 'usage':
        out = { type: 'usage', usage: addUsage(this.base, ev.usage) };
        break;
      case 'finish':
        out = { ...ev, usage: addUsage(this.base, ev.usage) };
        break;
      case 'error':
        out = ev;
        break;
      default:
        out = { ...ev, index: ev.index + this.offset };
    }
    this.see(out);
    return out;
  }

  private see(ev: HubEvent): void {
    if ('index' in ev && ev.index >= this.next) this.next = ev.index + 1;
  }
}
