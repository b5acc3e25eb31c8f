/**
 * The openai SDK's own helpers are strict readers of what the proxy converts: runTools drives a
 * tool loop over streamed answers and sends the assistant messages back as it assembled them;
 * parse() and the zod helpers parse the answer's text and tool arguments against a schema.
 * Each against a model of every kind that converts (and Gemini, passed through).
 */
import OpenAI from 'openai';
import { zodFunction, zodResponseFormat, zodResponsesFunction, zodTextFormat } from 'openai/helpers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness();
const client = () => new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
const MODELS = ['anthropic/claude-sonnet-4-5', 'openai/gpt-5', 'gemini/gemini-3-pro-preview', 'openrouter/anthropic/claude-sonnet-4.5', 'cb/some-model'] as const;
type Mock = (typeof t.h.mocks)[keyof typeof t.h.mocks];
const mockOf = (model: string): Mock => t.h.mocks[model.split('/')[0] as keyof typeof t.h.mocks];

const Thing = z.object({ name: z.string(), count: z.number() });
const Weather = z.object({ city: z.string(), units: z.enum(['c', 'f']) });

describe('runTools: a streamed tool loop of two rounds with reasoning on', () => {
  for (const model of MODELS) {
    it(model, async () => {
      const mock = mockOf(model);
      mock.next({ kind: 'turn', turn: { reasoning: { text: 'read first' }, text: 'Reading.', toolCalls: [{ name: 'read_file', arguments: { path: 'a.ts' } }, { name: 'read_file', arguments: { path: 'b.ts' } }] } });
      mock.next({ kind: 'turn', turn: { reasoning: { text: 'then the second' }, toolCalls: [{ name: 'read_file', arguments: { path: 'c.ts' } }] } });
      mock.next({ kind: 'turn', turn: { reasoning: { text: 'done' }, text: 'All three read.' } });
      const read: string[] = [];
      const runner = client().chat.completions.runTools({
        model,
        stream: true,
        reasoning_effort: 'high',
        messages: [{ role: 'user', content: 'Read the files.' }],
        tools: [
          {
            type: 'function',
            function: {
              name: 'read_file',
              description: 'Read a file.',
              parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] },
              parse: (s: string) => JSON.parse(s) as { path: string },
              function: ({ path }: { path: string }) => {
                read.push(path);
                return `contents of ${path}`;
              },
            },
          },
        ],
      });
      expect(await runner.finalContent()).toBe('All three read.');
      expect(read).toEqual(['a.ts', 'b.ts', 'c.ts']);
      // the last request carried all three results after their calls
      const last = JSON.stringify(mock.lastGeneration().body);
      for (const path of ['a.ts', 'b.ts', 'c.ts']) expect(last).toContain(`contents of ${path}`);
    });
  }
});

describe('parse(): structured output and strict tools read by the zod helpers', () => {
  for (const model of MODELS) {
    it(`${model}: chat and responses, whole and streamed`, async () => {
      const mock = mockOf(model);
      const text = JSON.stringify({ name: 'widget', count: 3 });
      mock.next({ kind: 'turn', turn: { text } });
      const chat = await client().chat.completions.parse({ model, messages: [{ role: 'user', content: 'A thing as JSON.' }], response_format: zodResponseFormat(Thing, 'thing') });
      expect(chat.choices[0]!.message.parsed).toEqual({ name: 'widget', count: 3 });

      mock.next({ kind: 'turn', turn: { text } });
      const streamed = await client()
        .chat.completions.stream({ model, messages: [{ role: 'user', content: 'A thing as JSON.' }], response_format: zodResponseFormat(Thing, 'thing') })
        .finalChatCompletion();
      expect(streamed.choices[0]!.message.parsed).toEqual({ name: 'widget', count: 3 });

      mock.next({ kind: 'turn', turn: { text } });
      const resp = await client().responses.parse({ model, input: 'A thing as JSON.', text: { format: zodTextFormat(Thing, 'thing') } });
      expect(resp.output_parsed).toEqual({ name: 'widget', count: 3 });

      mock.next({ kind: 'turn', turn: { text } });
      const respStreamed = await client().responses.stream({ model, input: 'A thing as JSON.', text: { format: zodTextFormat(Thing, 'thing') } }).finalResponse();
      expect(respStreamed.output_parsed).toEqual({ name: 'widget', count: 3 });

      const call: Reply = { kind: 'turn', turn: { toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris', units: 'c' } }] } };
      mock.next(call);
      const fn = await client().chat.completions.parse({ model, messages: [{ role: 'user', content: 'Weather?' }], tools: [zodFunction({ name: 'get_weather', parameters: Weather })] });
      const tc = fn.choices[0]!.message.tool_calls![0]!;
      expect(tc.type === 'function' && tc.function.parsed_arguments).toEqual({ city: 'Paris', units: 'c' });

      mock.next(call);
      const rfn = await client().responses.parse({ model, input: 'Weather?', tools: [zodResponsesFunction({ name: 'get_weather', parameters: Weather })] });
      const item = rfn.output.find((o) => o.type === 'function_call');
      expect(item && 'parsed_arguments' in item ? item.parsed_arguments : undefined).toEqual({ city: 'Paris', units: 'c' });
    });
  }
});

describe('stream.controller.abort(): the upstream request is cancelled', () => {
  for (const model of ['anthropic/claude-sonnet-4-5', 'openai/gpt-5', 'gemini/gemini-2.5-flash', 'cb/some-model']) {
    it(`${model}: a chat stream and a responses stream, each aborted at its third text delta`, async () => {
      const mock = mockOf(model);
      mock.next({ kind: 'turn', turn: { text: 'x'.repeat(400), stream: { chunk: 2, delayMs: 20 } } });
      const chat = client().chat.completions.stream({ model, messages: [{ role: 'user', content: 'Go on.' }] });
      let n = 0;
      for await (const chunk of chat) {
        if (chunk.choices[0]?.delta.content && ++n === 3) {
          chat.controller.abort();
          break;
        }
      }
      const first = mock.lastGeneration();
      await first.done;
      expect(first.closedEarly).toBe(true);

      mock.next({ kind: 'turn', turn: { text: 'x'.repeat(400), stream: { chunk: 2, delayMs: 20 } } });
      const resp = client().responses.stream({ model, input: 'Go on.' });
      n = 0;
      for await (const ev of resp) {
        if (ev.type === 'response.output_text.delta' && ++n === 3) {
          resp.controller.abort();
          break;
        }
      }
      const second = mock.lastGeneration();
      expect(second).not.toBe(first);
      await second.done;
      expect(second.closedEarly).toBe(true);
    });
  }
});
