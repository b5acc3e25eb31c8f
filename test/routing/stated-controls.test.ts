/**
 * What Anthropic's model list states rules over what is read from the model's id once the daemon
 * has listed the provider: the effort levels (`capabilities.effort`: a level the model lacks is
 * snapped to the nearest it has, as OpenAI's are, and a model that takes none gets none, its
 * thinking kept) and how it thinks (`capabilities.thinking.types`: adaptive, or a budget). Before
 * any list, what the id says stands (a request never waits for a list).
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.js';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  // Sonnet 4.6's id reads as taking `max`; this list says it does not
  h.mocks.anthropic.models.push('claude-sonnet-4-6', 'claude-opus-4-6');
  h.mocks.anthropic.efforts['claude-sonnet-4-6'] = ['low', 'medium', 'high'];
  h.mocks.anthropic.efforts['claude-opus-4-6'] = [];
});
afterAll(async () => {
  await h.close();
});
beforeEach(() => h.reset());

const messages = () => new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
const chat = () => new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
const hello = [{ role: 'user' as const, content: 'hi' }];

function sent(): { effort: unknown; thinking: unknown } {
  const body = h.mocks.anthropic.lastGeneration().body as { output_config?: { effort?: unknown }; thinking?: unknown };
  return { effort: body.output_config?.effort, thinking: body.thinking };
}

describe('effort levels from Anthropic’s model list', () => {
  it('before the list is read the id’s levels stand; after it, a level the list says the model lacks is snapped to one it takes', async () => {
    await messages().messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 100, thinking: { type: 'adaptive' }, output_config: { effort: 'max' }, messages: hello });
    expect(sent().effort, 'not listed yet: the id says max').toBe('max');

    const listed = await chat().models.list();
    expect(listed.data.map((m) => m.id)).toContain('anthropic/claude-sonnet-4-6');

    await messages().messages.create({ model: 'anthropic/claude-sonnet-4-6', max_tokens: 100, thinking: { type: 'adaptive' }, output_config: { effort: 'max' }, messages: hello });
    expect(sent()).toEqual({ effort: 'high', thinking: { type: 'adaptive' } });
    // a converted request too: xhigh from a Chat client
    await chat().chat.completions.create({ model: 'anthropic/claude-sonnet-4-6', reasoning_effort: 'xhigh', messages: hello });
    expect(sent()).toEqual({ effort: 'high', thinking: { type: 'adaptive' } });
    // a level it takes goes as asked
    await chat().chat.completions.create({ model: 'anthropic/claude-sonnet-4-6', reasoning_effort: 'low', messages: hello });
    expect(sent().effort).toBe('low');
  });

  it('a model the list says takes no effort gets none, and still thinks', async () => {
    await chat().models.list();
    await chat().chat.completions.create({ model: 'anthropic/claude-opus-4-6', reasoning_effort: 'high', messages: hello });
    expect(sent()).toEqual({ effort: undefined, thinking: { type: 'adaptive' } });
    await messages().messages.create({ model: 'anthropic/claude-opus-4-6', max_tokens: 100, thinking: { type: 'adaptive' }, output_config: { effort: 'medium' }, messages: hello });
    expect(sent()).toEqual({ effort: undefined, thinking: { type: 'adaptive' } });
  });

  it('a model the list states nothing of keeps the levels of its id', async () => {
    await chat().models.list();
    await messages().messages.create({ model: 'anthropic/claude-opus-4-5', max_tokens: 100, output_config: { effort: 'max' }, messages: hello });
    expect(sent().effort, 'Opus 4.5 is not listed: its id says low to high').toBe('high');
  });
});

describe('thinking mode from Anthropic’s model list', () => {
  // a daemon of its own: the one above has listed already
  let own: Harness;
  beforeAll(async () => {
    own = await startHarness();
    // read from their ids as adaptive (a 4.7) and as budget (Haiku 4.5); this list says otherwise
    own.mocks.anthropic.models.push('claude-sonnet-4-7');
    own.mocks.anthropic.thinkingTypes['claude-sonnet-4-7'] = { adaptive: false, enabled: true };
    own.mocks.anthropic.thinkingTypes['claude-haiku-4-5'] = { adaptive: true, enabled: false };
    // read from its id as taking both; this list says adaptive only
    own.mocks.anthropic.models.push('claude-sonnet-4-6');
    own.mocks.anthropic.thinkingTypes['claude-sonnet-4-6'] = { adaptive: true, enabled: false };
  });
  afterAll(async () => {
    await own.close();
  });
  const ownChat = () => new OpenAI({ baseURL: own.a, apiKey: 'k', maxRetries: 0 });
  const ownMessages = () => new Anthropic({ baseURL: own.b, apiKey: 'k', maxRetries: 0 });
  const thinking = () => (own.mocks.anthropic.lastGeneration().body as { thinking?: unknown }).thinking;
  const effort = () => (own.mocks.anthropic.lastGeneration().body as { output_config?: { effort?: unknown } }).output_config?.effort;

  it('before the list is read the id’s mode stands (and a model that takes the other is refused, as Anthropic refuses it); after it, the mode the list states: a budget where it takes only enabled, adaptive where it takes adaptive', async () => {
    const refused = (model: string) => ownChat().chat.completions.create({ model, reasoning_effort: 'high', messages: hello }).then(() => undefined, (e: unknown) => e);
    expect(await refused('anthropic/claude-sonnet-4-7')).toMatchObject({ status: 400, message: expect.stringContaining('adaptive thinking is not supported on this model') });
    expect(thinking(), 'not listed yet: a 4.7 reads as adaptive').toEqual({ type: 'adaptive' });
    expect(await refused('anthropic/claude-haiku-4-5')).toMatchObject({ status: 400, message: expect.stringContaining('"thinking.type.enabled" is not supported for this model') });
    expect(thinking(), 'not listed yet: Haiku 4.5 reads as budget').toEqual({ type: 'enabled', budget_tokens: 4096 });

    await ownChat().models.list();
    await ownChat().chat.completions.create({ model: 'anthropic/claude-sonnet-4-7', reasoning_effort: 'high', messages: hello });
    expect(thinking()).toEqual({ type: 'enabled', budget_tokens: 4096 });
    await ownChat().chat.completions.create({ model: 'anthropic/claude-haiku-4-5', reasoning_effort: 'high', messages: hello });
    expect(thinking()).toEqual({ type: 'adaptive' });
  });

  it('after the list, adaptive thinking a Messages client asks without naming a level (Claude Code) goes as a budget to a model the list says takes only enabled', async () => {
    await ownChat().models.list();
    const own4 = new Anthropic({ baseURL: own.b, apiKey: 'k', maxRetries: 0 });
    await own4.messages.create({ model: 'anthropic/claude-sonnet-4-7', max_tokens: 100, thinking: { type: 'adaptive' }, messages: hello });
    expect(thinking()).toMatchObject({ type: 'enabled' });
  });

  it('a Messages client’s own thinking with no level is fitted to the mode the list states, not the id’s: Claude Code’s adaptive goes as sent to a Haiku 4.5 listed as adaptive only', async () => {
    await ownChat().models.list();
    await ownMessages().messages.create({ model: 'anthropic/claude-haiku-4-5', max_tokens: 8000, thinking: { type: 'adaptive', display: 'omitted' }, messages: hello });
    expect(thinking()).toEqual({ type: 'adaptive', display: 'omitted' });
  });

  it('a budget asked of a model that takes adaptive only goes as adaptive at the level the budget reaches: by its id (Opus 4.7), and by the list (a Sonnet 4.6 listed so)', async () => {
    const budget = (model: string) => ownMessages().messages.create({ model, max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4096 }, messages: hello });
    await budget('anthropic/claude-opus-4-7');
    expect(thinking()).toEqual({ type: 'adaptive' });
    expect(effort()).toBe('high');
    await ownChat().models.list();
    await budget('anthropic/claude-sonnet-4-6');
    expect(thinking()).toEqual({ type: 'adaptive' });
    expect(effort()).toBe('high');
  });
  it('adaptive or a budget the model refuses goes at the level the client named, by output_config.effort or reasoning_effort', async () => {
    const send = (body: Record<string, unknown>) =>
      fetch(`${own.b}/v1/messages`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ max_tokens: 8000, messages: hello, ...body }) });
    expect((await send({ model: 'anthropic/claude-sonnet-4-5', thinking: { type: 'adaptive' }, reasoning_effort: 'low' })).status).toBe(200);
    expect(thinking(), 'Sonnet 4.5 takes a budget: low’s').toEqual({ type: 'enabled', budget_tokens: 1024 });
    expect((await send({ model: 'anthropic/claude-opus-4-7', thinking: { type: 'enabled', budget_tokens: 16384 }, reasoning_effort: 'low' })).status).toBe(200);
    expect(thinking()).toEqual({ type: 'adaptive' });
    expect(effort(), 'the named level, not the one the budget reaches').toBe('low');
    expect((await send({ model: 'anthropic/claude-opus-4-7', thinking: { type: 'enabled', budget_tokens: 16384 }, output_config: { effort: 'medium' } })).status).toBe(200);
    expect(effort()).toBe('medium');
  });
});

describe('a custom Messages gateway whose model list states Anthropic’s capabilities', () => {
  // a daemon of its own: cb's list must not have been read before the first request
  let own: Harness;
  beforeAll(async () => {
    own = await startHarness();
    own.mocks.cb.models.push('claude-fable-5');
  });
  afterAll(async () => {
    await own.close();
  });
  const ownChat = () => new OpenAI({ baseURL: own.a, apiKey: 'k', maxRetries: 0 });
  const sentToGateway = () => {
    const body = own.mocks.cb.lastGeneration().body as { thinking?: unknown; output_config?: { effort?: unknown } };
    return { thinking: body.thinking, effort: body.output_config?.effort };
  };

  it('before its list is read a protocol A effort is not sent (its controls are unknown); after it, the effort goes as the list states the model takes it', async () => {
    await ownChat().chat.completions.create({ model: 'cb/claude-opus-4-7', reasoning_effort: 'high', temperature: 0.2, messages: hello });
    expect(sentToGateway()).toEqual({ thinking: undefined, effort: undefined });

    await ownChat().models.list();
    await ownChat().chat.completions.create({ model: 'cb/claude-opus-4-7', reasoning_effort: 'high', temperature: 0.2, messages: hello });
    expect(sentToGateway()).toEqual({ thinking: { type: 'adaptive' }, effort: 'high' });
    // the gateway's Claude refuses sampling with thinking on, as Anthropic's does
    expect(own.mocks.cb.lastGeneration().body).not.toHaveProperty('temperature');
    await ownChat().chat.completions.create({ model: 'cb/claude-sonnet-4-5', reasoning_effort: 'high', messages: hello });
    expect(sentToGateway()).toEqual({ thinking: { type: 'enabled', budget_tokens: 4096 }, effort: undefined });
    await ownChat().chat.completions.create({ model: 'cb/claude-3-5-haiku-20241022', reasoning_effort: 'high', messages: hello });
    expect(sentToGateway()).toEqual({ thinking: undefined, effort: undefined });
  });

  it('after its list, adaptive thinking a Messages client asks (Claude Code) goes as a budget to a model the list says takes only enabled, as to Anthropic', async () => {
    await ownChat().models.list();
    const ownMessages = new Anthropic({ baseURL: own.b, apiKey: 'k', maxRetries: 0 });
    await ownMessages.messages.create({ model: 'cb/claude-sonnet-4-5', max_tokens: 100, thinking: { type: 'adaptive' }, messages: hello });
    expect(sentToGateway().thinking).toMatchObject({ type: 'enabled' });
    // a model that takes it keeps it as sent
    await ownMessages.messages.create({ model: 'cb/claude-opus-4-7', max_tokens: 100, thinking: { type: 'adaptive' }, messages: hello });
    expect(sentToGateway().thinking).toEqual({ type: 'adaptive' });
  });
  it('after its list, a budget a Messages client asks of a model listed adaptive only goes as adaptive, and thinking "disabled" to one listed as thinking always is left out, as to Anthropic', async () => {
    await ownChat().models.list();
    const ownMessages = new Anthropic({ baseURL: own.b, apiKey: 'k', maxRetries: 0 });
    await ownMessages.messages.create({ model: 'cb/claude-opus-4-7', max_tokens: 8000, thinking: { type: 'enabled', budget_tokens: 4096 }, messages: hello });
    expect(sentToGateway()).toEqual({ thinking: { type: 'adaptive' }, effort: 'high' });
    await ownMessages.messages.create({ model: 'cb/claude-fable-5', max_tokens: 100, thinking: { type: 'disabled' }, messages: hello });
    expect(sentToGateway().thinking).toBeUndefined();
  });
});

describe('a budget asked of a Claude without thinking', () => {
  it('goes without thinking, as adaptive asked of it does (Anthropic refuses thinking there)', async () => {
    await messages().messages.create({ model: 'anthropic/claude-3-5-haiku-20241022', max_tokens: 2000, thinking: { type: 'enabled', budget_tokens: 1024 }, messages: hello });
    expect(sent()).toEqual({ effort: undefined, thinking: undefined });
  });
});
