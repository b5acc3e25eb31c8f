/**
 * GET …/models/{id} of a model whose provider is not connected (no credential, an endpoint whose
 * credential is gone, a detected local server that does not answer) is refused as generating
 * with it is: 400 provider_not_connected with the same hint, in each protocol's shape, through
 * both official SDKs — not a 404 model_not_found that says nothing about why. A group name whose
 * targets are all on such providers is refused as generating with it is, and left out of the list;
 * counting its tokens (count_tokens, input_tokens) is refused the same way.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { KEYS, useHarness } from './harness.js';

const t = useHarness({
  groups: {
    team: [
      { name: 'nowhere', targets: ['gemini/gemini-2.5-flash', 'ca/qwen3-coder'] },
      { name: 'unknown-first', targets: ['gone/x', 'gemini/gemini-2.5-flash'] },
      { name: 'somewhere', targets: ['gemini/gemini-2.5-flash', 'anthropic/claude-sonnet-4-5'] },
    ],
  },
});

beforeEach(() => {
  t.h.credentials.delete('gemini');
  t.h.credentials.delete('ca');
});
afterEach(() => {
  t.h.credentials.set('gemini', KEYS.gemini);
  t.h.credentials.set('ca', KEYS.ca);
});

const openai = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
const anthropic = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });

// gemini: no credential; ca: an endpoint whose credential is missing; ollama: detected, and silent
// here (nothing listens on 127.0.0.1:11434 on the test machines)
const MODELS = ['gemini/gemini-2.5-flash', 'ca/qwen3-coder', 'ollama/qwen3:8b'];

function rejection(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => undefined,
    (e: unknown) => e,
  );
}

describe('GET …/models/{id} of a provider that is not connected', () => {
  it('protocol A: the 400 provider_not_connected a generation with the model gets', async () => {
    for (const id of MODELS) {
      const generation = (await rejection(openai().chat.completions.create({ model: id, messages: [{ role: 'user', content: 'hi' }] }))) as InstanceType<typeof OpenAI.APIError>;
      const retrieve = (await rejection(openai().models.retrieve(id))) as InstanceType<typeof OpenAI.APIError>;
      expect(retrieve, id).toBeInstanceOf(OpenAI.BadRequestError);
      expect({ status: retrieve.status, code: retrieve.code, param: retrieve.param }, id).toEqual({ status: 400, code: 'provider_not_connected', param: 'model' });
      expect({ status: retrieve.status, code: retrieve.code, message: retrieve.message }, id).toEqual({ status: generation.status, code: generation.code, message: generation.message });
    }
    const logged = await t.h.waitForLogs(2 * MODELS.length);
    expect(logged.filter((e) => e.endpoint === 'model').map((e) => [e.modelAsked, e.status, e.errorCode])).toEqual(MODELS.map((id) => [id, 400, 'provider_not_connected']));
  });

  it('protocol B: the same refusal in Anthropic’s shape', async () => {
    for (const id of MODELS) {
      const generation = (await rejection(anthropic().messages.create({ model: id, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }))) as InstanceType<typeof Anthropic.APIError>;
      const retrieve = (await rejection(anthropic().models.retrieve(id))) as InstanceType<typeof Anthropic.APIError>;
      expect(retrieve, id).toBeInstanceOf(Anthropic.BadRequestError);
      expect(retrieve.error, id).toEqual({ type: 'error', error: { type: 'invalid_request_error', code: 'provider_not_connected', message: expect.any(String) } });
      expect(retrieve.error, id).toEqual(generation.error);
      const beta = (await rejection(anthropic().beta.models.retrieve(id))) as InstanceType<typeof Anthropic.APIError>;
      expect(beta.error, id).toEqual(generation.error);
    }
  });

  it('a connected provider still says model_not_found for a model it does not list', async () => {
    const missing = (await rejection(openai().models.retrieve('anthropic/no-such-model'))) as InstanceType<typeof OpenAI.APIError>;
    expect(missing).toBeInstanceOf(OpenAI.NotFoundError);
    expect(missing.code).toBe('model_not_found');
  });
});

describe('a group name whose targets are all on providers that are not connected', () => {
  const groupA = () => new OpenAI({ baseURL: t.h.groupA('team'), apiKey: 'k', maxRetries: 0 });
  const groupB = () => new Anthropic({ baseURL: t.h.groupB('team'), apiKey: 'k', maxRetries: 0 });
  const REFUSED = { nowhere: 'provider_not_connected', 'unknown-first': 'invalid_model' };

  it('protocol A: retrieve answers what a generation with it answers', async () => {
    for (const [name, code] of Object.entries(REFUSED)) {
      const generation = (await rejection(groupA().chat.completions.create({ model: name, messages: [{ role: 'user', content: 'hi' }] }))) as InstanceType<typeof OpenAI.APIError>;
      const retrieve = (await rejection(groupA().models.retrieve(name))) as InstanceType<typeof OpenAI.APIError>;
      expect(retrieve, name).toBeInstanceOf(OpenAI.BadRequestError);
      expect({ status: retrieve.status, code: retrieve.code, param: retrieve.param }, name).toEqual({ status: 400, code, param: 'model' });
      expect({ status: retrieve.status, code: retrieve.code, message: retrieve.message }, name).toEqual({ status: generation.status, code: generation.code, message: generation.message });
    }
    // one connected target is enough: the name answers
    expect(await groupA().models.retrieve('somewhere')).toMatchObject({ id: 'somewhere', object: 'model', owned_by: 'group:team' });
  });

  it('protocol B: the same refusal in Anthropic’s shape', async () => {
    for (const name of Object.keys(REFUSED)) {
      const generation = (await rejection(groupB().messages.create({ model: name, max_tokens: 10, messages: [{ role: 'user', content: 'hi' }] }))) as InstanceType<typeof Anthropic.APIError>;
      const retrieve = (await rejection(groupB().models.retrieve(name))) as InstanceType<typeof Anthropic.APIError>;
      expect(retrieve, name).toBeInstanceOf(Anthropic.BadRequestError);
      expect(retrieve.error, name).toEqual(generation.error);
    }
    expect(await groupB().models.retrieve('somewhere')).toMatchObject({ type: 'model', id: 'somewhere' });
  });

  it('the list leaves such a name out, in both shapes, and lists it again once a target is connected', async () => {
    const idsA = async () => (await groupA().models.list()).data.map((m) => m.id);
    const idsB = async () => (await groupB().models.list()).data.map((m) => m.id);
    expect(await idsA()).toEqual(['somewhere']);
    expect(await idsB()).toEqual(['somewhere']);
    t.h.credentials.set('gemini', KEYS.gemini);
    expect(await idsA()).toEqual(['nowhere', 'unknown-first', 'somewhere']);
    expect(await idsB()).toEqual(['nowhere', 'unknown-first', 'somewhere']);
  });
});

describe('token counting with a group name whose targets are all on providers that are not connected', () => {
  const groupA = () => new OpenAI({ baseURL: t.h.groupA('team'), apiKey: 'k', maxRetries: 0 });
  const groupB = () => new Anthropic({ baseURL: t.h.groupB('team'), apiKey: 'k', maxRetries: 0 });
  const REFUSED = { nowhere: 'provider_not_connected', 'unknown-first': 'invalid_model' };

  it('protocol B count_tokens: the 400 a generation with it gets, in Anthropic’s shape', async () => {
    for (const [name, code] of Object.entries(REFUSED)) {
      const messages = [{ role: 'user' as const, content: 'hi' }];
      const generation = (await rejection(groupB().messages.create({ model: name, max_tokens: 10, messages }))) as InstanceType<typeof Anthropic.APIError>;
      const count = (await rejection(groupB().messages.countTokens({ model: name, messages }))) as InstanceType<typeof Anthropic.APIError>;
      expect(count, name).toBeInstanceOf(Anthropic.BadRequestError);
      expect(count.error, name).toEqual({ type: 'error', error: { type: 'invalid_request_error', code, message: expect.any(String) } });
      expect(count.error, name).toEqual(generation.error);
    }
  });

  it('protocol A input_tokens: the 400 a generation with it gets', async () => {
    for (const [name, code] of Object.entries(REFUSED)) {
      const generation = (await rejection(groupA().responses.create({ model: name, input: 'hi' }))) as InstanceType<typeof OpenAI.APIError>;
      const count = (await rejection(groupA().responses.inputTokens.count({ model: name, input: 'hi' }))) as InstanceType<typeof OpenAI.APIError>;
      expect(count, name).toBeInstanceOf(OpenAI.BadRequestError);
      expect({ status: count.status, code: count.code, param: count.param, message: count.message }, name).toEqual({ status: 400, code, param: 'model', message: generation.message });
    }
  });
});
