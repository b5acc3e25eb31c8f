/**
 * OpenRouter's signed reasoning on a streamed passthrough Chat answer: `reasoning_details`
 * deltas (text in pieces, the signature on a later entry of the same index), kept for the
 * answer's tool calls as rememberChatAnswer keeps a whole answer's. Most Chat clients drop the
 * field (the AI SDK's OpenAI-compatible provider, and so opencode, sends back `reasoning_content`
 * text only), and the tool turn went back to OpenRouter without its proof.
 */
import { DetailsAccumulator } from '../protocols/chat/details-accumulator.js';
import { isObject } from '../util/is-object.js';
import type { SignatureScan } from './stream-tap.js';

export function reasoningDetailsScan(sink: (callIds: readonly string[], details: unknown[]) => void): SignatureScan {
  const details = new DetailsAccumulator();
  const callIds: string[] = [];
  return {
    needles: [Buffer.from('"reasoning_details"'), Buffer.from('"tool_calls"')],
    read(event) {
      const choices = event.choices;
      if (!Array.isArray(choices)) return;
      for (const choice of choices) {
        const delta = isObject(choice) ? (choice.delta ?? choice.message) : undefined;
        if (!isObject(delta)) continue;
        if (Array.isArray(delta.reasoning_details)) for (const d of delta.reasoning_details) if (isObject(d)) details.add(d);
        // a call's id comes with its first delta only
        if (Array.isArray(delta.tool_calls)) for (const tc of delta.tool_calls) if (isObject(tc) && typeof tc.id === 'string' && tc.id !== '') callIds.push(tc.id);
      }
    },
    end() {
      if (callIds.length > 0 && details.size > 0) sink(callIds, details.snapshot());
    },
  };
}
