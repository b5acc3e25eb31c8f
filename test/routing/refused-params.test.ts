import { describe, expect, it } from 'vitest';
import { dropParams, refusedParams } from '../../src/routing/refused-params.js';
import { describeErrorJson } from '../../src/routing/upstream-errors.js';

const body = {
  model: 'm',
  messages: [{ role: 'user', content: 'q' }],
  tools: [],
  reasoning_effort: 'high',
  stream_options: { include_usage: true },
  store: false,
  user: 'u-1',
  temperature: 0.2,
  max_completion_tokens: 500,
  response_format: { type: 'json_object' },
};

describe('refusedParams', () => {
  it.each([
    ['xAI', 'Model grok-4-0709 does not support parameter reasoningEffort.', ['reasoning_effort']],
    ['Groq value', 'reasoning_effort must be one of none or default', ['reasoning_effort']],
    ['Azure', 'Unrecognized request argument supplied: store', ['store']],
    ['OpenAI', "Unsupported parameter: 'temperature' is not supported with this model.", ['temperature']],
    ['OpenAI unknown', "Unknown parameter: 'user'.", ['user']],
    ['pydantic, several', 'body.stream_options.include_usage: Extra inputs are not permitted; body.store: Extra inputs are not permitted; body.max_completion_tokens: Extra inputs are not permitted', ['stream_options', 'store', 'max_completion_tokens']],
    ['pydantic tuple', "[{'type': 'extra_forbidden', 'loc': ('body', 'stream_options'), 'msg': 'Extra inputs are not permitted'}]", ['stream_options']],
    ['xAI argument', 'Argument not supported on this model: stream_options', ['stream_options']],
    // Ollama's refusal names neither field: thinking is what reasoning_effort (or reasoning) asks for
    ['Ollama, a model without thinking', '"llama3.1:8b" does not support thinking', ['reasoning_effort']],
    ['Ollama, its native name', 'registry.ollama.ai/library/gemma3n:e4b-it-q8_0 does not support thinking', ['reasoning_effort']],
    // a level refused by a model that thinks only on or off: without the effort is Ollama's "on"
    ['Ollama, a think level refused', 'think value "medium" is not supported for this model', ['reasoning_effort']],
    ['Ollama, a boolean refused (snapped to a level instead)', 'think value "false" is not supported for this model', []],
  ])('%s', (_name, message, expected) => {
    expect(refusedParams(message, body)).toEqual(expected);
  });

  it('a refusal of thinking names whichever effort field the body has', () => {
    expect(refusedParams('"qwen2.5:7b" does not support thinking', { model: 'm', reasoning: { effort: 'low' } })).toEqual(['reasoning']);
    expect(refusedParams('"qwen2.5:7b" does not support thinking', { model: 'm' })).toEqual([]);
  });

  it('names nothing it must keep, nothing the body lacks, and no plain word used as a word', () => {
    expect(refusedParams('body.tools: Extra inputs are not permitted', body)).toEqual([]);
    expect(refusedParams('response_format is not supported with this model', body)).toEqual([]);
    expect(refusedParams("Unsupported parameter: 'seed'", body), 'not in the body').toEqual([]);
    expect(refusedParams("Unexpected role 'user' after role 'tool' is not allowed", body)).toEqual([]);
    expect(refusedParams('the user is not permitted to use this model', body)).toEqual([]);
    expect(refusedParams('reasoning_effort: rate limit reached', body), 'not a refusal').toEqual([]);
  });
});

describe('dropParams', () => {
  it('drops what it names, renames max_completion_tokens, and says what it did', () => {
    const b: Record<string, unknown> = { ...body };
    expect(dropParams(b, ['store', 'max_completion_tokens', 'seed'])).toEqual(['store', 'max_completion_tokens']);
    expect(b).not.toHaveProperty('store');
    expect(b).not.toHaveProperty('max_completion_tokens');
    expect(b.max_tokens).toBe(500);
  });

  it('a max_tokens already there wins', () => {
    const b: Record<string, unknown> = { max_tokens: 10, max_completion_tokens: 500 };
    dropParams(b, ['max_completion_tokens']);
    expect(b).toEqual({ max_tokens: 10 });
  });
});

describe('pydantic validation lists read as one message', () => {
  it('Mistral (under message) and FastAPI (top level)', () => {
    const entry = { type: 'extra_forbidden', loc: ['body', 'stream_options', 'include_usage'], msg: 'Extra inputs are not permitted', input: true };
    expect(describeErrorJson({ object: 'error', message: { detail: [entry] }, type: 'invalid_request_error' })).toEqual({
      message: 'body.stream_options.include_usage: Extra inputs are not permitted',
      kind: 'invalid_request_error',
    });
    expect(describeErrorJson({ detail: [entry, { loc: ['body', 'store'], msg: 'Extra inputs are not permitted' }] })?.message).toBe(
      'body.stream_options.include_usage: Extra inputs are not permitted; body.store: Extra inputs are not permitted',
    );
  });
});
