import { describe, expect, it } from 'vitest';
import { effortLevelsFrom } from '../../src/routing/effort-refusal.js';

describe('effortLevelsFrom', () => {
  it("reads the levels OpenAI lists for the model, keeping those the hub knows", () => {
    const gpt51 = "Unsupported value: 'minimal' is not supported with the 'gpt-5.1' model. Supported values are: 'none', 'low', 'medium', and 'high'.";
    expect(effortLevelsFrom(gpt51, 'minimal')).toEqual(['none', 'low', 'medium', 'high']);
    const pro = "openai: Unsupported value: 'medium' is not supported with the 'gpt-5-pro' model. Supported values are: 'high'.";
    expect(effortLevelsFrom(pro, 'medium')).toEqual(['high']);
  });

  it("reads vLLM's and SGLang's pydantic refusal, and a bracketed list", () => {
    const vllm =
      "1 validation error:\n  {'type': 'literal_error', 'loc': ('body', 'reasoning_effort'), 'msg': \"Input should be 'low', 'medium' or 'high'\", 'input': 'xhigh', 'ctx': {'expected': \"'low', 'medium' or 'high'\"}}\n\n  File \"/usr/local/lib/python3.12/dist-packages/vllm/entrypoints/utils.py\", line 34";
    expect(effortLevelsFrom(vllm, 'xhigh')).toEqual(['low', 'medium', 'high']);
    expect(effortLevelsFrom(vllm.replace("'input': 'xhigh'", "'input': 'max'"), 'max')).toEqual(['low', 'medium', 'high']);
    const bracketed = "Unsupported thinking_effort='minimal'; supported values are ['high', 'low', 'max'].";
    expect(effortLevelsFrom(bracketed.replace("'minimal'", "'medium'"), 'medium')).toEqual(['high', 'low', 'max']);
  });

  it("reads Ollama's refusal of a level its OpenAI layer does not know, whatever the model", () => {
    const ollama = 'invalid reasoning value: \'max\' (must be "high", "medium", "low", or "none")';
    expect(effortLevelsFrom(ollama, 'max')).toEqual(['high', 'medium', 'low', 'none']);
    expect(effortLevelsFrom(ollama, 'xhigh'), 'another value was sent').toBeUndefined();
  });

  it('is no such refusal when another value or parameter is meant, the list has the value sent, or nothing usable', () => {
    const temperature = "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.";
    expect(effortLevelsFrom(temperature, 'medium')).toBeUndefined();
    const other = "Unsupported value: 'auto' is not supported with the 'x' model. Supported values are: 'required', 'none'.";
    expect(effortLevelsFrom(other, 'medium')).toBeUndefined();
    const toolChoice = "{'type': 'literal_error', 'loc': ('body', 'tool_choice'), 'msg': \"Input should be 'none', 'auto' or 'required'\", 'input': 'high'}";
    expect(effortLevelsFrom(toolChoice, 'high'), 'not about effort').toBeUndefined();
    const generic = "Invalid value: 'max'. Supported values are: 'none', 'minimal', 'low', 'medium', 'high', and 'xhigh'.";
    expect(effortLevelsFrom(generic, 'max'), 'names neither the model nor the effort').toBeUndefined();
    expect(effortLevelsFrom("Unsupported value: 'high' is not supported with the 'm' model. Supported values are: 'high'.", 'high')).toBeUndefined();
    expect(effortLevelsFrom("Unsupported value: 'high' is not supported with the 'm' model. Supported values are: 'fast', 'slow'.", 'high')).toBeUndefined();
  });
});
