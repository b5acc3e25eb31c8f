import { describe, expect, it } from 'vitest';
import type { Item } from '../../src/protocols/hub.js';
import { dropForeignChatReasoning, dropForeignThinking, ProofIssuers, recordMessagesAnswer, remembersSignatures, withoutForeignProof } from '../../src/routing/proof-issuers.js';

describe('ProofIssuers', () => {
  it('knows a signature as another provider’s only once it was recorded for one', () => {
    const issuers = new ProofIssuers();
    expect(issuers.foreignTo('sig', 'anthropic')).toBe(false);
    issuers.record('sig', 'glm');
    expect(issuers.foreignTo('sig', 'anthropic')).toBe(true);
    expect(issuers.foreignTo('sig', 'glm')).toBe(false);
    expect(issuers.foreignTo('other', 'anthropic')).toBe(false);
    issuers.record('', 'glm');
    expect(issuers.size).toBe(1);
  });

  it('stays bounded, forgetting the least recently recorded first', () => {
    const issuers = new ProofIssuers(3);
    for (const s of ['a', 'b', 'c']) issuers.record(s, 'glm');
    issuers.record('a', 'glm'); // refreshed
    issuers.record('d', 'glm');
    expect(issuers.size).toBe(3);
    expect(issuers.foreignTo('b', 'anthropic')).toBe(false);
    expect(['a', 'c', 'd'].every((s) => issuers.foreignTo(s, 'anthropic'))).toBe(true);
  });

  it('remembers custom Messages endpoints only, never Anthropic itself or a Chat provider', () => {
    expect(remembersSignatures({ kind: 'custom-b', dialect: 'messages' })).toBe(true);
    expect(remembersSignatures({ kind: 'anthropic', dialect: 'messages' })).toBe(false);
    expect(remembersSignatures({ kind: 'openrouter', dialect: 'chat' })).toBe(false);
  });
});

describe('dropForeignThinking (Messages passthrough)', () => {
  it('removes only the blocks another provider signed, and turns left empty', () => {
    const issuers = new ProofIssuers();
    recordMessagesAnswer(issuers, 'glm', { content: [{ type: 'thinking', thinking: 't', signature: 'GLM1' }, { type: 'text', text: 'x' }] });
    recordMessagesAnswer(issuers, 'glm', { content: [{ type: 'thinking', thinking: 't', signature: 'GLM2' }] });
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'claude', signature: 'ANT' }, { type: 'text', text: 'a' }] },
        { role: 'user', content: 'q2' },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'glm', signature: 'GLM1' }, { type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
        { role: 'assistant', content: [{ type: 'thinking', thinking: 'glm', signature: 'GLM2' }] },
        { role: 'user', content: 'q3' },
      ],
    };
    expect(dropForeignThinking(body, issuers, 'glm')).toBe(false);
    expect(dropForeignThinking(body, issuers, 'anthropic')).toBe(true);
    expect(body.messages).toEqual([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [{ type: 'thinking', thinking: 'claude', signature: 'ANT' }, { type: 'text', text: 'a' }] },
      { role: 'user', content: 'q2' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }] },
      { role: 'user', content: 'q3' },
    ]);
  });

  it('does nothing while no signature is known', () => {
    const body = { messages: [{ role: 'assistant', content: [{ type: 'thinking', thinking: 't', signature: 'S' }] }] };
    expect(dropForeignThinking(body, new ProofIssuers(), 'anthropic')).toBe(false);
  });
});

describe('withoutForeignProof (conversion to a Messages target)', () => {
  it('leaves the list itself when nothing is foreign, and filters a copy otherwise', () => {
    const issuers = new ProofIssuers();
    const items: Item[] = [
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'q' }] },
      { type: 'reasoning', text: 'glm', origin: { kind: 'anthropic', signature: 'GLM' } },
      { type: 'reasoning', text: 'claude', origin: { kind: 'anthropic', signature: 'ANT' } },
      { type: 'reasoning', text: 'local', origin: { kind: 'unsigned' } },
    ];
    expect(withoutForeignProof(items, issuers, 'anthropic')).toBe(items);
    issuers.record('GLM', 'glm');
    expect(withoutForeignProof(items, issuers, 'glm')).toBe(items);
    const out = withoutForeignProof(items, issuers, 'anthropic');
    expect(out.map((i) => (i.type === 'reasoning' ? i.text : i.type))).toEqual(['message', 'claude', 'local']);
    expect(items).toHaveLength(4);
  });
});

describe('dropForeignChatReasoning (Chat passthrough)', () => {
  it('removes the reasoning_details and thinking_blocks entries another provider signed, keeping the text', () => {
    const issuers = new ProofIssuers();
    issuers.record('GLM', 'glm');
    const glmDetail = { type: 'reasoning.text', text: 'glm', signature: 'GLM', format: 'anthropic-claude-v1', index: 0 };
    const ownDetail = { type: 'reasoning.text', text: 'or', signature: 'OR', format: 'anthropic-claude-v1', index: 1 };
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, reasoning_content: 'glm', reasoning_details: [glmDetail, ownDetail], thinking_blocks: [{ type: 'thinking', thinking: 'glm', signature: 'GLM' }] },
      ],
    };
    expect(dropForeignChatReasoning(body, issuers, 'glm')).toBe(false);
    expect(dropForeignChatReasoning(body, issuers, 'openrouter')).toBe(true);
    expect(body.messages[1]).toEqual({ role: 'assistant', content: null, reasoning_content: 'glm', reasoning_details: [ownDetail] });
  });
});
