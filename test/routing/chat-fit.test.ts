import { describe, expect, it } from 'vitest';
import { fitChatBody, learnFromRefusal, type ChatFit } from '../../src/routing/chat-fit.js';
import { UpstreamFits } from '../../src/routing/upstream-fits.js';

describe('UpstreamFits', () => {
  it('limits are kept per provider and model, the least recent dropped first', () => {
    const caps = new UpstreamFits(2);
    caps.setOutputLimit('ca', 'deepseek-chat', 8192);
    caps.setOutputLimit('lm', 'x', 4096);
    caps.setOutputLimit('ca', 'y', 100);
    expect(caps.outputLimit('ca', 'deepseek-chat')).toBeUndefined();
    expect(caps.outputLimit('lm', 'x')).toBe(4096);
    expect(caps.outputLimit('ca', 'y')).toBe(100);
    expect(caps.outputLimit('or', 'x')).toBeUndefined();
  });

  it('endpoints that refused are remembered, bounded', () => {
    const refusers = new UpstreamFits(2);
    refusers.setRefusesReasoning('groq');
    refusers.setRefusesReasoning('cerebras');
    refusers.setRefusesReasoning('other');
    expect(refusers.refusesReasoning('groq')).toBe(false);
    expect(refusers.refusesReasoning('cerebras')).toBe(true);
    expect(refusers.refusesReasoning('other')).toBe(true);
  });
});

describe('fitting a request from its refusals', () => {
  const history = () => ({ max_tokens: 32000, messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: 'a', reasoning: 'r' }] });

  it('a stated model limit holds for later requests; a reasoning refusal for the endpoint', () => {
    const fits = new UpstreamFits();
    const fit: ChatFit = {};
    const sent = fitChatBody(fits, 'ca', 'deepseek-chat', history(), undefined);
    expect(sent).toMatchObject({ outputAsked: 32000, reasoningStripped: false });
    expect(sent).not.toHaveProperty('droppedParams');
    expect(learnFromRefusal(fits, 'ca', 'deepseek-chat', 'the valid range of max_tokens is [1, 8192]', sent, fit)).toBe('output');
    expect(learnFromRefusal(fits, 'ca', 'deepseek-chat', "property 'reasoning' is unsupported", sent, fit)).toBe('reasoning');
    expect(learnFromRefusal(fits, 'ca', 'deepseek-chat', 'Invalid API key', sent, fit)).toBeUndefined();
    expect(fit).toEqual({ outputCap: 8192, noReasoning: true });

    const later = history();
    expect(fitChatBody(fits, 'ca', 'deepseek-chat', later, undefined)).toMatchObject({ outputAsked: 8192, reasoningStripped: true });
    expect(later.messages[1]).toEqual({ role: 'assistant', content: 'a' });
  });

  it('a refused parameter: this request goes without it, and so do later ones to that model only', () => {
    const fits = new UpstreamFits();
    const fit: ChatFit = {};
    const body = () => ({ model: 'grok-4', reasoning_effort: 'high', stream_options: { include_usage: true }, messages: [{ role: 'user', content: 'q' }] });
    const sent = fitChatBody(fits, 'ca', 'grok-4', body(), undefined);
    expect(learnFromRefusal(fits, 'ca', 'grok-4', 'ca: Model grok-4 does not support parameter reasoningEffort.', sent, fit)).toBe('params');
    expect(fit).toEqual({ withoutParams: ['reasoning_effort'] });
    const again = body();
    expect(fitChatBody(fits, 'ca', 'grok-4', again, fit).droppedParams).toEqual(['reasoning_effort']);
    expect(again).not.toHaveProperty('reasoning_effort');
    expect(again).toHaveProperty('stream_options');
    expect(fitChatBody(fits, 'ca', 'grok-4', body(), undefined).droppedParams, 'remembered').toEqual(['reasoning_effort']);
    expect(fitChatBody(fits, 'ca', 'grok-3', body(), undefined).droppedParams, 'another model').toBeUndefined();
  });
});
