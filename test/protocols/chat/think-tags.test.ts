/**
 * Reasoning a Chat server puts in the content as a leading `<think>…</think>` (no reasoning field):
 * the whole-answer and the stream decoder split it alike, the stream however its content is cut
 * into chunks (at every point, at every pair of points, one character a chunk, random pieces), with
 * the reasoning streamed as it arrives and only a possible tag held back. Content that does not lead
 * with the tag, and content beside a reasoning field of its own, stay as they were. With
 * `startsInsideThink` (the template put `<think>` in the prompt) only `</think>` comes: the content
 * is reasoning up to it, and a turn the model ended without it was an answer after all.
 */
import { describe, expect, it } from 'vitest';
import type { DecodeOptions } from '../../../src/protocols/codec.js';
import type { HubEvent, HubResponse, StopReason } from '../../../src/protocols/hub.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { randomOffsets, rng, splitAt } from '../shared/helpers.js';
import { chunk, decodeCountingParses, decodeLines, finish } from './helpers.js';

type Block = { kind: 'reasoning' | 'text' | 'call'; text: string };

interface Case {
  name: string;
  content: string;
  /** Reasoning sent in its own field, before the content. */
  reasoningField?: string;
  call?: boolean;
  finish?: 'stop' | 'length' | 'content_filter';
  blocks: Block[];
  /** What a stream gives when it differs from the whole answer (reasoning already sent, then the text). */
  streamBlocks?: Block[];
  stop: StopReason;
}

const call = { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Paris"}' } };
const callBlock: Block = { kind: 'call', text: '{"city":"Paris"}' };
const unchanged = (name: string, content: string): Case => ({ name, content, blocks: [{ kind: 'text', text: content }], stop: 'end_turn' });
const reasoning = (text: string): Block => ({ kind: 'reasoning', text });
const text = (t: string): Block => ({ kind: 'text', text: t });
/** A turn the model ended itself, giving these blocks. */
const ended = (name: string, content: string, ...blocks: Block[]): Case => ({ name, content, blocks, stop: 'end_turn' });
/** A turn that ended in the tool call after the content, which is all reasoning. */
const calling = (name: string, content: string, thought: string): Case => ({ name, content, call: true, blocks: [reasoning(thought), callBlock], stop: 'tool_use' });
/** A turn cut off inside the reasoning: all of it is reasoning. */
const cutOff = (name: string, content: string, thought: string, finish: 'length' | 'content_filter' = 'length'): Case =>
  ({ name, content, finish, blocks: [reasoning(thought)], stop: finish === 'length' ? 'max_tokens' : 'refusal' });

const CASES: Case[] = [
  ended(
    'leading whitespace, then a think block, then text',
    ' \n\t<think>\nPlan: a < b, then </b>.\n</think>\n\n Answer: <think> stays.',
    reasoning('\nPlan: a < b, then </b>.\n'),
    text('Answer: <think> stays.'),
  ),
  cutOff('no closing tag (max_tokens): all reasoning, no text', '<think>Still thinking </thi', 'Still thinking </thi'),
  calling('closing tag, whitespace, then a tool call', '<think>Call get_weather.</think>\n\n', 'Call get_weather.'),
  ended('an empty think block: text only', '<think></think>\n\nHi', text('Hi')),
  ended('a think block of whitespace alone (Qwen3, thinking off): text only', '<think>\n\n</think>\n\nHi', text('Hi')),
  ended('whitespace before the first thought is kept once the block says something', '<think>\n\nStep one.\n</think>Done', reasoning('\n\nStep one.\n'), text('Done')),
  unchanged('content not leading with the tag: unchanged, whitespace kept', '\n  <thinking>not ours</thinking>'),
  unchanged('the tag later in the text: unchanged', 'Use <think>tags</think> like this.'),
  unchanged('a prefix of the tag, then the end: unchanged', '  <thi'),
  {
    ...ended('reasoning of its own in reasoning_content: the content is unchanged', '<think>echoed</think> done', reasoning('Own thought.'), text('<think>echoed</think> done')),
    reasoningField: 'Own thought.',
  },
];

/** The content as a model whose chat template ends with `<think>\n` writes it (startsInsideThink). */
const PREFILLED: Case[] = [
  ended(
    'reasoning up to the closing tag, then text without its leading whitespace',
    'Plan: a < b, then </b>.\n</think>\n\n Answer: </think> stays.',
    reasoning('Plan: a < b, then </b>.\n'),
    text('Answer: </think> stays.'),
  ),
  cutOff('no closing tag, cut off by max tokens: all reasoning', 'Still thinking </thi', 'Still thinking </thi'),
  cutOff('no closing tag, cut off by a filter: all reasoning', 'Still thinking', 'Still thinking', 'content_filter'),
  {
    ...ended('no closing tag and the model ended its turn: it was the answer (a stream sends it again as text)', '\nHello! How can I help?', text('\nHello! How can I help?')),
    streamBlocks: [reasoning('\nHello! How can I help?'), text('\nHello! How can I help?')],
  },
  calling('closing tag, whitespace, then a tool call', 'Call get_weather.</think>\n\n', 'Call get_weather.'),
  calling('a tool call while still inside: the reasoning ends there', 'Call get_weather. <', 'Call get_weather. <'),
  ended('reasoning of whitespace alone: text only', '\n\n</think>\n\nHi', text('Hi')),
  ended('the closing tag first: text only', '</think>Hi', text('Hi')),
  ended('content that opens with <think> (a template without the prefill): read as without the option', ' \n<think>Plan.</think>\n\nHi </think>', reasoning('Plan.'), text('Hi </think>')),
  ended('content that opens with <think> and never closes: reasoning, as without the option', '<think>Plan.', reasoning('Plan.')),
  {
    ...ended('reasoning of its own in reasoning_content (a server with a parser): the content is the answer', 'The answer.</think> stays', reasoning('Own thought.'), text('The answer.</think> stays')),
    reasoningField: 'Own thought.',
  },
];

const INSIDE = { startsInsideThink: true };

/** Blocks in order with their deltas joined, and the stop reason: what a client ends up with. */
function summarise(events: HubEvent[]): { blocks: Block[]; stop: StopReason | undefined } {
  const blocks: Block[] = [];
  const at = new Map<number, Block>();
  let stop: StopReason | undefined;
  for (const e of events) {
    if (e.type === 'block_start') {
      const b: Block = { kind: e.block.type === 'function_call' ? 'call' : e.block.type === 'reasoning' ? 'reasoning' : 'text', text: '' };
      at.set(e.index, b);
      blocks.push(b);
    } else if (e.type === 'reasoning_delta' || e.type === 'text_delta') at.get(e.index)!.text += e.text;
    else if (e.type === 'arguments_delta') at.get(e.index)!.text += e.json;
    else if (e.type === 'reasoning_origin') expect(e.origin).toEqual({ kind: 'unsigned' });
    else if (e.type === 'finish') stop = e.stopReason;
  }
  return { blocks, stop };
}

function streamLines(c: Case, pieces: ReadonlyArray<string>): string[] {
  const lines = [chunk({ role: 'assistant', content: '' })];
  if (c.reasoningField) lines.push(chunk({ reasoning_content: c.reasoningField }));
  for (const p of pieces) lines.push(chunk({ content: p }));
  if (c.call) lines.push(chunk({ tool_calls: [{ index: 0, ...call }] }));
  lines.push(finish(c.finish ?? (c.call ? 'tool_calls' : 'stop')), '[DONE]');
  return lines;
}

/** Every way the content is cut: each point, each pair of points, one character a chunk, random pieces. */
function* everyCut(text: string): Generator<string[]> {
  for (let i = 0; i <= text.length; i++) {
    yield splitAt(text, [i]);
    for (let j = i + 1; j < text.length; j++) yield splitAt(text, [i, j]);
  }
  yield [...text];
  const rnd = rng(text.length);
  for (let r = 0; r < 100; r++) yield splitAt(text, randomOffsets(text.length, rnd, 20));
}

function wholeBlocks(res: HubResponse): Block[] {
  return res.output.flatMap((o): Block[] => {
    if (o.type === 'reasoning') return [{ kind: 'reasoning', text: o.text }];
    if (o.type === 'function_call') return [{ kind: 'call', text: o.arguments }];
    if (o.type === 'message') return o.content.map((p) => ({ kind: 'text' as const, text: 'text' in p ? p.text : '' }));
    return [];
  });
}

function decodeWhole(c: Case, opts?: DecodeOptions): { blocks: Block[]; stop: StopReason } {
  const message: Record<string, unknown> = { role: 'assistant', content: c.content };
  if (c.reasoningField) message.reasoning_content = c.reasoningField;
  if (c.call) message.tool_calls = [call];
  const res = chatCodec.decodeResponse({ id: 'chatcmpl-w', model: 'm', choices: [{ index: 0, message, finish_reason: c.finish ?? (c.call ? 'tool_calls' : 'stop') }] }, opts);
  return { blocks: wholeBlocks(res), stop: res.stopReason };
}

/** Every cut of each case's content through a fresh stream decoder gives the case's blocks. */
function expectEveryCut(cases: ReadonlyArray<Case>, opts?: DecodeOptions): void {
  for (const c of cases) {
    const want = JSON.stringify({ blocks: c.streamBlocks ?? c.blocks, stop: c.stop });
    for (const pieces of everyCut(c.content)) {
      const got = summarise(decodeLines(streamLines(c, pieces), opts));
      if (JSON.stringify(got) !== want) expect(got, `${c.name}, cut into ${JSON.stringify(pieces)}`).toEqual(JSON.parse(want));
    }
  }
}

/** One content chunk at a time through a fresh stream decoder: what each produced (the start left out). */
function stepper(opts?: DecodeOptions): (content: string) => HubEvent[] {
  const d = chatCodec.createStreamDecoder(opts);
  return (content) => d.push({ data: chunk({ content }) }).filter((e) => e.type !== 'start');
}

/** Reasoning block 0 closing, and text block 1 opening with `text`. */
const reasoningThenText = (text: string): HubEvent[] => [
  { type: 'reasoning_origin', index: 0, origin: { kind: 'unsigned' } },
  { type: 'block_stop', index: 0 },
  { type: 'block_start', index: 1, block: { type: 'text' } },
  { type: 'text_delta', index: 1, text },
];

describe('chat decoders: reasoning in a leading <think> block of the content', () => {
  it('whole answers: split exactly when the content leads with the tag and no reasoning field came', () => {
    for (const c of CASES) expect(decodeWhole(c), c.name).toEqual({ blocks: c.blocks, stop: c.stop });
  });

  it('streams: the same reasoning and text however the content is cut into chunks', () => {
    expectEveryCut(CASES);
  });

  it('streams the reasoning as it arrives, holding back only what may still be a tag', () => {
    const step = stepper();
    expect(step('\n')).toEqual([]);
    expect(step(' <th')).toEqual([]);
    expect(step('ink>Plan')).toEqual([
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 0, text: 'Plan' },
    ]);
    expect(step(' a<b </th')).toEqual([{ type: 'reasoning_delta', index: 0, text: ' a<b ' }]);
    expect(step('ing')).toEqual([{ type: 'reasoning_delta', index: 0, text: '</thing' }]);
    expect(step('</')).toEqual([]);
    expect(step('think>\n')).toEqual([]);
    expect(step('\nHi')).toEqual(reasoningThenText('Hi'));
    expect(step('</think>')).toEqual([{ type: 'text_delta', index: 1, text: '</think>' }]);
  });

  it('content that turns out not to lead with the tag is released at once, whitespace and all', () => {
    const step = stepper();
    expect(step('\n <thi')).toEqual([]);
    expect(step('s')).toEqual([
      { type: 'block_start', index: 0, block: { type: 'text' } },
      { type: 'text_delta', index: 0, text: '\n <this' },
    ]);
  });

  it('after the think block, text chunks take the literal-only shortcut again', () => {
    const words = Array.from({ length: 50 }, (_, i) => `tok${i} `);
    const lines = [chunk({ role: 'assistant', content: '' }), chunk({ content: '<think>' }), chunk({ content: 'plan' }), chunk({ content: '</think>\n\n' }), ...words.map((w) => chunk({ content: w })), finish('stop'), '[DONE]'];
    const { events, wholeChunks } = decodeCountingParses(lines);
    expect(wholeChunks).toBeLessThanOrEqual(5); // role chunk, two text chunks (the second proves the frame, with a probe), finish
    expect(summarise(events).blocks).toEqual([{ kind: 'reasoning', text: 'plan' }, { kind: 'text', text: words.join('') }]);
  });
});

describe('chat decoders: a think block the prompt opened (startsInsideThink)', () => {
  it('whole answers: reasoning up to </think>, and all text when the model ended its turn without it', () => {
    for (const c of PREFILLED) expect(decodeWhole(c, INSIDE), c.name).toEqual({ blocks: c.blocks, stop: c.stop });
  });

  it('streams: the same blocks however the content is cut into chunks (a turn ended without </think> sends the text again)', () => {
    expectEveryCut(PREFILLED, INSIDE);
  });

  it('without the option the same content keeps the stray tag in the text', () => {
    expect(decodeWhole(PREFILLED[0]!)).toEqual({ blocks: [{ kind: 'text', text: PREFILLED[0]!.content }], stop: 'end_turn' });
  });

  it('streams the reasoning from the first chunk, holding back only what may be </think>', () => {
    const step = stepper(INSIDE);
    expect(step('Pl')).toEqual([
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 0, text: 'Pl' },
    ]);
    expect(step('an <b> </th')).toEqual([{ type: 'reasoning_delta', index: 0, text: 'an <b> ' }]);
    expect(step('ink>\n')).toEqual([]);
    expect(step('\nHi')).toEqual(reasoningThenText('Hi'));
  });

  it('a turn ended without </think>: the reasoning block closes and the same text follows, before the finish', () => {
    const d = chatCodec.createStreamDecoder(INSIDE);
    const events = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'Hello' }), chunk({ content: ' there.' }), finish('stop'), '[DONE]'].flatMap((data) => d.push({ data }));
    expect(events.filter((e) => e.type !== 'start')).toEqual([
      { type: 'block_start', index: 0, block: { type: 'reasoning' } },
      { type: 'reasoning_delta', index: 0, text: 'Hello' },
      { type: 'reasoning_delta', index: 0, text: ' there.' },
      ...reasoningThenText('Hello there.'),
      { type: 'block_stop', index: 1 },
      { type: 'finish', stopReason: 'end_turn' },
    ]);
  });

  it('after </think>, text chunks take the literal-only shortcut again', () => {
    const words = Array.from({ length: 50 }, (_, i) => `tok${i} `);
    const lines = [chunk({ role: 'assistant', content: '' }), chunk({ content: 'plan' }), chunk({ content: '</think>\n\n' }), ...words.map((w) => chunk({ content: w })), finish('stop'), '[DONE]'];
    const { events, wholeChunks } = decodeCountingParses(lines, INSIDE);
    expect(wholeChunks).toBeLessThanOrEqual(5); // role chunk, two text chunks (the second proves the frame, with a probe), finish
    expect(summarise(events).blocks).toEqual([{ kind: 'reasoning', text: 'plan' }, { kind: 'text', text: words.join('') }]);
  });
});
