/**
 * The usage of an answer cut at a stop sequence in a stream (stop-cut-stream.ts). Its upstream
 * request is dropped at the cut, so the upstream never says what it used: the input is what it
 * reported before the cut (Anthropic does at message_start), else an estimate of the request; the
 * output an estimate of what was relayed. Both counted with the local tokenizer
 * (local-token-estimate.ts), at the cut only.
 */
import type { HubEvent, HubRequest, Usage } from '../protocols/hub.js';
import { countInputTokens, type TokenCounter } from '../providers/local-token-estimate.js';

export class CutUsage {
  private readonly count: TokenCounter;
  private readonly request: HubRequest;
  /** The model's words relayed so far (text, reasoning, call arguments). */
  private readonly relayed: string[] = [];
  private inputReported = false;

  constructor(count: TokenCounter, request: HubRequest) {
    this.count = count;
    this.request = request;
  }

  /** An event relayed to the client before the cut. */
  see(ev: HubEvent): void {
    switch (ev.type) {
      case 'text_delta':
      case 'refusal_delta':
      case 'reasoning_delta':
        this.relayed.push(ev.text);
        break;
      case 'arguments_delta':
        this.relayed.push(ev.json);
        break;
      case 'start':
      case 'usage':
        if (ev.usage?.inputTokens !== undefined) this.inputReported = true;
        break;
      default:
        break;
    }
  }

  /** The usage the cut answer ends with; an input the upstream reported is left as it said (later values win field by field). */
  atCut(): Partial<Usage> {
    const usage: Partial<Usage> = { outputTokens: this.count(this.relayed.join('')) };
    if (!this.inputReported) usage.inputTokens = countInputTokens(this.request, this.count);
    return usage;
  }
}
