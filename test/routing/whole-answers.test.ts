/**
 * Calls whose answer the daemon wants whole (a stored response, a conversation, a transcription,
 * a non-streamed generation) read it with upstreamAnswer, never through a stream: here the stream
 * path fails every call, and these still answer.
 */
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import { post, useHarness } from './harness.js';

const t = useHarness({ overrides: { upstreamRequest: () => Promise.reject(new Error('a whole answer was read through a stream')) } });
const auth = { headers: { authorization: 'Bearer k' } };

describe('whole answers', () => {
  it('a stored response, its failure and a conversation', async () => {
    const { h } = t;
    h.mocks.openai.on('/v1/responses/resp_abc', { kind: 'json', body: { id: 'resp_abc', object: 'response' } });
    const stored = await fetch(`${h.a}/responses/resp_abc`, auth);
    expect([stored.status, ((await stored.json()) as { id: string }).id]).toEqual([200, 'resp_abc']);
    h.mocks.openai.on('/v1/responses/resp_busy', { kind: 'json', status: 429, headers: { 'retry-after': '7' }, body: { error: { message: 'slow down', type: 'requests', code: 'rate_limit_exceeded' } } });
    const busy = await fetch(`${h.a}/responses/resp_busy`, auth);
    expect([busy.status, busy.headers.get('retry-after')]).toEqual([429, '7']);
    h.mocks.openai.on('/v1/conversations', { kind: 'json', body: { id: 'conv_1', object: 'conversation' } });
    const conversation = await post(`${h.a}/conversations`, {});
    expect([conversation.status, conversation.json.id]).toEqual([200, 'conv_1']);
  });

  it('a transcription', async () => {
    const { h } = t;
    h.mocks.ca.on('/v1/audio/transcriptions', { kind: 'json', body: { text: 'heard' } });
    const client = new OpenAI({ baseURL: h.a, apiKey: 'k', maxRetries: 0 });
    const file = new File([Buffer.alloc(100, 3)], 'a.wav', { type: 'audio/wav' });
    expect((await client.audio.transcriptions.create({ model: 'ca/whisper-large-v3', file })).text).toBe('heard');
  });

  it('a non-streamed generation', async () => {
    const r = await post(`${t.h.a}/chat/completions`, { model: 'openai/gpt-5.4', messages: [{ role: 'user', content: 'hi' }] });
    expect(r.status).toBe(200);
  });
});
