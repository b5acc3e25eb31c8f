/**
 * The reasoning the proxy keeps for a Messages client with thinking off is in memory only. A
 * restart between the tool call and its result loses it, and the next turn must still go: the call
 * goes by its `call_id` alone with `store: false` (an item named by id would be looked up and not
 * found), without the reasoning item it had before the restart — OpenAI reasons again, no error.
 * The real daemon, restarted, through the real @anthropic-ai/sdk.
 */
import type Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, stopDaemon, TEST_CREDENTIALS, type TestDaemon } from '../fixtures/daemon.js';
import { ResponsesMock } from '../fixtures/mock-upstream/index.js';

let d: TestDaemon;
let mock: ResponsesMock;

const tools: Anthropic.Tool[] = [{ name: 'get_weather', description: 'Weather for a city', input_schema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } }];
const ask: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
const off = { model: 'openai/gpt-5.4', max_tokens: 200, tools, thinking: { type: 'disabled' as const } };

beforeAll(async () => {
  mock = await new ResponsesMock({ apiKey: TEST_CREDENTIALS.OPENAI_API_KEY }).listen();
  d = await startDaemon({ setup: (t) => t.cli(['provider', 'set', 'openai', '--base-url', mock.baseUrl]).then(() => undefined) });
}, 60_000);
afterAll(async () => {
  await stopDaemon(d);
  await mock?.close();
});

/** The tool-call turn, then the turn that sends its result back (as Claude Code does); the input OpenAI got for the second. */
async function toolTurnThenResult(between: () => Promise<void>): Promise<{ input: Array<Record<string, unknown>>; store: unknown; answer: Anthropic.Message }> {
  mock.next({ kind: 'turn', turn: { reasoning: { text: 'Need the weather tool.' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
  const first = await d.anthropic().messages.create({ ...off, messages: [ask] });
  expect(first.content.map((b) => b.type)).toEqual(['tool_use']);
  await between();
  const use = first.content.find((b): b is Anthropic.ToolUseBlock => b.type === 'tool_use')!;
  const answer = await d.anthropic().messages.create({
    ...off,
    messages: [ask, { role: 'assistant', content: first.content as Anthropic.ContentBlockParam[] }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: use.id, content: 'Sunny, 21 °C.' }] }],
  });
  const body = mock.lastGeneration().body as { input: Array<Record<string, unknown>>; store?: unknown };
  return { input: body.input, store: body.store, answer };
}

describe('a thinking-off Messages conversation on openai/… across a daemon restart', () => {
  it('without a restart the kept reasoning goes back before the call', async () => {
    const { input } = await toolTurnThenResult(async () => {});
    const call = input.findIndex((i) => i.type === 'function_call');
    expect(input[call - 1]).toMatchObject({ type: 'reasoning', encrypted_content: expect.any(String) });
  });

  it('after a restart the next turn is answered: the call goes by call_id alone, stateless, without the reasoning', async () => {
    const { input, store, answer } = await toolTurnThenResult(async () => {
      await d.stop();
      await d.start();
    });
    expect(answer.content.some((b) => b.type === 'text')).toBe(true);
    expect(store).toBe(false);
    const call = input.find((i) => i.type === 'function_call');
    expect(call).toMatchObject({ call_id: expect.any(String), name: 'get_weather' });
    expect(call).not.toHaveProperty('id');
    expect(input.filter((i) => i.type === 'reasoning')).toEqual([]);
  });
});
