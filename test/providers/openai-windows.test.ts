import { describe, expect, it } from 'vitest';
import { openaiInputWindow } from '../../src/providers/openai-windows.js';

describe('openaiInputWindow: the input OpenAI takes, its documented window less its max output', () => {
  it('GPT-5 mini, nano and codex: 400,000 less 128,000 (the 272,000 the gpt-5-nano page states), dated snapshots alike', () => {
    for (const id of ['gpt-5-mini', 'gpt-5-mini-2025-08-07', 'gpt-5-nano', 'gpt-5-nano-2025-08-07', 'gpt-5-codex', 'GPT-5-Mini']) {
      expect(openaiInputWindow(id), id).toBe(272_000);
    }
  });

  it('gpt-5-pro keeps most of its window for output; the 1,050,000-token models take 922,000', () => {
    expect(openaiInputWindow('gpt-5-pro')).toBe(128_000);
    expect(openaiInputWindow('gpt-5-pro-2025-10-06')).toBe(128_000);
    expect(openaiInputWindow('gpt-5.4-pro-2026-03-05')).toBe(922_000);
    expect(openaiInputWindow('gpt-5.6-luna')).toBe(922_000);
  });

  it('a model whose page was not read, or an id that only starts like a known one, stays unknown', () => {
    for (const id of ['gpt-5', 'gpt-5.4', 'gpt-5.4-mini', 'gpt-4.1', 'o3', 'gpt-5-mini-tts', 'gpt-5-mini-2025-08', 'my-gpt-5-mini']) {
      expect(openaiInputWindow(id), id).toBeUndefined();
    }
  });
});
