/**
 * No input makes the Messages codec throw anything but a clean ProtocolError: arbitrary JSON,
 * and valid requests with random parts replaced, deleted or retyped. Decoded requests are then
 * encoded for a Messages upstream, which must hold to the same rule.
 */
import fc from 'fast-check';
import { describe, it } from 'vitest';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { awkwardJson, jsonPaths, mutateAt, mutation, onlyProtocolErrors, type Loose } from '../shared/helpers.js';
import { fixtureJson, fixtureNames } from './helpers.js';

function decodeThenEncode(body: unknown): void {
  onlyProtocolErrors(() => {
    const hub = messagesCodec.decodeRequest(body);
    messagesCodec.encodeRequest(hub, { replayReasoning: ['anthropic', 'anthropic_redacted'], keepCacheControl: true });
  });
}

const seeds: Loose[] = fixtureNames('request-decode', '.json').map((n) => fixtureJson<{ input: Loose }>(`request-decode/${n}.json`).input);

const jsonish = awkwardJson;

describe('Messages codec never throws anything but a ProtocolError', () => {
  it('arbitrary JSON bodies', () => {
    fc.assert(fc.property(fc.jsonValue(), decodeThenEncode), { numRuns: 500 });
  });

  it('arbitrary objects shaped like requests', () => {
    const block = fc.record({ type: fc.constantFrom('text', 'image', 'document', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking', 'search_result', 'x'), text: jsonish, source: jsonish, id: jsonish, name: jsonish, input: jsonish, tool_use_id: jsonish, content: jsonish, thinking: jsonish, signature: jsonish, data: jsonish, is_error: jsonish, cache_control: jsonish }, { requiredKeys: ['type'] });
    const message = fc.record({ role: fc.constantFrom('user', 'assistant', 'system', 'tool'), content: fc.oneof(fc.string(), fc.array(block, { maxLength: 4 }), jsonish) });
    const body = fc.record(
      {
        model: fc.oneof(fc.constant('p/m'), jsonish),
        messages: fc.oneof(fc.array(message, { maxLength: 5 }), jsonish),
        system: jsonish,
        tools: fc.oneof(fc.array(fc.record({ name: jsonish, type: jsonish, input_schema: jsonish, cache_control: jsonish }), { maxLength: 3 }), jsonish),
        tool_choice: jsonish,
        thinking: fc.oneof(fc.record({ type: fc.constantFrom('enabled', 'adaptive', 'disabled', 'between_tools', 'x'), budget_tokens: jsonish, display: jsonish }), jsonish),
        output_config: fc.oneof(fc.record({ effort: jsonish, format: jsonish }), jsonish),
        reasoning_effort: jsonish,
        max_tokens: jsonish,
        temperature: jsonish,
        stop_sequences: jsonish,
        metadata: jsonish,
        cache_control: jsonish,
        stream: jsonish,
      },
      { requiredKeys: [] },
    );
    fc.assert(fc.property(body, decodeThenEncode), { numRuns: 1500 });
  });

  it('valid requests with one part replaced, deleted or retyped', () => {
    const cases = seeds.flatMap((seed) => jsonPaths(seed).map((p) => ({ seed, p })));
    fc.assert(
      fc.property(fc.constantFrom(...cases), mutation, ({ seed, p }, m) => decodeThenEncode(mutateAt(seed, p, m))),
      { numRuns: 2000 },
    );
  });

  it('upstream responses and stream events', () => {
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.record({ type: fc.constant('message'), content: fc.array(fc.record({ type: fc.constantFrom('text', 'thinking', 'tool_use', 'redacted_thinking'), text: jsonish, input: jsonish, signature: jsonish })), usage: jsonish, stop_reason: jsonish })), (body) =>
        onlyProtocolErrors(() => messagesCodec.decodeResponse(body)),
      ),
      { numRuns: 500 },
    );
    const event = fc.record({
      type: fc.constantFrom('message_start', 'content_block_start', 'content_block_delta', 'content_block_stop', 'message_delta', 'message_stop', 'error', 'ping'),
      index: jsonish,
      message: jsonish,
      content_block: jsonish,
      delta: jsonish,
      usage: jsonish,
      error: jsonish,
    });
    fc.assert(
      fc.property(fc.array(fc.oneof(event.map((e) => JSON.stringify(e)), fc.string()), { maxLength: 12 }), (datas) => {
        const d = messagesCodec.createStreamDecoder();
        for (const data of datas) d.push({ data });
        d.end();
      }),
      { numRuns: 500 },
    );
  });
});
