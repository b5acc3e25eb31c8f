/**
 * Endpoint rules and content conversions of issue 3 that the per-client suites do not cover:
 * unsupported endpoints, Responses state features and hosted tools, input_audio per provider,
 * Gemini ids accepted with or without `models/`, images and JSON output converted per target.
 */
import type Anthropic from '@anthropic-ai/sdk';
import type OpenAI from 'openai';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorCode, rejection } from '../fixtures/e2e-helpers.js';
import { MODELS, startWorld, type Kind, type World } from '../fixtures/world.js';

let world: World;
let chat: OpenAI;
let ant: Anthropic;

beforeAll(async () => {
  world = await startWorld();
  chat = world.daemon.openai();
  ant = world.daemon.anthropic();
}, 60_000);
afterAll(async () => world?.close());
beforeEach(() => world?.reset());

// 1×1 transparent PNG
const PNG_B64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describe('endpoints that are not offered', () => {
  it('embeddings, image generation and speech → 404 unsupported_endpoint', async () => {
    for (const call of [
      () => chat.embeddings.create({ model: MODELS.openai, input: 'x' }),
      () => chat.images.generate({ model: MODELS.openai, prompt: 'x' }),
      () => chat.audio.speech.create({ model: MODELS.openai, input: 'x', voice: 'alloy' }),
    ]) {
      const e = await rejection(call());
      expect(e.status).toBe(404);
      expect(errorCode(e)).toBe('unsupported_endpoint');
    }
    expect(world.mocks.openai.requests).toHaveLength(0);
  });
});

describe('Responses rules', () => {
  it('conversation and background → 400 unsupported_feature; a previous_response_id svc-proxy did not keep → 400 previous_response_not_found', async () => {
    for (const extra of [{ conversation: 'conv_123' }, { background: true }]) {
      const e = await rejection(chat.responses.create({ model: MODELS.anthropic, input: 'x', ...extra }));
      expect(e.status, JSON.stringify(extra)).toBe(400);
      expect(errorCode(e)).toBe('unsupported_feature');
    }
    const e = await rejection(chat.responses.create({ model: MODELS.anthropic, input: 'x', previous_response_id: 'resp_123' }));
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('previous_response_not_found');
    expect(world.mocks.anthropic.requests).toHaveLength(0);
  });

  it('GET and DELETE /responses/{id} of an id nobody keeps → 404 response_not_found (OpenAI asked first)', async () => {
    const g = await rejection(chat.responses.retrieve('resp_123'));
    expect(g.status).toBe(404);
    expect(errorCode(g)).toBe('response_not_found');
    const d = await rejection(chat.responses.delete('resp_123'));
    expect(d.status).toBe(404);
    expect(errorCode(d)).toBe('response_not_found');
    expect(world.mocks.openai.requests.map((r) => `${r.method} ${r.path}`)).toEqual(['GET /v1/responses/resp_123', 'DELETE /v1/responses/resp_123']);
  });

  it('hosted tools: rejected for non-openai models, passed through to openai', async () => {
    const e = await rejection(chat.responses.create({ model: MODELS.openrouter, input: 'news?', tools: [{ type: 'web_search' }] }));
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('unsupported_feature');
    expect(world.mocks.openrouter.requests).toHaveLength(0);
    await chat.responses.create({ model: MODELS.openai, input: 'news?', tools: [{ type: 'web_search' }] });
    expect(world.mocks.openai.lastGeneration().body.tools).toEqual([{ type: 'web_search' }]);
  });
});

describe('input_audio in chat messages', () => {
  const audio: OpenAI.Chat.ChatCompletionMessageParam = {
    role: 'user',
    content: [
      { type: 'text', text: 'What is said here?' },
      { type: 'input_audio', input_audio: { data: Buffer.from('RIFFfakewav').toString('base64'), format: 'wav' } },
    ],
  };

  it.each(['openrouter', 'gemini', 'customA', 'local'] as Kind[])('delivered to %s', async (kind) => {
    await chat.chat.completions.create({ model: MODELS[kind], messages: [audio] });
    const parts = world.mock(kind).lastGeneration().body.messages[0].content as Array<{ type: string }>;
    expect(parts.map((p) => p.type)).toContain('input_audio');
  });

  it.each(['anthropic', 'openai', 'customB'] as Kind[])('%s → 400 unsupported_modality, nothing sent', async (kind) => {
    const e = await rejection(chat.chat.completions.create({ model: MODELS[kind], messages: [audio] }));
    expect(e.status).toBe(400);
    expect(errorCode(e)).toBe('unsupported_modality');
    expect(world.mock(kind).requests).toHaveLength(0);
  });
});

describe('Gemini model ids', () => {
  it('accepted with or without the models/ prefix', async () => {
    const a = await chat.chat.completions.create({ model: 'gemini/models/gemini-2.5-flash', messages: [{ role: 'user', content: 'hi' }] });
    expect(a.choices[0]!.message.content).toBe('Echo: hi');
    const b = await ant.messages.create({ model: 'gemini/gemini-2.5-flash', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
    expect(b.content[0]).toMatchObject({ text: 'Echo: hi' });
    for (const r of world.mocks.gemini.generations()) expect(String(r.body.model).replace(/^models\//, '')).toBe('gemini-2.5-flash');
  });
});

describe('images survive conversion', () => {
  it('Chat data URL → Anthropic base64 image block', async () => {
    await chat.chat.completions.create({
      model: MODELS.anthropic,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: `data:image/png;base64,${PNG_B64}` } }] }],
    });
    const blocks = world.mocks.anthropic.lastGeneration().body.messages[0].content as Array<Record<string, unknown>>;
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } }));
  });

  it('Chat http URL → Anthropic url image block', async () => {
    await chat.chat.completions.create({
      model: MODELS.anthropic,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }],
    });
    const blocks = world.mocks.anthropic.lastGeneration().body.messages[0].content as Array<Record<string, unknown>>;
    expect(blocks).toContainEqual(expect.objectContaining({ type: 'image', source: { type: 'url', url: 'https://example.com/cat.png' } }));
  });

  it.each(['openrouter', 'customA'] as Kind[])('Messages base64 image → %s data URL image_url part', async (kind) => {
    await ant.messages.create({
      model: MODELS[kind],
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } }, { type: 'text', text: 'What is this?' }] }],
    });
    const parts = world.mock(kind).lastGeneration().body.messages[0].content as Array<{ type: string; image_url?: { url: string } }>;
    expect(parts.find((p) => p.type === 'image_url')?.image_url?.url).toBe(`data:image/png;base64,${PNG_B64}`);
  });

  it('Messages base64 image → OpenAI input_image', async () => {
    await ant.messages.create({
      model: MODELS.openai,
      max_tokens: 50,
      messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG_B64 } }, { type: 'text', text: 'What is this?' }] }],
    });
    const input = world.mocks.openai.lastGeneration().body.input as Array<{ content?: Array<{ type: string; image_url?: string }> }>;
    const img = input.flatMap((i) => i.content ?? []).find((p) => p.type === 'input_image');
    expect(img?.image_url).toBe(`data:image/png;base64,${PNG_B64}`);
  });
});

describe('JSON output', () => {
  const schema = { type: 'object', properties: { answer: { type: 'string' } }, required: ['answer'], additionalProperties: false };

  it('Chat json_schema → Anthropic output_config.format, OpenAI text.format (flat)', async () => {
    const rf = { type: 'json_schema' as const, json_schema: { name: 'out', strict: true, schema } };
    await chat.chat.completions.create({ model: MODELS.anthropic, messages: [{ role: 'user', content: 'JSON please' }], response_format: rf });
    expect(world.mocks.anthropic.lastGeneration().body.output_config?.format).toMatchObject({ type: 'json_schema', schema: expect.objectContaining({ type: 'object' }) });
    await chat.chat.completions.create({ model: MODELS.openai, messages: [{ role: 'user', content: 'JSON please' }], response_format: rf });
    expect(world.mocks.openai.lastGeneration().body.text?.format).toMatchObject({ type: 'json_schema', name: 'out', strict: true, schema });
  });

  it('Responses json_object → Chat upstream response_format json_object', async () => {
    await chat.responses.create({ model: MODELS.openrouter, input: 'JSON please', text: { format: { type: 'json_object' } } });
    expect(world.mocks.openrouter.lastGeneration().body.response_format).toEqual({ type: 'json_object' });
  });
});

describe('tool names over 64 characters', () => {
  const long = `mcp__workspace_server__${'very_long_tool_name_'.repeat(4)}search`;

  it.each(['openai', 'gemini'] as Kind[])('shortened for %s, restored in the answer (Messages client)', async (kind) => {
    expect(long.length).toBeGreaterThan(64);
    const msg = await ant.messages.create({
      model: MODELS[kind],
      max_tokens: 200,
      tools: [{ name: long, input_schema: { type: 'object', properties: { q: { type: 'string' } }, required: ['q'] } }],
      messages: [{ role: 'user', content: 'search it' }],
    });
    const sentName = (world.mock(kind).lastGeneration().body.tools[0] as { name?: string; function?: { name: string } });
    expect((sentName.function?.name ?? sentName.name)!.length).toBeLessThanOrEqual(64);
    const use = msg.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    expect(use.name).toBe(long);
    expect(use.input).toEqual({ q: 'sample-q' });
  });
});
