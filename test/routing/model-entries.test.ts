/** One model in each base's shape (model-entries.ts), and the id of GET …/models/{id} (models-endpoint.ts). */
import { describe, expect, it } from 'vitest';
import { anthropicModel, modelListJson, openaiModel, type ListedModel } from '../../src/routing/model-entries.js';
import { groupLimit, modelIdOfPath } from '../../src/routing/models-endpoint.js';

const known: ListedModel = { id: 'anthropic/claude-sonnet-4-5', owner: 'anthropic', created: 1759104000, displayName: 'Claude Sonnet 4.5', contextWindow: 200_000, maxOutput: 64_000 };
const unknown: ListedModel = { id: 'openai/gpt-5.4', owner: 'openai', created: 1759104000, displayName: 'openai/gpt-5.4' };

describe('model entries', () => {
  it('protocol A: an OpenAI Model', () => {
    expect(openaiModel(known)).toEqual({ id: 'anthropic/claude-sonnet-4-5', object: 'model', created: 1759104000, owned_by: 'anthropic' });
  });

  it('protocol B: a ModelInfo with max_input_tokens and max_tokens only where the list states them', () => {
    expect(anthropicModel(known)).toEqual({
      type: 'model',
      id: 'anthropic/claude-sonnet-4-5',
      display_name: 'Claude Sonnet 4.5',
      created_at: '2025-09-29T00:00:00Z',
      max_input_tokens: 200_000,
      max_tokens: 64_000,
    });
    expect(anthropicModel(unknown)).not.toHaveProperty('max_input_tokens');
    expect(anthropicModel(unknown)).not.toHaveProperty('max_tokens');
  });

  it('protocol A lists everything and reads no query; protocol B pages', () => {
    const models = [known, unknown];
    expect(JSON.parse(modelListJson('a', models, new URLSearchParams('limit=1'))).data).toHaveLength(2);
    expect(JSON.parse(modelListJson('b', models, new URLSearchParams('limit=1')))).toEqual({
      data: [anthropicModel(known)],
      has_more: true,
      first_id: known.id,
      last_id: known.id,
    });
  });
});

describe('modelIdOfPath', () => {
  it('everything after /models/, percent-decoded: the SDKs send / as %2F, curl as it is', () => {
    expect(modelIdOfPath('/protocol-a/v1/models/openrouter%2Fanthropic%2Fclaude-sonnet-4.5')).toBe('openrouter/anthropic/claude-sonnet-4.5');
    expect(modelIdOfPath('/protocol-b/v1/models/openrouter/anthropic/claude-sonnet-4.5?beta=true')).toBe('openrouter/anthropic/claude-sonnet-4.5');
    expect(modelIdOfPath('/g/team/protocol-b/v1/v1/models/gpt-5.4%2Ffast/')).toBe('gpt-5.4/fast');
    expect(modelIdOfPath('/protocol-a/v1/models/lm/llama3.1%3A8b')).toBe('lm/llama3.1:8b');
  });

  it('bad percent-encoding: 404 model_not_found', () => {
    expect(() => modelIdOfPath('/protocol-a/v1/models/a%zz')).toThrow(expect.objectContaining({ status: 404, code: 'model_not_found' }));
  });
});

describe('groupLimit', () => {
  const windows = new Map([
    ['anthropic/claude-sonnet-4-5', 200_000],
    ['openrouter/anthropic/claude-sonnet-4.5', 1_000_000],
  ]);
  it('the smallest of the targets\' windows: a fallback may land on any of them', () => {
    expect(groupLimit(['openrouter/anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'], windows)).toBe(200_000);
  });
  it('unknown when any target\'s window is not stated (or there are no targets)', () => {
    expect(groupLimit(['anthropic/claude-sonnet-4-5', 'openai/gpt-5.4'], windows)).toBeUndefined();
    expect(groupLimit([], windows)).toBeUndefined();
  });
});
