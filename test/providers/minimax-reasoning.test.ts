import { describe, expect, it } from 'vitest';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { localAdapter } from '../../src/providers/local.js';
import { inlineMiniMaxReasoning } from '../../src/providers/minimax-reasoning.js';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lazyJsonBody, unparsedMember } from '../../src/protocols/lazy-json.js';
import { editJsonBody } from '../../src/routing/json-splice.js';

const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{}' } };

describe('inlineMiniMaxReasoning', () => {
  it('puts each assistant message’s reasoning back inline ahead of its content, and drops the fields', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q', reasoning: 'not an assistant' },
        { role: 'assistant', content: 'Sunny.', reasoning: 'Plain thought.' },
        { role: 'assistant', content: null, reasoning_content: 'Call it.', tool_calls: [call] },
        { role: 'assistant', content: [{ type: 'text', text: 'Parts.' }], reasoning: 'R', reasoning_content: 'R' },
        { role: 'assistant', content: 'no reasoning', reasoning: '' },
        { role: 'assistant', content: 'split', reasoning_details: [{ type: 'reasoning.text', text: 'MiniMax’s own' }] },
      ],
    };
    inlineMiniMaxReasoning(body, 'MiniMax-M2');
    expect(body.messages).toEqual([
      { role: 'user', content: 'q', reasoning: 'not an assistant' },
      { role: 'assistant', content: '<think>Plain thought.</think>\n\nSunny.' },
      { role: 'assistant', content: '<think>Call it.</think>\n\n', tool_calls: [call] },
      { role: 'assistant', content: [{ type: 'text', text: '<think>R</think>\n\n' }, { type: 'text', text: 'Parts.' }] },
      { role: 'assistant', content: 'no reasoning', reasoning: '' },
      { role: 'assistant', content: 'split', reasoning_details: [{ type: 'reasoning.text', text: 'MiniMax’s own' }] },
    ]);
  });

  it('leaves other models alone', () => {
    const body = { messages: [{ role: 'assistant', content: 'a', reasoning: 'r' }] };
    inlineMiniMaxReasoning(body, 'qwen3-coder');
    expect(body.messages[0]).toEqual({ role: 'assistant', content: 'a', reasoning: 'r' });
  });

  it.each([
    ['local', localAdapter],
    ['custom-a', customChatAdapter],
  ] as const)('%s: a converted MiniMax conversation reaches it with the reasoning inline', (_, adapter) => {
    const body = { model: 'm', messages: [{ role: 'user', content: 'hi' }, { role: 'assistant', content: 'Hello.', reasoning: 'Greet back.' }, { role: 'user', content: 'bye' }] };
    adapter.finalizeBody(body, { model: 'minimax/minimax-m2.5', from: 'messages', passthrough: false, stream: false });
    expect(body.messages[1]).toEqual({ role: 'assistant', content: '<think>Greet back.</think>\n\nHello.' });
  });

  it('a long passthrough conversation without reasoning fields stays unparsed; one with them is edited in place', () => {
    const long = { role: 'user', content: 'x'.repeat(LAZY_MEMBER_BYTES) };
    const plain = Buffer.from(JSON.stringify({ model: 'MiniMax-M2', messages: [long, { role: 'assistant', content: '<think>t</think>\n\nhi' }] }));
    const untouched = lazyJsonBody(plain, scanTopLevelMembers(plain)!);
    localAdapter.finalizeBody(untouched, { model: 'MiniMax-M2', from: 'chat', passthrough: true, stream: false });
    expect(unparsedMember(untouched, 'messages')).toBeDefined();

    const raw = Buffer.from(JSON.stringify({ model: 'MiniMax-M2', messages: [long, { role: 'assistant', content: 'hi', reasoning_content: 't' }], padding: 'p'.repeat(16 * 1024) }));
    const members = scanTopLevelMembers(raw)!;
    const { bytes } = editJsonBody(raw, lazyJsonBody(raw, members), () => JSON.parse(raw.toString('utf8')) as Record<string, unknown>, (b) =>
      localAdapter.finalizeBody(b, { model: 'MiniMax-M2', from: 'chat', passthrough: true, stream: false }), members);
    const sent = JSON.parse(bytes.toString()) as { messages: Array<Record<string, unknown>> };
    expect(sent.messages[1]).toEqual({ role: 'assistant', content: '<think>t</think>\n\nhi' });
  });
});
