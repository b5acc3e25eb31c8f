import { describe, expect, it } from 'vitest';
import { deepSeekThinks, fillReasoningContent } from '../../src/providers/deepseek-reasoning.js';

describe('fillReasoningContent', () => {
  it('gives every assistant message of a DeepSeek conversation a reasoning_content', () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'a' },
        { role: 'assistant', content: null, reasoning: 'plain thought', tool_calls: [] },
        { role: 'assistant', content: 'kept', reasoning_content: 'its own' },
        { role: 'tool', tool_call_id: 'x', content: 'r' },
      ],
    };
    fillReasoningContent(body, 'deepseek-reasoner');
    expect(body.messages.map((m) => (m as { reasoning_content?: string }).reasoning_content)).toEqual([undefined, '', 'plain thought', 'its own', undefined]);
  });

  it('leaves other models, and DeepSeek not asked to think, alone', () => {
    for (const model of ['qwen3-coder', 'deepseek-chat']) {
      const body = { messages: [{ role: 'assistant', content: 'a' }] };
      fillReasoningContent(body, model);
      expect(body.messages[0]).toEqual({ role: 'assistant', content: 'a' });
    }
  });

  it.each([
    ['deepseek-reasoner', {}, true],
    ['deepseek-r1', {}, true],
    ['deepseek-ai/DeepSeek-R1-0528', {}, true],
    ['deepseek-r1:8b', {}, true],
    ['deepseek-chat', { thinking: { type: 'enabled' } }, true],
    ['deepseek-ai/DeepSeek-V3.2', { reasoning_effort: 'high' }, true],
    ['deepseek-ai/DeepSeek-V3.2', { reasoning_effort: 'none' }, false],
    ['deepseek-chat', {}, false],
    ['deepseek-r10x', {}, false],
    ['qwen3-r1', {}, false],
  ])('%s with %j thinks: %s', (model, body, expected) => {
    expect(deepSeekThinks(body, model)).toBe(expected);
  });
});
