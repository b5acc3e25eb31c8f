/** Which Chat targets get a mid-conversation system message in place, and through which adapter. */
import { describe, expect, it, vi } from 'vitest';
import { customChatAdapter } from '../../src/providers/custom-chat.js';
import { geminiAdapter } from '../../src/providers/gemini.js';
import { localAdapter } from '../../src/providers/local.js';
import { openrouterAdapter } from '../../src/providers/openrouter.js';
import { keepsSystemInPlace } from '../../src/providers/system-in-place.js';

describe('keepsSystemInPlace', () => {
  it('most models yes; Mistral (refuses a system turn after an assistant) and Gemini (keeps only the last system message) no', () => {
    expect(['anthropic/claude-sonnet-4.5', 'qwen3-coder', 'llama3.1:8b', 'openai/gpt-5.4'].map(keepsSystemInPlace)).toEqual([true, true, true, true]);
    expect(['mistralai/devstral-medium', 'mistral-large-latest', 'google/gemini-2.5-pro', 'gemini-2.5-flash'].map(keepsSystemInPlace)).toEqual([false, false, false, false]);
  });

  it('openrouter, custom (a) and local adapters ask for it by model; gemini never', () => {
    for (const adapter of [openrouterAdapter, customChatAdapter, localAdapter]) {
      expect(adapter.encodeOptions('qwen/qwen3-coder').systemInPlace, adapter.kind).toBe(true);
      expect(adapter.encodeOptions('google/gemini-2.5-flash').systemInPlace, adapter.kind).toBe(false);
    }
    expect(geminiAdapter.encodeOptions('gemini-2.5-flash').systemInPlace).toBeUndefined();
  });
});

describe('keepsSystemInPlace, asked on every Chat request', () => {
  it('tests a model id once, then answers from memory', () => {
    expect(keepsSystemInPlace('memo-check-model')).toBe(true);
    const test = vi.spyOn(RegExp.prototype, 'test');
    try {
      expect(keepsSystemInPlace('memo-check-model')).toBe(true);
      expect(test).not.toHaveBeenCalled();
    } finally {
      test.mockRestore();
    }
  });
});
