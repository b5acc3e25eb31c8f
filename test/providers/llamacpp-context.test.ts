import { describe, expect, it } from 'vitest';
import { isLlamaCppEntry, propsUrl, slotContext } from '../../src/providers/llamacpp-context.js';

describe('llama.cpp context', () => {
  it('finds /props beside the /v1 the list came from, behind a path prefix too', () => {
    expect(propsUrl('http://127.0.0.1:8080/v1/models')).toBe('http://127.0.0.1:8080/props');
    expect(propsUrl('http://box.lan/llama/v1/models')).toBe('http://box.lan/llama/props');
    expect(propsUrl('http://box.lan/api/models')).toBeUndefined();
  });

  it('reads the slot context; anything else is no answer', () => {
    expect(slotContext({ default_generation_settings: { n_ctx: 8192 } })).toBe(8192);
    for (const bad of [{}, { default_generation_settings: null }, { default_generation_settings: { n_ctx: 0 } }, { default_generation_settings: { n_ctx: '8192' } }]) {
      expect(slotContext(bad as Record<string, unknown>)).toBeUndefined();
    }
    expect(isLlamaCppEntry({ id: 'm', owned_by: 'llamacpp' })).toBe(true);
    expect(isLlamaCppEntry({ id: 'm', owned_by: 'library' })).toBe(false);
  });
});
