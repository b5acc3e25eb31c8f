import { describe, expect, it } from 'vitest';
import { fillKimiReasoningContent, kimiThinks } from '../../src/providers/kimi-reasoning.js';

const call = { id: 'get_weather:0', type: 'function', function: { name: 'get_weather', arguments: '{}' } };

describe('fillKimiReasoningContent', () => {
  it('gives each assistant tool call message a non-empty reasoning_content, its own text first', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'plain answer' },
        { role: 'assistant', content: null, tool_calls: [call] },
        { role: 'assistant', content: null, reasoning_content: '', tool_calls: [call] },
        { role: 'assistant', content: null, reasoning: 'plain thought', tool_calls: [call] },
        { role: 'assistant', content: null, reasoning_content: 'its own', tool_calls: [call] },
        { role: 'assistant', content: 'no calls', tool_calls: [] },
        { role: 'tool', tool_call_id: 'get_weather:0', content: 'r' },
      ],
    };
    fillKimiReasoningContent(body, 'kimi-k2.6');
    expect(body.messages.map((m) => (m as { reasoning_content?: string }).reasoning_content)).toEqual([undefined, undefined, ' ', ' ', 'plain thought', 'its own', undefined, undefined]);
  });

  it('leaves other models, and Kimi with thinking off, alone', () => {
    for (const [model, extra] of [
      ['deepseek-chat', {}],
      ['kimi-k2-0905-preview', {}],
      ['kimi-k2.6', { thinking: { type: 'disabled' } }],
    ] as const) {
      const body = { ...extra, messages: [{ role: 'assistant', content: null, tool_calls: [call] }] };
      fillKimiReasoningContent(body, model);
      expect(body.messages[0]).not.toHaveProperty('reasoning_content');
    }
  });

  it.each([
    ['kimi-k2.6', {}, true],
    ['kimi-k2.5', {}, true],
    ['moonshotai/Kimi-K2.5', {}, true],
    ['moonshotai/kimi-k2.6:nitro', {}, true],
    ['k2p5', {}, true],
    ['kimi-k2-thinking', {}, true],
    ['kimi-k2-thinking-turbo', {}, true],
    ['kimi-k3', {}, true],
    ['kimi-k2-0905-preview', {}, false],
    ['kimi-k2-0905-preview', { thinking: { type: 'enabled' } }, true],
    ['kimi-k2-turbo-preview', {}, false],
    ['kimi-k2.6', { thinking: { type: 'disabled' } }, false],
    ['qwen3-coder', { thinking: { type: 'enabled' } }, false],
  ])('%s with %j thinks: %s', (model, body, expected) => {
    expect(kimiThinks(body, model)).toBe(expected);
  });
});
