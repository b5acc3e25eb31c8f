import { describe, expect, it } from 'vitest';
import { capMessagesOutput, fitMessagesBody } from '../../src/routing/messages-fit.js';
import { UpstreamFits } from '../../src/routing/upstream-fits.js';

describe('capMessagesOutput', () => {
  it('lowers max_tokens only when over, and keeps a thinking budget below it', () => {
    const under = { max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 3000 } };
    capMessagesOutput(under, 8192);
    expect(under).toEqual({ max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 3000 } });

    const budgetFits = { max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 10_000 } };
    capMessagesOutput(budgetFits, 32_000);
    expect(budgetFits).toEqual({ max_tokens: 32_000, thinking: { type: 'enabled', budget_tokens: 10_000 } });

    const budgetOver = { max_tokens: 128_000, thinking: { type: 'enabled', budget_tokens: 127_999, display: 'summarized' } };
    capMessagesOutput(budgetOver, 64_000);
    expect(budgetOver).toEqual({ max_tokens: 64_000, thinking: { type: 'enabled', budget_tokens: 63_999, display: 'summarized' } });

    const adaptive = { max_tokens: 128_000, thinking: { type: 'adaptive' } };
    capMessagesOutput(adaptive, 64_000);
    expect(adaptive).toEqual({ max_tokens: 64_000, thinking: { type: 'adaptive' } });
  });

  it('turns thinking off when no budget Anthropic takes (1,024 or more) fits under the limit', () => {
    const body: Record<string, unknown> = { max_tokens: 4000, thinking: { type: 'enabled', budget_tokens: 2000 } };
    capMessagesOutput(body, 1000);
    expect(body).toEqual({ max_tokens: 1000 });
  });
});

describe('fitMessagesBody', () => {
  it('applies what this request learnt, else the limit remembered for the model, and reports what it asks', () => {
    const fits = new UpstreamFits();
    const fresh = { model: 'm', max_tokens: 32_000 };
    expect(fitMessagesBody(fits, 'cb', 'm', fresh, undefined)).toMatchObject({ outputAsked: 32_000 });
    expect(fresh.max_tokens).toBe(32_000);

    expect(fitMessagesBody(fits, 'cb', 'm', { max_tokens: 32_000 }, { outputCap: 8192 })).toMatchObject({ outputAsked: 8192 });
    fits.setOutputLimit('cb', 'm', 16_384);
    const later = { max_tokens: 32_000 };
    expect(fitMessagesBody(fits, 'cb', 'm', later, undefined)).toMatchObject({ outputAsked: 16_384 });
    expect(fitMessagesBody(fits, 'cb', 'other', { max_tokens: 32_000 }, undefined)).toMatchObject({ outputAsked: 32_000 });
  });
});
