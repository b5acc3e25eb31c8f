import { describe, expect, it } from 'vitest';
import { askedOutput, capOutput, outputFitFrom } from '../../src/routing/output-caps.js';

describe('outputFitFrom', () => {
  it.each([
    ['DeepSeek', 'Invalid max_tokens value, the valid range of max_tokens is [1, 8192]', 32000, { cap: 8192, modelLimit: true }],
    ['OpenAI', 'max_tokens is too large: 32000. This model supports at most 16384 completion tokens, whereas you provided 32000.', 32000, { cap: 16384, modelLimit: true }],
    [
      'OpenAI Responses',
      'max_output_tokens is too large: 64000. This model supports at most 32768 output tokens, whereas you provided 64000.',
      64000,
      { cap: 32768, modelLimit: true },
    ],
    ['Groq', '`max_tokens` must be less than or equal to `8192`, the maximum value for `max_tokens` is less than the `context_window` for this model', 32000, { cap: 8192, modelLimit: true }],
    [
      'Gemini',
      'Unable to submit request because it has a maxOutputTokens value of 32000 but the supported range is from 1 (inclusive) to 8193 (exclusive). Update the value and try again.',
      32000,
      { cap: 8192, modelLimit: true },
    ],
    ['Anthropic wording', 'max_tokens: 64000 > 32000, which is the maximum allowed number of output tokens for claude-x', 64000, { cap: 32000, modelLimit: true }],
    [
      'OpenAI-style context',
      "This model's maximum context length is 131072 tokens. However, you requested 155137 tokens (123137 in the messages, 32000 in the completion). Please reduce the length of the messages or completion.",
      32000,
      { cap: 7935, modelLimit: false },
    ],
    [
      'vLLM context',
      "'max_tokens' or 'max_completion_tokens' is too large: 32000. This model's maximum context length is 32768 tokens and your request has 1200 input tokens (32000 > 32768 - 1200).",
      32000,
      { cap: 31568, modelLimit: false },
    ],
    [
      'Anthropic context',
      'input length and `max_tokens` exceed context limit: 188162 + 32000 > 200000, decrease input length or `max_tokens` and try again',
      32000,
      { cap: 11838, modelLimit: false },
    ],
  ])('%s', (_, message, asked, fit) => {
    expect(outputFitFrom(message, asked)).toEqual(fit);
  });

  it('nothing to fit: another error, a limit not below what was asked, or no room left for an answer', () => {
    expect(outputFitFrom('Invalid API key', 32000)).toBeUndefined();
    expect(outputFitFrom('the valid range of max_tokens is [1, 8192]', 8000)).toBeUndefined();
    expect(outputFitFrom("maximum context length is 16384 tokens and your request has 16000 input tokens (32000 > 16384 - 16000).", 32000)).toBeUndefined();
    // a small request that fits the room left is still sent again
    expect(outputFitFrom("maximum context length is 4096 tokens and your request has 3500 input tokens (800 > 4096 - 3500).", 800)).toEqual({ cap: 596, modelLimit: false });
  });
});

describe('a Chat body’s allowance', () => {
  it('is the larger field set, and capping lowers only what is over', () => {
    const body: Record<string, unknown> = { max_tokens: 32000, max_completion_tokens: 500 };
    expect(askedOutput(body)).toBe(32000);
    capOutput(body, 8192);
    expect(body).toEqual({ max_tokens: 8192, max_completion_tokens: 500 });
    expect(askedOutput({})).toBeUndefined();
  });
});
