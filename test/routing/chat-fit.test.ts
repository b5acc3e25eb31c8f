import { describe, expect, it } from 'vitest';
import { ChatUpstreamFits, fitChatBody, learnFromRefusal, type ChatFit } from '../../src/routing/chat-fit.js';

describe('ChatUpstreamFits', () => {
  it('limits are kept per provider and model, the least recent dropped first', () => {
    const caps = new ChatUpstreamFits(2);
    caps.setOutputLimit('ca', 'deepseek-chat', 8192);
    caps.setOutputLimit('lm', 'x', 4096);
    caps.setOutputLimit('ca', 'y', 100);
    expect(caps.outputLimit('ca', 'deepseek-chat')).toBeUndefined();
    expect(caps.outputLimit('lm', 'x')).toBe(4096);
    expect(caps.outputLimit('ca', 'y')).toBe(100);
    expect(caps.outputLimit('or', 'x')).toBeUndefined();
  });

  it('endpoints that refused are remembered, bounded', () => {
    const refusers = new ChatUpstreamFits(2);
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
    const fits = new ChatUpstreamFits();
    const fit: ChatFit = {};
    const sent = fitChatBody(fits, 'ca', 'deepseek-chat', history(), undefined);
    expect(sent).toEqual({ outputAsked: 32000, reasoningStripped: false });
    expect(learnFromRefusal(fits, 'ca', 'deepseek-chat', 'the valid range of max_tokens is [1, 8192]', sent, fit)).toBe('output');
    expect(learnFromRefusal(fits, 'ca', 'deepseek-chat', "property 'reasoning' is unsupported", sent, fit)).toBe('reasoning');
    expect(learnFromRefusal(fits, 'ca', 'deepseek-chat', 'Invalid API key', sent, fit)).toBeUndefined();
    expect(fit).toEqual({ outputCap: 8192, noReasoning: true });

    const later = history();
    expect(fitChatBody(fits, 'ca', 'deepseek-chat', later, undefined)).toEqual({ outputAsked: 8192, reasoningStripped: true });
    expect(later.messages[1]).toEqual({ role: 'assistant', content: 'a' });
  });
});
