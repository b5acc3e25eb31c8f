/**
 * A dialect-neutral conversation for the property tests, its fast-check generator, and how it is
 * written in each client dialect. Ids are what the properties follow: every call id, in order,
 * and every result id, in order, must reach the upstream unchanged.
 */
import fc from 'fast-check';
import type { Dialect, ReasoningOrigin } from '../../../src/protocols/hub.js';
import { packOrigin } from '../../../src/protocols/reasoning-envelope.js';

type Json = Record<string, unknown>;

export type Media = { kind: 'text'; text: string } | { kind: 'image-url'; url: string } | { kind: 'image-data'; mediaType: string; data: string };

export interface Call {
  id: string;
  name: string;
  args: Record<string, unknown>;
}

export interface Round {
  user: Media[];
  reasoning?: { text: string; origin: ReasoningOrigin };
  reply?: string;
  calls: Call[];
  /** One result per call, in call order; text or text + image. */
  results: Array<{ text: string; image?: boolean; isError?: boolean }>;
  /** Text the user adds after the results, in the same turn. */
  after?: string;
}

export interface Conversation {
  system: string[];
  tools: Array<{ name: string; description?: string }>;
  toolChoice?: 'auto' | 'none' | 'required' | { name: string };
  parallel?: boolean;
  rounds: Round[];
  temperature?: number;
  maxTokens?: number;
}

// Multi-byte text on purpose (accents, CJK, an emoji with a variation selector).
const word = fc.tuple(fc.stringMatching(/^[A-Za-z][A-Za-z0-9 ,.?!é東京-]{0,30}$/), fc.boolean()).map(([w, emoji]) => (emoji ? `${w} 🌧️` : w));
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';

const media: fc.Arbitrary<Media> = fc.oneof(
  { weight: 6, arbitrary: word.map((text) => ({ kind: 'text' as const, text })) },
  { weight: 1, arbitrary: fc.constantFrom('https://example.com/a.png', 'https://example.com/b.jpg').map((url) => ({ kind: 'image-url' as const, url })) },
  { weight: 1, arbitrary: fc.constantFrom('image/png', 'image/jpeg', 'image/webp').map((mediaType) => ({ kind: 'image-data' as const, mediaType, data: PNG })) },
);

const origin: fc.Arbitrary<ReasoningOrigin> = fc.oneof(
  fc.stringMatching(/^[A-Za-z0-9+/]{8,24}={0,2}$/).map((signature) => ({ kind: 'anthropic' as const, signature })),
  fc.stringMatching(/^[A-Za-z0-9+/]{8,24}$/).map((data) => ({ kind: 'anthropic_redacted' as const, data })),
  fc.tuple(fc.stringMatching(/^[a-z0-9]{6,12}$/), fc.stringMatching(/^gAAAA[A-Za-z0-9]{4,16}$/)).map(([id, enc]) => ({ kind: 'openai' as const, id: `rs_${id}`, encryptedContent: enc })),
  fc.constant({ kind: 'unsigned' as const }),
);

const TOOL_NAMES = ['get_weather', 'run_shell', 'read_file', 'search'] as const;

/** Prefix of every generated reasoning text. */
export const REASONING_MARK = 'RZN~';

/** A valid conversation: every call answered right after its turn, ids unique across the whole conversation. */
export const conversation: fc.Arbitrary<Conversation> = fc
  .record({
    system: fc.array(word, { maxLength: 3 }),
    toolCount: fc.integer({ min: 1, max: TOOL_NAMES.length }),
    toolChoice: fc.option(fc.oneof(fc.constantFrom('auto' as const, 'none' as const, 'required' as const), fc.constant('named' as const)), { nil: undefined }),
    parallel: fc.option(fc.boolean(), { nil: undefined }),
    idStyle: fc.constantFrom('call_', 'toolu_01', 'fc-', 'function-call-'),
    rounds: fc.array(
      fc.record({
        user: fc.array(media, { minLength: 1, maxLength: 3 }),
        reasoning: fc.option(fc.record({ text: fc.oneof(fc.constant(''), word), origin }), { nil: undefined }),
        reply: fc.option(word, { nil: undefined }),
        callCount: fc.integer({ min: 0, max: 3 }),
        results: fc.array(fc.record({ text: word, image: fc.boolean(), isError: fc.boolean() }), { minLength: 3, maxLength: 3 }),
        after: fc.option(word, { nil: undefined }),
        toolPicks: fc.array(fc.nat(), { minLength: 3, maxLength: 3 }),
      }),
      { minLength: 1, maxLength: 4 },
    ),
    temperature: fc.option(fc.double({ min: 0, max: 1, noNaN: true }), { nil: undefined }),
    maxTokens: fc.option(fc.integer({ min: 16, max: 8192 }), { nil: undefined }),
  })
  .map((g): Conversation => {
    const tools = TOOL_NAMES.slice(0, g.toolCount).map((name) => ({ name, description: `Tool ${name}` }));
    let n = 0;
    const rounds: Round[] = g.rounds.map((r) => {
      const calls: Call[] = [];
      for (let j = 0; j < r.callCount; j++) {
        calls.push({ id: `${g.idStyle}${n++}x${j}`, name: tools[r.toolPicks[j]! % tools.length]!.name, args: { q: j, s: 'é' } });
      }
      const round: Round = { user: r.user, calls, results: r.results.slice(0, calls.length) };
      // Reasoning text is marked so a check can tell if it ever became visible text.
      if (r.reasoning) round.reasoning = { ...r.reasoning, text: r.reasoning.text && `${REASONING_MARK}${r.reasoning.text}` };
      // An assistant turn says something: text, a call, or at least reasoning followed by text.
      if (r.reply !== undefined || calls.length === 0) round.reply = r.reply ?? 'ok';
      if (r.after !== undefined) round.after = r.after;
      return round;
    });
    const conv: Conversation = { system: g.system, tools, rounds };
    if (g.toolChoice) conv.toolChoice = g.toolChoice === 'named' ? { name: tools[0]!.name } : g.toolChoice;
    if (g.parallel !== undefined) conv.parallel = g.parallel;
    if (g.temperature !== undefined) conv.temperature = g.temperature;
    if (g.maxTokens !== undefined) conv.maxTokens = g.maxTokens;
    return conv;
  });

/** The ids the upstream must see: calls in order, results in order. */
export function expectedIds(c: Conversation): { calls: string[]; results: string[] } {
  const calls = c.rounds.flatMap((r) => r.calls.map((k) => k.id));
  return { calls, results: calls };
}

const SCHEMA = { type: 'object', properties: { q: { type: 'integer' }, s: { type: 'string' } } };

// ---------------------------------------------------------------------------------------------
// Writing it in each dialect
// ---------------------------------------------------------------------------------------------

function dataUrl(m: { mediaType: string; data: string }): string {
  return `data:${m.mediaType};base64,${m.data}`;
}

function chatPart(m: Media): Json {
  if (m.kind === 'text') return { type: 'text', text: m.text };
  return { type: 'image_url', image_url: { url: m.kind === 'image-url' ? m.url : dataUrl(m) } };
}

function chatReasoning(r: NonNullable<Round['reasoning']>): Json {
  const o = r.origin;
  switch (o.kind) {
    case 'anthropic':
      return { reasoning_content: r.text, reasoning_details: [{ type: 'reasoning.text', text: r.text, signature: o.signature, format: 'anthropic-claude-v1', index: 0 }] };
    case 'anthropic_redacted':
      return { thinking_blocks: [{ type: 'redacted_thinking', data: o.data }] };
    case 'openai':
      return { reasoning_details: [{ type: 'reasoning.encrypted', id: o.id, data: o.encryptedContent, format: 'openai-responses-v1', index: 0 }] };
    default:
      return r.text ? { reasoning_content: r.text } : {};
  }
}

export function toChat(c: Conversation): Json {
  const messages: Json[] = c.system.map((text, i) => ({ role: i % 2 ? 'developer' : 'system', content: text }));
  for (const r of c.rounds) {
    messages.push({ role: 'user', content: r.user.length === 1 && r.user[0]!.kind === 'text' ? r.user[0]!.text : r.user.map(chatPart) });
    const assistant: Json = { role: 'assistant', content: r.reply ?? null, ...(r.reasoning ? chatReasoning(r.reasoning) : {}) };
    if (r.calls.length > 0) assistant.tool_calls = r.calls.map((k) => ({ id: k.id, type: 'function', function: { name: k.name, arguments: JSON.stringify(k.args) } }));
    messages.push(assistant);
    r.calls.forEach((k, j) => {
      const res = r.results[j]!;
      messages.push({ role: 'tool', tool_call_id: k.id, content: res.image ? [{ type: 'text', text: res.text }, { type: 'image_url', image_url: { url: dataUrl({ mediaType: 'image/png', data: PNG }) } }] : res.text });
    });
    if (r.after !== undefined) messages.push({ role: 'user', content: r.after });
  }
  const body: Json = { model: 'x/y', messages, tools: c.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: SCHEMA } })) };
  if (c.toolChoice) body.tool_choice = typeof c.toolChoice === 'string' ? c.toolChoice : { type: 'function', function: { name: c.toolChoice.name } };
  if (c.parallel !== undefined) body.parallel_tool_calls = c.parallel;
  if (c.temperature !== undefined) body.temperature = c.temperature;
  if (c.maxTokens !== undefined) body.max_completion_tokens = c.maxTokens;
  return body;
}

function responsesPart(m: Media): Json {
  if (m.kind === 'text') return { type: 'input_text', text: m.text };
  return { type: 'input_image', image_url: m.kind === 'image-url' ? m.url : dataUrl(m), detail: 'auto' };
}

export function toResponses(c: Conversation): Json {
  const input: Json[] = c.system.slice(1).map((text) => ({ type: 'message', role: 'developer', content: text }));
  for (const r of c.rounds) {
    input.push({ type: 'message', role: 'user', content: r.user.map(responsesPart) });
    if (r.reasoning) {
      const o = r.reasoning.origin;
      const summary = r.reasoning.text ? [{ type: 'summary_text', text: r.reasoning.text }] : [];
      input.push(o.kind === 'openai' ? { type: 'reasoning', id: o.id, summary, encrypted_content: o.encryptedContent } : { type: 'reasoning', id: 'rs_x', summary, encrypted_content: packOrigin(o) });
    }
    if (r.reply !== undefined) input.push({ type: 'message', role: 'assistant', content: [{ type: 'output_text', text: r.reply, annotations: [] }] });
    for (const k of r.calls) input.push({ type: 'function_call', call_id: k.id, name: k.name, arguments: JSON.stringify(k.args) });
    r.calls.forEach((k, j) => {
      const res = r.results[j]!;
      input.push({ type: 'function_call_output', call_id: k.id, output: res.image ? [{ type: 'input_text', text: res.text }, { type: 'input_image', image_url: dataUrl({ mediaType: 'image/png', data: PNG }), detail: 'auto' }] : res.text });
    });
    if (r.after !== undefined) input.push({ role: 'user', content: r.after });
  }
  const body: Json = { model: 'x/y', input, tools: c.tools.map((t) => ({ type: 'function', name: t.name, description: t.description, parameters: SCHEMA, strict: false })) };
  if (c.system[0] !== undefined) body.instructions = c.system[0];
  if (c.toolChoice) body.tool_choice = typeof c.toolChoice === 'string' ? c.toolChoice : { type: 'function', name: c.toolChoice.name };
  if (c.parallel !== undefined) body.parallel_tool_calls = c.parallel;
  if (c.temperature !== undefined) body.temperature = c.temperature;
  if (c.maxTokens !== undefined) body.max_output_tokens = c.maxTokens;
  return body;
}

function messagesBlock(m: Media): Json {
  if (m.kind === 'text') return { type: 'text', text: m.text };
  if (m.kind === 'image-url') return { type: 'image', source: { type: 'url', url: m.url } };
  return { type: 'image', source: { type: 'base64', media_type: m.mediaType, data: m.data } };
}

function thinkingBlock(r: NonNullable<Round['reasoning']>): Json | undefined {
  const o = r.origin;
  if (o.kind === 'anthropic_redacted') return { type: 'redacted_thinking', data: o.data };
  if (o.kind === 'unsigned') return r.text ? { type: 'thinking', thinking: r.text, signature: '' } : undefined;
  return { type: 'thinking', thinking: r.text, signature: o.kind === 'anthropic' ? o.signature : packOrigin(o) };
}

export function toMessages(c: Conversation): Json {
  const messages: Json[] = [];
  for (const r of c.rounds) {
    messages.push({ role: 'user', content: r.user.map(messagesBlock) });
    const content: Json[] = [];
    const thinking = r.reasoning ? thinkingBlock(r.reasoning) : undefined;
    if (thinking) content.push(thinking);
    if (r.reply !== undefined) content.push({ type: 'text', text: r.reply });
    for (const k of r.calls) content.push({ type: 'tool_use', id: k.id, name: k.name, input: k.args });
    messages.push({ role: 'assistant', content });
    if (r.calls.length > 0 || r.after !== undefined) {
      const turn: Json[] = r.calls.map((k, j) => {
        const res = r.results[j]!;
        const out: Json = { type: 'tool_result', tool_use_id: k.id, content: res.image ? [{ type: 'text', text: res.text }, { type: 'image', source: { type: 'base64', media_type: 'image/png', data: PNG } }] : res.text };
        if (res.isError) out.is_error = true;
        return out;
      });
      if (r.after !== undefined) turn.push({ type: 'text', text: r.after });
      messages.push({ role: 'user', content: turn });
    }
  }
  const body: Json = { model: 'x/y', max_tokens: c.maxTokens ?? 1024, messages, tools: c.tools.map((t) => ({ name: t.name, description: t.description, input_schema: SCHEMA })) };
  if (c.system.length > 0) body.system = c.system.map((text) => ({ type: 'text', text }));
  const choice = c.toolChoice === undefined ? undefined : typeof c.toolChoice === 'string' ? { type: c.toolChoice === 'required' ? 'any' : c.toolChoice } : { type: 'tool', name: c.toolChoice.name };
  if (choice) body.tool_choice = c.parallel === false && choice.type !== 'none' ? { ...choice, disable_parallel_tool_use: true } : choice;
  else if (c.parallel === false) body.tool_choice = { type: 'auto', disable_parallel_tool_use: true };
  if (c.temperature !== undefined) body.temperature = c.temperature;
  return body;
}

export function render(c: Conversation, dialect: Dialect): Json {
  return dialect === 'chat' ? toChat(c) : dialect === 'responses' ? toResponses(c) : toMessages(c);
}

// ---------------------------------------------------------------------------------------------
// Reading the ids back from an upstream body
// ---------------------------------------------------------------------------------------------

export function idsIn(body: Json, upstream: Dialect): { calls: string[]; results: string[] } {
  const calls: string[] = [];
  const results: string[] = [];
  if (upstream === 'chat') {
    for (const m of body.messages as Json[]) {
      for (const tc of (m.tool_calls as Json[] | undefined) ?? []) calls.push(tc.id as string);
      if (m.role === 'tool') results.push(m.tool_call_id as string);
    }
  } else if (upstream === 'responses') {
    for (const item of body.input as Json[]) {
      if (item.type === 'function_call') calls.push(item.call_id as string);
      if (item.type === 'function_call_output') results.push(item.call_id as string);
    }
  } else {
    for (const m of body.messages as Json[]) {
      for (const b of m.content as Json[]) {
        if (b.type === 'tool_use') calls.push(b.id as string);
        if (b.type === 'tool_result') results.push(b.tool_use_id as string);
      }
    }
  }
  return { calls, results };
}

/**
 * Whether every result sits right where the upstream wants it: Chat tool messages right after the
 * assistant message with the calls, Messages tool_result blocks first in the very next user turn,
 * Responses outputs after their calls with no message in between — each in call order.
 */
export function resultsFollowCalls(body: Json, upstream: Dialect): boolean {
  let pending: string[] = [];
  if (upstream === 'chat') {
    for (const m of body.messages as Json[]) {
      if (m.role === 'tool') {
        if (pending.shift() !== m.tool_call_id) return false;
        continue;
      }
      // Media a tool returned follows the run of tool messages as a user message.
      if (pending.length > 0) return false;
      if (m.role === 'assistant') pending = ((m.tool_calls as Json[] | undefined) ?? []).map((tc) => tc.id as string);
    }
    return pending.length === 0;
  }
  if (upstream === 'responses') {
    for (const item of body.input as Json[]) {
      if (item.type === 'function_call') pending.push(item.call_id as string);
      else if (item.type === 'function_call_output') {
        if (pending.shift() !== item.call_id) return false;
      } else if (pending.length > 0 && item.type !== 'reasoning') return false;
    }
    return pending.length === 0;
  }
  for (const m of body.messages as Json[]) {
    const blocks = m.content as Json[];
    if (m.role === 'user') {
      // Results first, in call order; nothing else before or between them.
      for (const b of blocks.slice(0, pending.length)) if (b.type !== 'tool_result' || b.tool_use_id !== pending.shift()) return false;
      if (pending.length > 0 || blocks.some((b, i) => i > 0 && b.type === 'tool_result' && blocks[i - 1]!.type !== 'tool_result')) return false;
    } else {
      if (pending.length > 0) return false;
      pending = blocks.filter((b) => b.type === 'tool_use').map((b) => b.id as string);
    }
  }
  return pending.length === 0;
}

/**
 * What every upstream rejects or must never see, listed (empty = well formed): our reasoning
 * envelopes, reasoning text turned into visible text, and each dialect's shape rules.
 */
export function upstreamProblems(body: Json, upstream: Dialect): string[] {
  const problems: string[] = [];
  if (JSON.stringify(body).includes('svcp1.')) problems.push('an envelope reached the upstream');
  const visible: string[] = [];
  if (upstream === 'chat') {
    const messages = body.messages as Json[];
    messages.forEach((m, i) => {
      if (m.role === 'system' && i > 0) problems.push('system message not first');
      visible.push(JSON.stringify(m.content ?? ''));
      if (m.role === 'assistant' && m.content === null && !m.tool_calls) problems.push('assistant message with neither content nor calls');
    });
  } else if (upstream === 'responses') {
    const input = body.input as Json[];
    input.forEach((item, i) => {
      if (item.type === 'message') visible.push(JSON.stringify(item.content));
      if (item.type === 'function_call' && 'id' in item) problems.push('function_call item with an id');
      if (item.type === 'reasoning') {
        const next = input[i + 1];
        if (!next || !(next.type === 'function_call' || (next.type === 'message' && next.role === 'assistant'))) problems.push('reasoning item not followed by its output item');
      }
    });
    if (typeof body.instructions === 'string') visible.push(body.instructions);
  } else {
    const messages = body.messages as Json[];
    if (messages[0]?.role !== 'user') problems.push('first turn is not a user turn');
    let breakpoints = body.cache_control ? 1 : 0;
    messages.forEach((m, i) => {
      if (i > 0 && messages[i - 1]!.role === m.role) problems.push('two turns of the same role in a row');
      const blocks = m.content as Json[];
      if (blocks.length === 0) problems.push('empty turn');
      let leading = true;
      for (const b of blocks) {
        if (b.cache_control) breakpoints++;
        if (b.type === 'text' && b.text === '') problems.push('empty text block');
        if (b.type === 'text') visible.push(b.text as string);
        if (b.type === 'thinking' || b.type === 'redacted_thinking') {
          if (m.role !== 'assistant' || !leading) problems.push('thinking block not first in an assistant turn');
          if (b.cache_control) problems.push('cache_control on a thinking block');
        } else leading = false;
        if (b.type === 'tool_result' && m.role !== 'user') problems.push('tool_result outside a user turn');
        if (b.type === 'tool_use' && m.role !== 'assistant') problems.push('tool_use outside an assistant turn');
      }
    });
    if (breakpoints > 4) problems.push('more than 4 cache breakpoints');
    if (typeof body.max_tokens !== 'number' || body.max_tokens < 1) problems.push('no max_tokens');
  }
  if (visible.some((t) => t.includes(REASONING_MARK))) problems.push('reasoning text became visible text');
  return problems;
}
