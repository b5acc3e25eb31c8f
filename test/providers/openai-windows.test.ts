import { describe, expect, it } from 'vitest';
import { openaiDocumentedLimits, openaiInputWindow } from '../../src/providers/openai-windows.js';

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

  it('the most used models, from gateway and vendor pages that agree: GPT-5, 5.1, 5.2, 5.4, 4.1, 4o, o3, o4-mini', () => {
    for (const id of ['gpt-5', 'gpt-5-2025-08-07', 'gpt-5.1', 'gpt-5.1-2025-11-13', 'gpt-5.2', 'gpt-5.2-2025-12-11']) expect(openaiInputWindow(id), id).toBe(272_000);
    expect(openaiInputWindow('gpt-5.4')).toBe(922_000);
    expect(openaiInputWindow('gpt-5.4-2026-03-05')).toBe(922_000);
    for (const id of ['gpt-4.1', 'gpt-4.1-2025-04-14', 'gpt-4.1-mini']) expect(openaiInputWindow(id), id).toBe(1_047_576 - 32_768);
    for (const id of ['gpt-4o', 'gpt-4o-2024-08-06', 'gpt-4o-2024-11-20', 'gpt-4o-mini', 'gpt-4o-mini-2024-07-18']) expect(openaiInputWindow(id), id).toBe(128_000 - 16_384);
    for (const id of ['o3', 'o3-2025-04-16', 'o4-mini', 'o4-mini-2025-04-16']) expect(openaiInputWindow(id), id).toBe(100_000);
  });

  it('a model the pages disagree on, one only a single page states, or an id that only starts like a known one, stays unknown', () => {
    const unknown = ['gpt-5.5', 'gpt-5.4-mini', 'gpt-5.1-codex', 'gpt-5.2-codex', 'gpt-4.1-nano', 'gpt-4o-2024-05-13', 'o3-mini', 'o3-pro'];
    for (const id of [...unknown, 'gpt-5-mini-tts', 'gpt-5-mini-2025-08', 'my-gpt-5-mini', 'gpt-5.10', 'gpt-4o-audio-preview']) {
      expect(openaiInputWindow(id), id).toBeUndefined();
    }
  });
});

describe('openaiDocumentedLimits: the window and max output as the pages state them', () => {
  it('gives both figures, for the tools that take a max output (opencode, Crush, Continue)', () => {
    expect(openaiDocumentedLimits('gpt-5')).toMatchObject({ contextWindow: 400_000, maxOutput: 128_000 });
    expect(openaiDocumentedLimits('gpt-5-pro')).toMatchObject({ contextWindow: 400_000, maxOutput: 272_000 });
    expect(openaiDocumentedLimits('gpt-4o-mini')).toMatchObject({ contextWindow: 128_000, maxOutput: 16_384 });
    expect(openaiDocumentedLimits('gpt-5.5')).toBeUndefined();
  });
});
