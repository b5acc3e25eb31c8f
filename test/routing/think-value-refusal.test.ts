import { describe, expect, it } from 'vitest';
import { refusedThinkForm, thinkLevelsFrom } from '../../src/routing/think-value-refusal.js';

describe("Ollama's refusal of a think value", () => {
  it('tells a refused level from a refused boolean', () => {
    expect(refusedThinkForm('think value "medium" is not supported for this model')).toBe('level');
    expect(refusedThinkForm('think value "high" is not supported for this model')).toBe('level');
    expect(refusedThinkForm('think value "false" is not supported for this model')).toBe('boolean');
    expect(refusedThinkForm('think value true is not supported for this model')).toBe('boolean');
  });

  it('is nothing for other refusals', () => {
    expect(refusedThinkForm('"llama3.1:8b" does not support thinking')).toBeUndefined();
    expect(refusedThinkForm("invalid reasoning value: 'max' (must be \"high\", \"medium\", \"low\", or \"none\")")).toBeUndefined();
  });

  it('a refused boolean gives the levels gpt-oss takes; a refused level gives none', () => {
    expect(thinkLevelsFrom('think value "false" is not supported for this model')).toEqual(['low', 'medium', 'high']);
    expect(thinkLevelsFrom('think value "medium" is not supported for this model')).toBeUndefined();
  });
});
