/**
 * Message threads (`thread`, beta message-threads-2026-08-12), which the Anthropic SDK's
 * `beta.messages.toolRunner` uses by default: after the first turn it sends only the new messages
 * and the previous reply's id. Only Anthropic holds threads, so any other target refuses one with
 * the `error.details.error_code` the SDK recovers from (`thread_unsupported_request`): the runner
 * then sends the whole history, unthreaded, and the tool loop works on every model.
 */
import Anthropic from '@anthropic-ai/sdk';
import { betaTool } from '@anthropic-ai/sdk/helpers/beta/json-schema';
import { describe, expect, it } from 'vitest';
import { KEYS, useHarness, type Harness } from './harness.js';

const t = useHarness({
  groups: {
    team: [
      { name: 'cheap-first', targets: ['openrouter/anthropic/claude-sonnet-4.5', 'anthropic/claude-sonnet-4-5'] },
      { name: 'claude-first', targets: ['anthropic/claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5'] },
    ],
  },
});
const client = (baseURL = t.h.b) => new Anthropic({ baseURL, apiKey: 'k', maxRetries: 0 });
const THREADS_BETA = 'message-threads-2026-08-12';

function weatherTool(calls: unknown[]) {
  return betaTool({
    name: 'get_weather',
    description: 'Weather in a city.',
    inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    run: (args) => {
      calls.push(args);
      return `sunny in ${args.city}`;
    },
  });
}

describe('the SDK toolRunner (threaded by default) on models other than Anthropic', () => {
  it.each([
    ['openai/gpt-5.4', 'openai'],
    ['openrouter/anthropic/claude-sonnet-4.5', 'openrouter'],
    ['gemini/gemini-2.5-flash', 'gemini'],
    ['ca/qwen3-coder', 'ca'],
    ['cb/glm-4.6', 'cb'],
  ] as const)('%s: the tool runs once and the final answer reads its result; the model saw the whole history', async (model, slug) => {
    for (const stream of [false, true]) {
      t.h.reset();
      const calls: unknown[] = [];
      const runner = client().beta.messages.toolRunner({ model, max_tokens: 500, tools: [weatherTool(calls)], messages: [{ role: 'user', content: 'Weather in Paris?' }], max_iterations: 4, ...(stream ? { stream: true as const } : {}) });
      const final = await runner.runUntilDone();
      expect(calls, `stream ${stream}`).toEqual([{ city: 'Paris' }]);
      expect(final.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Tool said: sunny in Paris' })]);
      const sent = t.h.mocks[slug].generations().map((r) => JSON.stringify(r.body));
      expect(sent).toHaveLength(2);
      expect(sent[1]).toContain('Weather in Paris?');
      expect(sent.join('')).not.toContain('"thread"');
    }
  });
});

describe('a request in a thread', () => {
  it('to a converted target: 400 invalid_request_error with details.error_code thread_unsupported_request, before any upstream', async () => {
    const err = await client()
      .beta.messages.create({ model: 'openai/gpt-5.4', max_tokens: 100, thread: { type: 'create' }, messages: [{ role: 'user', content: 'hi' }] })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const body = (err as { error: { error: Record<string, unknown> } }).error.error;
    expect(body).toMatchObject({ type: 'invalid_request_error', code: 'unsupported_feature', details: { error_code: 'thread_unsupported_request', unsupported: ['thread'] } });
    expect(body.message).toContain('Message threads (thread) are held only by anthropic/… models');
    expect(t.h.mocks.openai.generations()).toHaveLength(0);
  });

  it("client.beta.messages.thread() (which does not fall back by default) surfaces that error", async () => {
    const thread = client().beta.messages.thread({ model: 'gemini/gemini-2.5-flash', max_tokens: 100 });
    const err = await thread.send({ role: 'user', content: 'hi' }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    expect((err as { error: { error: { details: unknown } } }).error.error.details).toEqual({ error_code: 'thread_unsupported_request', unsupported: ['thread'] });
  });

  it('to anthropic (passthrough): sent on as the client wrote it', async () => {
    await client().beta.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, betas: [THREADS_BETA], thread: { type: 'create' }, messages: [{ role: 'user', content: 'hi' }] });
    expect(t.h.mocks.anthropic.lastGeneration().body.thread).toEqual({ type: 'create' });
  });

  it("to anthropic, a thread Anthropic no longer holds: its error keeps details.error_code, so the toolRunner replays the history", async () => {
    const calls: unknown[] = [];
    const runner = client().beta.messages.toolRunner({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 500, tools: [weatherTool(calls)], messages: [{ role: 'user', content: 'Weather in Paris?' }], max_iterations: 4 });
    const final = await runner.runUntilDone();
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(final.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Tool said: sunny in Paris' })]);
    const sent = t.h.mocks.anthropic.generations();
    expect(sent.map((r) => [r.status, (r.body.thread as { type: string } | undefined)?.type])).toEqual([
      [200, 'create'],
      [404, 'continue'],
      [200, 'create'],
    ]);
    expect(JSON.stringify(sent[2]!.body.messages)).toContain('Weather in Paris?');
  });

  it('the details of an Anthropic error reach the client as they came, unless they hold the credential', async () => {
    const create = () => client().beta.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, betas: [THREADS_BETA], thread: { type: 'continue', previous_message_id: 'msg_01gone' }, messages: [{ role: 'user', content: 'hi' }] });
    const gone = (await create().catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(gone).toBeInstanceOf(Anthropic.NotFoundError);
    expect((gone.error as { error: Record<string, unknown> }).error).toMatchObject({ type: 'not_found_error', details: { error_code: 'thread_not_found' } });
    t.h.mocks.anthropic.next({ kind: 'json', status: 400, body: { type: 'error', error: { type: 'invalid_request_error', message: 'bad key use', details: { error_code: 'x', key: KEYS.anthropic } } } });
    const leaked = (await client().messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 100, messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e)) as InstanceType<typeof Anthropic.APIError>;
    expect(leaked.status).toBe(400);
    expect(JSON.stringify(leaked.error)).not.toContain(KEYS.anthropic);
    expect((leaked.error as { error: Record<string, unknown> }).error).not.toHaveProperty('details');
  });
});

describe('the SDK toolRunner on a group that holds anthropic/… and another model', () => {
  const threadsSent = () => t.h.mocks.anthropic.generations().map((r) => (r.body.thread as { type: string } | undefined)?.type ?? 'none');

  /** The weather loop on a model of the group: the tool ran once and the answer read its result. */
  async function runsOnGroup(model: string): Promise<void> {
    const calls: unknown[] = [];
    const runner = client(t.h.groupB('team')).beta.messages.toolRunner({ model, max_tokens: 500, tools: [weatherTool(calls)], messages: [{ role: 'user', content: 'Weather in Paris?' }], max_iterations: 4 });
    const final = await runner.runUntilDone();
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(final.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Tool said: sunny in Paris' })]);
  }

  it("another model first: its refusal is answered at once, so the runner goes unthreaded and the group's first target answers every turn", async () => {
    await runsOnGroup('cheap-first');
    expect(t.h.mocks.openrouter.generations()).toHaveLength(2);
    expect(threadsSent()).toEqual([]);
  });

  it('anthropic/… first and failing: the next target cannot hold the thread and says so, so the runner resends unthreaded and the group falls back', async () => {
    t.h.mocks.anthropic.always(() => true, t.h.mocks.anthropic.error(529, 'Overloaded'));
    await runsOnGroup('claude-first');
    expect(t.h.mocks.openrouter.generations()).toHaveLength(2);
    expect(threadsSent()).toEqual(['create', 'none', 'none']);
  });

  it("anthropic/… first and answering: the thread goes on there, and a thread it lost is the client's to replay, not a failure to fall back from", async () => {
    await runsOnGroup('claude-first');
    expect(t.h.mocks.openrouter.generations()).toHaveLength(0);
    // the mock holds no thread: the continue is lost (404 thread_not_found) and the runner replays it in a new one
    expect(threadsSent()).toEqual(['create', 'continue', 'create']);
  });
});

describe('a thread request whose group has a target that cannot hold it, with stream headers sent early', () => {
  // headers go out after 50 ms of waiting; anthropic/… takes 300 ms to fail
  const early = useHarness({ settings: { streamHeadersAfterMs: 50 }, groups: { team: [{ name: 'claude-first', targets: ['anthropic/claude-sonnet-4-5', 'openrouter/anthropic/claude-sonnet-4.5'] }] } });
  const slowOverload = (h: Harness) => h.mocks.anthropic.always(() => true, { kind: 'json', status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, delayMs: 300 });

  it('the refusal comes as an HTTP 400 the streaming toolRunner replays, not as an event after a 200', async () => {
    const h = early.h;
    slowOverload(h);
    const calls: unknown[] = [];
    const runner = new Anthropic({ baseURL: h.groupB('team'), apiKey: 'k', maxRetries: 0 }).beta.messages.toolRunner({
      model: 'claude-first',
      max_tokens: 500,
      tools: [weatherTool(calls)],
      messages: [{ role: 'user', content: 'Weather in Paris?' }],
      max_iterations: 4,
      stream: true,
    });
    const final = await runner.runUntilDone();
    expect(calls).toEqual([{ city: 'Paris' }]);
    expect(final.content.filter((b) => b.type === 'text')).toEqual([expect.objectContaining({ text: 'Tool said: sunny in Paris' })]);
    expect(h.mocks.openrouter.generations()).toHaveLength(2);
    expect(h.mocks.anthropic.generations().map((r) => (r.body.thread as { type: string } | undefined)?.type ?? 'none')).toEqual(['create', 'none', 'none']);
  });

  it('a streamed thread request to one model that cannot hold it still gets its 400 at once, and to anthropic/… goes on as before', async () => {
    const h = early.h;
    const client = new Anthropic({ baseURL: h.b, apiKey: 'k', maxRetries: 0 });
    const refused = await (async () => {
      for await (const _ of await client.beta.messages.create({ model: 'openai/gpt-5.4', max_tokens: 50, stream: true, thread: { type: 'create' }, messages: [{ role: 'user', content: 'hi' }] })) void _;
    })().catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as { error: { error: Record<string, unknown> } }).error.error).toMatchObject({ details: { error_code: 'thread_unsupported_request' } });
    expect(h.mocks.openai.generations()).toHaveLength(0);
    // anthropic/… holds the thread: nothing refuses it, so a slow answer still gets its headers early
    h.mocks.anthropic.always(() => true, { kind: 'json', status: 529, body: { type: 'error', error: { type: 'overloaded_error', message: 'Overloaded' } }, delayMs: 300 });
    const res = await fetch(`${h.b}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k', 'anthropic-beta': 'message-threads-2026-08-12' },
      body: JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, stream: true, thread: { type: 'create' }, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect([res.status, await res.text()]).toEqual([200, expect.stringMatching(/^: waiting for the model\n\n[\s\S]*overloaded/)]);
  });

  it('a stream without a thread still gets its headers early while the first target thinks', async () => {
    const h = early.h;
    slowOverload(h);
    const res = await fetch(`${h.groupB('team')}/v1/messages`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-api-key': 'k' },
      body: JSON.stringify({ model: 'claude-first', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    expect(await res.text()).toMatch(/^: waiting for the model\n\n[\s\S]*message_stop/);
  });
});
