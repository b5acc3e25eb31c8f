/**
 * Bodies the openai adapter sends, against the Responses mock that refuses what OpenAI refuses per
 * model: sampling parameters on reasoning models, function schemas OpenAI finds invalid (MCP
 * tools Anthropic accepts), reasoning items replayed to a model that does not reason. Each body
 * is what routing would send: codec output (or the client's own body in passthrough) + finalize.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Effort, HubRequest } from '../../src/protocols/hub.js';
import { chatCodec } from '../../src/protocols/chat/index.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lazyJsonBody, unparsedMember } from '../../src/protocols/lazy-json.js';
import { openaiAdapter } from '../../src/providers/openai.js';
import { startResponsesMock, type ResponsesMock } from '../fixtures/mock-upstream/index.js';

let mock: ResponsesMock;
beforeAll(async () => {
  mock = await startResponsesMock();
});
afterAll(async () => mock.close());
beforeEach(() => mock.reset());

type Body = Record<string, unknown>;

/** A Messages client's request converted for `model` at `effort`, as routing builds it. */
function converted(model: string, messagesBody: Body, effort?: Effort): Body {
  const hub: HubRequest = { ...messagesCodec.decodeRequest(structuredClone(messagesBody)), model };
  if (effort !== undefined) hub.reasoning = { ...hub.reasoning, effort };
  const body = responsesCodec.encodeRequest(hub, openaiAdapter.encodeOptions(model));
  openaiAdapter.finalizeBody(body, { model, effort, from: 'messages', passthrough: false, stream: false });
  return body;
}

/** A Responses client's own body, as passthrough sends it. */
function passthrough(model: string, body: Body, effort?: Effort): Body {
  const out = structuredClone({ ...body, model });
  openaiAdapter.finalizeBody(out, { model, effort, from: 'responses', passthrough: true, stream: false });
  return out;
}

async function send(body: Body): Promise<{ status: number; text: string }> {
  const res = await fetch(`${mock.baseUrl}/responses`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ ...body, stream: false }) });
  return { status: res.status, text: await res.text() };
}

async function accepted(body: Body): Promise<void> {
  const res = await send(body);
  expect(res.status, res.text).toBe(200);
}

const hello = (extra: Body = {}): Body => ({ model: 'm', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }], ...extra });

describe('sampling parameters on reasoning models', () => {
  it('Claude Code (temperature 1, thinking → effort high) to gpt-5.4: no sampling sent', async () => {
    const body = converted('gpt-5.4', hello({ temperature: 1 }), 'high');
    await accepted(body);
    expect(body).not.toHaveProperty('temperature');
    expect(body.reasoning).toMatchObject({ effort: 'high' });
  });

  it.each(['gpt-5-mini', 'gpt-5', 'o3', 'o4-mini', 'gpt-5.1-codex', 'gpt-5.5', 'gpt-5.1-chat-latest'])('Cline-style temperature 0.2 + top_p 0.9 to %s: dropped', async (model) => {
    const body = converted(model, hello({ temperature: 0.2, top_p: 0.9 }));
    await accepted(body);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
  });

  it.each(['gpt-4.1', 'gpt-4o', 'gpt-5-chat-latest'])('a model that does not reason keeps them: %s', async (model) => {
    const body = converted(model, hello({ temperature: 0.2, top_p: 0.9 }));
    expect(body).toMatchObject({ temperature: 0.2, top_p: 0.9 });
    await accepted(body);
  });

  it('gpt-5.1+ that do not reason by default keep them at effort none (asked or default), not while reasoning', async () => {
    for (const model of ['gpt-5.1', 'gpt-5.2-2025-12-11', 'gpt-5.4']) {
      for (const effort of ['none', undefined] as const) {
        const body = converted(model, hello({ temperature: 0.2 }), effort);
        expect(body.temperature, `${model} ${effort}`).toBe(0.2);
        await accepted(body);
      }
      const reasoning = converted(model, hello({ temperature: 0.2 }), 'low');
      await accepted(reasoning);
      expect(reasoning, model).not.toHaveProperty('temperature');
    }
  });

  it('logprobs go with the sampling parameters: a Chat client on a reasoning model gets none asked, not a 400', async () => {
    const chat = (model: string, effort?: Effort): Body => {
      const hub: HubRequest = { ...chatCodec.decodeRequest({ model, messages: [{ role: 'user', content: 'hi' }], logprobs: true, top_logprobs: 2 }), model };
      const body = responsesCodec.encodeRequest(hub, openaiAdapter.encodeOptions(model));
      openaiAdapter.finalizeBody(body, { model, effort, from: 'chat', passthrough: false, stream: false });
      return body;
    };
    for (const [model, effort] of [['gpt-5-mini', undefined], ['o3', undefined], ['gpt-5.4', 'low']] as const) {
      const body = chat(model, effort);
      await accepted(body);
      expect(body, model).not.toHaveProperty('top_logprobs');
      expect(body.include, model).not.toContain('message.output_text.logprobs');
    }
    for (const [model, effort] of [['gpt-4.1', undefined], ['gpt-5.4', 'none']] as const) {
      const body = chat(model, effort);
      await accepted(body);
      expect(body, model).toMatchObject({ top_logprobs: 2 });
      expect(body.include, model).toContain('message.output_text.logprobs');
    }
  });

  it('passthrough: a Responses client gets the same fit (temperature, top_p, top_logprobs)', async () => {
    const client = { input: 'hi', temperature: 0.3, top_p: 0.5, top_logprobs: 2, reasoning: { effort: 'low' } };
    const body = passthrough('gpt-5-mini', client, 'low');
    await accepted(body);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('top_p');
    expect(body).not.toHaveProperty('top_logprobs');
    expect(passthrough('gpt-4.1', { input: 'hi', temperature: 0.3, top_logprobs: 2 })).toMatchObject({ temperature: 0.3, top_logprobs: 2 });
    // an id the proxy does not know (a fine-tune, a new family) goes as the client wrote it
    expect(passthrough('ft:gpt-4o-mini:acme::x1', { input: 'hi', temperature: 0.3 })).toMatchObject({ temperature: 0.3 });
  });
});

describe('function schemas OpenAI refuses though Anthropic accepts them (MCP tools)', () => {
  const mcpTools = [
    { name: 'list_networks', description: 'No arguments', input_schema: { type: 'object' } },
    {
      name: 'read_many',
      input_schema: {
        type: 'object',
        properties: { paths: { type: 'array' }, filter: { type: 'object', properties: { tags: { type: ['array', 'null'] } } } },
        required: null,
      },
    },
    { name: 'get_weather', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] }, strict: true },
  ];

  it('converted: properties {} on an object root, items {} on arrays, required:null gone; strict only when asked', async () => {
    const client = hello({ tools: mcpTools });
    const body = converted('gpt-5.4', client, 'high');
    await accepted(body);
    const tools = body.tools as Array<Record<string, unknown>>;
    expect(tools.map((t) => t.strict)).toEqual([false, false, true]);
    expect(tools[0]!.parameters).toEqual({ type: 'object', properties: {} });
    expect(tools[1]!.parameters).toEqual({
      type: 'object',
      properties: { paths: { type: 'array', items: {} }, filter: { type: 'object', properties: { tags: { type: ['array', 'null'], items: {} } } } },
    });
    expect(tools[2]!.parameters).toEqual(mcpTools[2]!.input_schema);
    // the client's schemas are not edited in place (a group may send them on to another target)
    expect(mcpTools[1]!.input_schema.required).toBeNull();
  });

  it("passthrough: a Responses client's own tools go as it wrote them", () => {
    const tools = [{ type: 'function', name: 'f', strict: false, parameters: { type: 'object' } }];
    expect(passthrough('gpt-5.4', { input: 'hi', tools }).tools).toEqual(tools);
  });
});

describe('reasoning items replayed to a model that does not reason', () => {
  it('a history from gpt-5.4 sent on to gpt-4.1 loses its reasoning items, keeps the rest', async () => {
    const origin = { kind: 'openai' as const, id: 'rs_1', encryptedContent: mock.issueEncrypted() };
    const hub: HubRequest = {
      model: 'gpt-4.1',
      system: [],
      items: [
        { type: 'message', role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
        { type: 'reasoning', text: 'Need weather.', origin },
        { type: 'function_call', callId: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
        { type: 'function_call_output', callId: 'call_1', output: 'sunny' },
      ],
      tools: [{ type: 'function', name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } } } }],
      stream: false,
    };
    const encode = (model: string) => responsesCodec.encodeRequest({ ...hub, model }, openaiAdapter.encodeOptions(model));
    const body = encode('gpt-4.1');
    openaiAdapter.finalizeBody(body, { model: 'gpt-4.1', effort: 'high', from: 'messages', passthrough: false, stream: false });
    await accepted(body);
    expect((body.input as Array<{ type: string }>).map((i) => i.type)).toEqual(['message', 'function_call', 'function_call_output']);
    // a reasoning model still gets them
    const reasoning = encode('gpt-5.4');
    openaiAdapter.finalizeBody(reasoning, { model: 'gpt-5.4', effort: 'high', from: 'messages', passthrough: false, stream: false });
    expect((reasoning.input as Array<{ type: string }>).map((i) => i.type)).toContain('reasoning');
    await accepted(reasoning);
  });
});

describe("a Responses client's own reasoning items, sent on to a model that does not reason", () => {
  const long = 'x'.repeat(LAZY_MEMBER_BYTES);
  // Codex after a turn on gpt-5: its reasoning item, encrypted, replayed with the rest
  const codexInput = (): Body[] => [
    { role: 'user', content: [{ type: 'input_text', text: `Weather in Paris? ${long}` }] },
    { type: 'reasoning', summary: [], encrypted_content: mock.issueEncrypted() },
    { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
  ];
  const lazy = (body: Body): Body => {
    const raw = Buffer.from(JSON.stringify(body));
    return lazyJsonBody(raw, scanTopLevelMembers(raw)!);
  };
  const finalize = (body: Body, model: string): Body => {
    openaiAdapter.finalizeBody(body, { model, effort: 'medium', from: 'responses', passthrough: true, stream: false });
    return body;
  };

  it('passthrough to gpt-4.1: the reasoning items go, the rest stays in order', async () => {
    const codex = { input: codexInput(), store: false };
    expect((await send({ ...codex, model: 'gpt-4.1' })).text).toContain('Reasoning input items can only be provided to a reasoning or computer use model');
    for (const body of [passthrough('gpt-4.1', codex, 'medium'), finalize(lazy({ ...codex, model: 'gpt-4.1' }), 'gpt-4.1')]) {
      expect((body.input as Body[]).map((i) => i.type ?? i.role)).toEqual(['user', 'function_call', 'function_call_output']);
      await accepted(body);
    }
  });

  it('an input without them is not parsed; a reasoning model keeps them, input unparsed', async () => {
    const plain = finalize(lazy({ model: 'gpt-4.1', store: false, input: codexInput().filter((i) => i.type !== 'reasoning') }), 'gpt-4.1');
    expect(unparsedMember(plain, 'input')).toBeDefined();
    const reasoning = finalize(lazy({ model: 'gpt-5.4', store: false, input: codexInput() }), 'gpt-5.4');
    expect(unparsedMember(reasoning, 'input')).toBeDefined();
    expect((reasoning.input as Body[]).map((i) => i.type)).toContain('reasoning');
  });
});

describe('reasoning settings sent to a model that does not reason', () => {
  // what Codex sends when it reasons: a group's fallback may take it to gpt-4.1
  const codex = { input: 'hi', store: false, reasoning: { effort: 'medium', summary: 'auto' }, include: ['reasoning.encrypted_content'] };

  it('passthrough: a Codex request to gpt-4.1, gpt-4o or gpt-5-chat-latest goes without reasoning or encrypted content', async () => {
    expect((await send({ ...codex, model: 'gpt-4.1' })).text).toContain("'reasoning.effort' is not supported");
    expect((await send({ ...codex, model: 'gpt-4.1', reasoning: { summary: 'auto' } })).text).toContain("'reasoning.summary' is not supported with the 'gpt-4.1' model");
    expect((await send({ ...codex, model: 'gpt-4.1', reasoning: undefined })).text).toContain('Encrypted content is not supported with this model.');
    for (const model of ['gpt-4.1', 'gpt-4o-2024-11-20', 'gpt-5-chat-latest']) {
      for (const effort of ['medium', undefined] as const) {
        const body = passthrough(model, effort ? codex : { ...codex, reasoning: { summary: 'auto' } }, effort);
        expect(body, `${model} ${effort}`).not.toHaveProperty('reasoning');
        expect(body, `${model} ${effort}`).not.toHaveProperty('include');
        await accepted(body);
      }
    }
  });

  it('the include list keeps what else the client asked for; a reasoning model keeps it all', async () => {
    const body = passthrough('gpt-4.1', { ...codex, include: ['reasoning.encrypted_content', 'message.output_text.logprobs'] }, 'medium');
    expect(body.include).toEqual(['message.output_text.logprobs']);
    await accepted(body);
    const reasoning = passthrough('gpt-5.4', codex, 'medium');
    expect(reasoning).toMatchObject({ reasoning: { effort: 'medium', summary: 'auto' }, include: ['reasoning.encrypted_content'] });
    await accepted(reasoning);
  });
});

describe('reasoning turned off, and the summary a Messages client\'s thinking asks for', () => {
  const disabled = hello({ thinking: { type: 'disabled' } });

  it('off: gpt-5 and its mini and nano get minimal, gpt-5.4, o3, the codex and pro variants no effort; nobody is asked for a summary', async () => {
    for (const model of ['gpt-5', 'gpt-5-mini', 'gpt-5-nano-2025-08-07']) {
      const body = converted(model, disabled, 'none');
      expect(body.reasoning, model).toEqual({ effort: 'minimal' });
      await accepted(body);
    }
    // gpt-5.1-codex refuses none (OpenAI's own 400): it keeps its default
    for (const model of ['gpt-5.4', 'o3', 'gpt-5-codex', 'gpt-5.1-codex', 'gpt-5.1-codex-mini', 'gpt-5-pro']) {
      const body = converted(model, disabled, 'none');
      expect(body.reasoning, model).toBeUndefined();
      await accepted(body);
    }
  });

  it('off: gpt-5.5 and later, which reason by default (medium), are asked for none — also a Responses client’s own none', async () => {
    for (const model of ['gpt-5.5', 'gpt-5.6-2026-07-01', 'gpt-5.10']) {
      const body = converted(model, disabled, 'none');
      expect(body.reasoning, model).toEqual({ effort: 'none' });
      await accepted(body);
    }
    expect(passthrough('gpt-5.5', { model: 'gpt-5.5', input: 'hi', reasoning: { effort: 'none' } }, 'none').reasoning).toEqual({ effort: 'none' });
    // variants whose levels are not documented keep their default
    expect(converted('gpt-5.5-pro', disabled, 'none').reasoning).toBeUndefined();
  });

  it('adaptive thinking without a level asks for a summary at the model\'s default effort, unless display is omitted', () => {
    for (const display of [undefined, 'summarized', 'updates']) {
      const body = converted('gpt-5.5', hello({ thinking: display ? { type: 'adaptive', display } : { type: 'adaptive' } }));
      expect(body.reasoning, String(display)).toEqual({ summary: 'auto' });
    }
    expect(converted('gpt-5.5', hello({ thinking: { type: 'adaptive', display: 'omitted' } })).reasoning).toBeUndefined();
    // a level next to it: the effort and the summary
    expect(converted('gpt-5.5', hello({ thinking: { type: 'adaptive', display: 'updates' }, output_config: { effort: 'high' } }), 'high').reasoning).toEqual({ effort: 'high', summary: 'auto' });
  });
});

describe('an output allowance under the 16 tokens OpenAI takes', () => {
  it('a converted max_tokens 1 (Claude Code\'s checks) goes as 16; a Responses client\'s own body is left as it wrote it', async () => {
    const body = converted('gpt-5.4', hello({ max_tokens: 1 }));
    expect(body.max_output_tokens).toBe(16);
    await accepted(body);
    const own = passthrough('gpt-5.4', { input: 'hi', max_output_tokens: 1 });
    expect(own.max_output_tokens).toBe(1);
    expect((await send(own)).status).toBe(400);
  });
});
