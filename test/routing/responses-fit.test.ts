import { describe, expect, it } from 'vitest';
import { fitResponsesBody } from '../../src/routing/responses-fit.js';
import { UpstreamFits } from '../../src/routing/upstream-fits.js';

describe('fitResponsesBody', () => {
  it('applies what this request learnt, else the limit remembered for the model, and reports what it asks', () => {
    const fits = new UpstreamFits();
    const fresh = { model: 'gpt-4.1', max_output_tokens: 64_000 };
    expect(fitResponsesBody(fits, 'openai', 'gpt-4.1', fresh, undefined)).toMatchObject({ outputAsked: 64_000 });
    expect(fresh.max_output_tokens).toBe(64_000);

    const learnt = { max_output_tokens: 64_000 };
    expect(fitResponsesBody(fits, 'openai', 'gpt-4.1', learnt, { outputCap: 32_768 })).toMatchObject({ outputAsked: 32_768 });
    expect(learnt.max_output_tokens).toBe(32_768);

    fits.setOutputLimit('openai', 'gpt-4.1', 32_768);
    expect(fitResponsesBody(fits, 'openai', 'gpt-4.1', { max_output_tokens: 64_000 }, undefined)).toMatchObject({ outputAsked: 32_768 });
    expect(fitResponsesBody(fits, 'openai', 'o3', { max_output_tokens: 64_000 }, undefined)).toMatchObject({ outputAsked: 64_000 });
  });

  it('leaves an allowance within the limit, and a body without one, as they are', () => {
    const fits = new UpstreamFits();
    fits.setOutputLimit('openai', 'gpt-4.1', 32_768);
    const within = { max_output_tokens: 1000 };
    expect(fitResponsesBody(fits, 'openai', 'gpt-4.1', within, undefined)).toMatchObject({ outputAsked: 1000 });
    expect(within).toEqual({ max_output_tokens: 1000 });
    const none = { input: 'Hi' };
    const fitted = fitResponsesBody(fits, 'openai', 'gpt-4.1', none, undefined);
    expect(fitted).not.toHaveProperty('outputAsked');
    expect(none).toEqual({ input: 'Hi' });
  });
});
