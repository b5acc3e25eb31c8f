import { describe, expect, it, vi } from 'vitest';
import { anthropicAdapter } from '../../src/providers/anthropic.js';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { customMessagesAdapter } from '../../src/providers/custom-messages.js';
import { geminiAdapter } from '../../src/providers/gemini.js';
import { localAdapter } from '../../src/providers/local.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { openrouterAdapter } from '../../src/providers/openrouter.js';
import { templateOpensThink } from '../../src/providers/think-prefill.js';

describe('templateOpensThink: model ids whose chat template ends the prompt with <think>', () => {
  it.each([
    'Qwen/Qwen3-30B-A3B-Thinking-2507',
    'qwen3-30b-a3b-thinking-2507',
    'unsloth/Qwen3-4B-Thinking-2507-GGUF',
    'qwen3:4b-thinking-2507-q8_0',
    'Qwen/QwQ-32B',
    'qwq:32b',
    'deepseek-ai/DeepSeek-R1',
    'DeepSeek-R1-Distill-Qwen-7B-Q4_K_M.gguf',
    'deepseek-r1:8b',
  ])('%s: yes', (model) => expect(templateOpensThink(model)).toBe(true));

  it.each([
    'Qwen/Qwen3-30B-A3B-Instruct-2507', // no thinking
    'Qwen/Qwen3-8B', // hybrid: the model writes <think> itself
    'qwen3-coder',
    'Qwen/QwQ-32B-Preview', // predates the tags
    'deepseek-chat',
    'deepseek-reasoner', // DeepSeek's API sends reasoning_content
    'MiniMax-M2', // writes <think> itself
    'llama3.1:8b',
  ])('%s: no', (model) => expect(templateOpensThink(model)).toBe(false));

  it('classifies a long crafted model id in linear time (no regex backtracking)', () => {
    const crafted = [`${'qwen3'.repeat(20_000)}`, `${'qwq'.repeat(30_000)}-preview`, `${'QwQ'.repeat(30_000)}x`];
    const start = performance.now();
    expect(crafted.map(templateOpensThink)).toEqual([false, false, true]);
    expect(performance.now() - start).toBeLessThan(1000);
  });
});

describe('decode options per adapter', () => {
  it.each([
    ['local', localAdapter],
    ['custom-a', customChatAdapter],
  ] as const)('%s: the Chat decoders start inside the think block for those families only', (_, adapter) => {
    expect(adapter.decodeOptions?.('qwen3-30b-a3b-thinking-2507')).toEqual({ startsInsideThink: true });
    expect(adapter.decodeOptions?.('qwen3-coder')).toBeUndefined();
  });

  it.each([
    ['openai', openaiAdapter],
    ['openrouter', openrouterAdapter],
    ['gemini', geminiAdapter],
    ['anthropic', anthropicAdapter],
    ['custom-b', customMessagesAdapter],
  ] as const)('%s: no think prefill (its API sends reasoning in fields of its own)', (_, adapter) => {
    expect(adapter.decodeOptions?.('qwen3-30b-a3b-thinking-2507')?.startsInsideThink).toBeUndefined();
  });

  it("gemini: the decoders count an error's wait from the clock (its per-day quota resets at midnight Pacific)", () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-03-10T12:00:00Z'));
      expect(geminiAdapter.decodeOptions?.('gemini-2.5-flash')?.now?.()).toBe(Date.parse('2026-03-10T12:00:00Z'));
    } finally {
      vi.useRealTimers();
    }
    expect(openaiAdapter.decodeOptions?.('gpt-5.4')?.now).toBeUndefined();
  });
});
