import { describe, expect, it } from 'vitest';
import { effortLevelsFrom } from '../../src/routing/effort-refusal.js';

describe('effortLevelsFrom', () => {
  it("reads the levels OpenAI lists for the model, keeping those the hub knows", () => {
    const gpt51 = "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.";
    expect(effortLevelsFrom(gpt51, 'minimal')).toEqual(['none', 'low', 'medium', 'high']);
    const pro = "openai: Unsupported value: 'medium' is not supported with the 'gpt-5-pro' model. Supported values are: 'high'.";
    expect(effortLevelsFrom(pro, 'medium')).toEqual(['high']);
  });

  it('is no such refusal when another value is quoted, the list has the value sent, or nothing usable', () => {
    const temperature = "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.";
    expect(effortLevelsFrom(temperature, 'medium')).toBeUndefined();
    const other = "Unsupported value: 'auto' is not supported with the 'x' model. Supported values are: 'required', 'none'.";
    expect(effortLevelsFrom(other, 'medium')).toBeUndefined();
    const generic = "Invalid value: 'max'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', and 'xhigh'.";
    expect(effortLevelsFrom(generic, 'max')).toEqual(['none', 'low', 'medium', 'high', 'xhigh']);
    expect(effortLevelsFrom(generic, 'high')).toBeUndefined();
    expect(effortLevelsFrom("Unsupported value: 'high' is not supported with the 'm' model. Supported values are: 'high'.", 'high')).toBeUndefined();
    expect(effortLevelsFrom("Unsupported value: 'high' is not supported with the 'm' model. Supported values are: 'fast', 'slow'.", 'high')).toBeUndefined();
  });
});
