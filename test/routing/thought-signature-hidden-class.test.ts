/**
 * A replayed call given its cached thought signature (reasoning-continuity.ts) has one hidden
 * class for every request: a spread copy that gains a key gets a map of its own per call on Node
 * 20 (protocols/shared/hidden-classes.ts). In a process of its own (vitest.config.ts): files run
 * before it in a shared one fill V8's transition trees with their keys, and then any object may
 * get a map of its own.
 */
import { describe, expect, it } from 'vitest';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { ReasoningCache } from '../../src/routing/reasoning-cache.js';
import { attachToHub } from '../../src/routing/reasoning-continuity.js';
import { mapsNewPerCall } from '../protocols/shared/hidden-classes.js';

describe('attachToHub: thought signatures put back', () => {
  it("gives every request's signed call the same hidden class (no map made per request)", () => {
    const cache = new ReasoningCache();
    cache.set('toolu_1', { slug: 'gemini', thoughtSignature: 'sig-1' });
    // a Claude Code turn replayed to Gemini: its tool_use carries no signature
    const text = JSON.stringify({
      model: 'gemini-3-pro',
      max_tokens: 1000,
      messages: [
        { role: 'user', content: 'Read the file.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'Read', input: { path: 'a.ts' } }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'x' }] },
      ],
    });
    const request = () => attachToHub(cache, messagesCodec.decodeRequest(JSON.parse(text)).items, 'gemini', true);
    expect(request()[1]).toEqual({ type: 'function_call', callId: 'toolu_1', name: 'Read', arguments: '{"path":"a.ts"}', thoughtSignature: 'sig-1' });
    expect(mapsNewPerCall(request)).toEqual([]);
  });
});
