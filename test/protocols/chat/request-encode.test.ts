/** Encoding a hub request for a Chat upstream: the cases golden files do not show. */
import { describe, expect, it } from 'vitest';
import type { HubRequest, Item, MediaSource, SystemPart } from '../../../src/protocols/hub.js';
import { ProtocolError } from '../../../src/protocols/errors.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';

const base: HubRequest = { model: 'm', system: [], items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'hi' }] }], tools: [], stream: false };

function thrown(run: () => unknown): ProtocolError {
  try {
    run();
  } catch (err) {
    if (err instanceof ProtocolError) return err;
    throw err;
  }
  throw new Error('expected a ProtocolError');
}

describe('chat request encode', () => {
  it("a failed tool result says so once: 'Error: ' only when its text does not already start with it", () => {
    const contents = ['city not found', 'Error: city not found', 'error: EACCES'].map((output) => {
      const req: HubRequest = {
        ...base,
        items: [
          { type: 'message', role: 'user', content: [{ type: 'text', text: 'hi' }] },
          { type: 'function_call', callId: 'c1', name: 'f', arguments: '{}' },
          { type: 'function_call_output', callId: 'c1', output, isError: true },
        ],
      };
      const body = chatCodec.encodeRequest(req, { replayReasoning: [] }) as { messages: Array<{ role: string; content: unknown }> };
      return body.messages.find((m) => m.role === 'tool')!.content;
    });
    expect(contents).toEqual(['Error: city not found', 'Error: city not found', 'error: EACCES']);
  });

  it('hosted tools are refused with unsupported_feature', () => {
    const req: HubRequest = { ...base, tools: [{ type: 'hosted', raw: { type: 'web_search' } }] };
    const err = thrown(() => chatCodec.encodeRequest(req, { replayReasoning: [] }));
    expect(err).toMatchObject({ status: 400, code: 'unsupported_feature', param: 'tools[0]' });
    expect(err.message).toContain('web_search');
  });

  it('images by file id cannot be sent to a Chat upstream', () => {
    const req: HubRequest = { ...base, items: [{ type: 'message', role: 'user', content: [{ type: 'image', source: { kind: 'file_id', fileId: 'file_1' } }] }] };
    expect(thrown(() => chatCodec.encodeRequest(req, { replayReasoning: [] }))).toMatchObject({ status: 400, code: 'unsupported_content' });
  });

  it('documents by file id are refused whoever issued the id; by URL only a target that fetches URLs takes them', () => {
    const file = (source: MediaSource): HubRequest => ({
      ...base,
      items: [{ type: 'message', role: 'user', content: [{ type: 'file', source, cacheControl: { type: 'ephemeral' } }] }],
    });
    const openai = thrown(() => chatCodec.encodeRequest(file({ kind: 'file_id', fileId: 'file-abc' }), { replayReasoning: [] }));
    expect(openai).toMatchObject({ status: 400, code: 'unsupported_content' });
    expect(openai.message).toContain('an OpenAI file id (file-abc)');
    const anthropic = thrown(() => chatCodec.encodeRequest(file({ kind: 'file_id', fileId: 'file_011CNha8' }), { replayReasoning: [], fileUrls: true }));
    expect(anthropic.message).toContain('a file id (file_011CNha8)');
    expect(anthropic.message).toContain('or a URL instead');

    const byUrl = file({ kind: 'url', url: 'https://example.com/a%20b.pdf' });
    expect(thrown(() => chatCodec.encodeRequest(byUrl, { replayReasoning: [] }))).toMatchObject({ status: 400, code: 'unsupported_content' });
    expect(chatCodec.encodeRequest(byUrl, { replayReasoning: [], fileUrls: true, keepCacheControl: true })).toMatchObject({
      messages: [{ role: 'user', content: [{ type: 'file', file: { file_data: 'https://example.com/a%20b.pdf', filename: 'a b.pdf' }, cache_control: { type: 'ephemeral' } }] }],
    });
  });

  it('streaming always asks the upstream for usage; non-streaming sends no stream fields', () => {
    expect(chatCodec.encodeRequest({ ...base, stream: true }, { replayReasoning: [] })).toMatchObject({ stream: true, stream_options: { include_usage: true } });
    const plain = chatCodec.encodeRequest(base, { replayReasoning: [] });
    expect(plain).not.toHaveProperty('stream');
    expect(plain).not.toHaveProperty('stream_options');
  });

  it('the output cap goes into the field the adapter names (max_tokens by default)', () => {
    const req = { ...base, maxOutputTokens: 77 };
    expect(chatCodec.encodeRequest(req, { replayReasoning: [] })).toMatchObject({ max_tokens: 77 });
    const modern = chatCodec.encodeRequest(req, { replayReasoning: [], maxTokensField: 'max_completion_tokens' });
    expect(modern).toMatchObject({ max_completion_tokens: 77 });
    expect(modern).not.toHaveProperty('max_tokens');
  });

  it('thought signatures are echoed only when the target wants them', () => {
    const req: HubRequest = {
      ...base,
      items: [
        ...base.items,
        { type: 'function_call', callId: 'c', name: 'f', arguments: '{}', thoughtSignature: 'sig' },
        { type: 'function_call_output', callId: 'c', output: 'r' },
      ],
    };
    const withSig = JSON.stringify(chatCodec.encodeRequest(req, { replayReasoning: [], thoughtSignatures: true }));
    expect(withSig).toContain('"extra_content":{"google":{"thought_signature":"sig"}}');
    expect(JSON.stringify(chatCodec.encodeRequest(req, { replayReasoning: [] }))).not.toContain('thought_signature');
  });

  it('cache_control never reaches a Chat upstream unless the adapter keeps it', () => {
    const req: HubRequest = {
      ...base,
      system: [{ text: 's', cacheControl: { type: 'ephemeral' } }],
      items: [{ type: 'message', role: 'user', content: [{ type: 'text', text: 'hi', cacheControl: { type: 'ephemeral' } }] }],
      tools: [{ type: 'function', name: 'f', cacheControl: { type: 'ephemeral' } }],
    };
    expect(JSON.stringify(chatCodec.encodeRequest(req, { replayReasoning: [] }))).not.toMatch(/cache_?[cC]ontrol/);
  });

  it('an assistant turn that only held dropped reasoning is left out', () => {
    const req: HubRequest = {
      ...base,
      items: [
        ...base.items,
        { type: 'reasoning', text: 'x', origin: { kind: 'anthropic', signature: 's' } },
        { type: 'message', role: 'user', content: [{ type: 'text', text: 'again' }] },
      ],
    };
    const body = chatCodec.encodeRequest(req, { replayReasoning: ['unsigned'] }) as { messages: Array<{ role: string }> };
    expect(body.messages.map((m) => m.role)).toEqual(['user', 'user']);
  });
});

describe('chat request encode: system text from the middle of a conversation', () => {
  const user = (text: string): Item => ({ type: 'message', role: 'user', content: [{ type: 'text', text }] });
  const call = (callId: string): Item => ({ type: 'function_call', callId, name: 'f', arguments: '{}' });
  const result = (callId: string): Item => ({ type: 'function_call_output', callId, output: 'ok' });
  const encode = (items: Item[], system: SystemPart[], systemInPlace: boolean) =>
    (chatCodec.encodeRequest({ ...base, items, system }, { replayReasoning: [], systemInPlace }) as { messages: Array<{ role: string; content: unknown }> }).messages;

  it('stays in place where the target takes it; the leading ones open the conversation; parts of one place join', () => {
    const system: SystemPart[] = [
      { text: 'Lead.' },
      { text: 'Now French.', inline: { beforeItem: 2, role: 'developer' } },
      { text: 'Be brief.', inline: { beforeItem: 2, role: 'system' } },
      { text: ' ', inline: { beforeItem: 3, role: 'system' } },
      { text: 'Last word.', inline: { beforeItem: 3, role: 'system' } },
    ];
    const items: Item[] = [user('a'), { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'b' }] }, user('c')];
    expect(encode(items, system, true)).toEqual([
      { role: 'system', content: 'Lead.' },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'system', content: 'Now French.\n\nBe brief.' },
      { role: 'user', content: 'c' },
      { role: 'system', content: 'Last word.' },
    ]);
    expect(encode(items, system, false)).toEqual([
      { role: 'system', content: 'Lead.\n\nNow French.\n\nBe brief.\n\nLast word.' },
      { role: 'user', content: 'a' },
      { role: 'assistant', content: 'b' },
      { role: 'user', content: 'c' },
    ]);
  });

  it('one written among a turn\'s tool calls or before their results goes after the results', () => {
    const items: Item[] = [user('go'), call('c1'), call('c2'), result('c1'), result('c2'), user('next')];
    const roles = (beforeItem: number) => encode(items, [{ text: 'Mind the results.', inline: { beforeItem, role: 'system' } }], true).map((m) => m.role);
    for (const beforeItem of [2, 3, 4, 5]) expect(roles(beforeItem), `before item ${beforeItem}`).toEqual(['user', 'assistant', 'tool', 'tool', 'system', 'user']);
    expect(roles(1)).toEqual(['user', 'system', 'assistant', 'tool', 'tool', 'user']);
  });

  it('one written inside an assistant turn (between its reasoning, text and calls) goes after the turn', () => {
    const turn: Item[] = [
      user('go'),
      { type: 'reasoning', text: 'Think first.', origin: { kind: 'unsigned' } },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
      call('c1'),
      result('c1'),
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
      user('next'),
    ];
    const encoded = (beforeItem: number) =>
      (chatCodec.encodeRequest({ ...base, items: turn, system: [{ text: 'Later.', inline: { beforeItem, role: 'system' } }] }, { replayReasoning: ['unsigned'], systemInPlace: true }) as {
        messages: Array<{ role: string; content: unknown; reasoning?: string }>;
      }).messages;
    for (const beforeItem of [2, 3, 4]) {
      const messages = encoded(beforeItem);
      expect(messages.map((m) => m.role), `before item ${beforeItem}`).toEqual(['user', 'assistant', 'tool', 'system', 'assistant', 'user']);
      expect(messages[1], `before item ${beforeItem}`).toMatchObject({ content: 'Looking.', reasoning: 'Think first.' });
    }
    expect(encoded(6).map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'system', 'user']);
  });
});

describe('chat request encode: replayed unsigned reasoning', () => {
  const items: Item[] = [
    { type: 'message', role: 'user', content: [{ type: 'text', text: 'read a' }] },
    { type: 'reasoning', text: 'Need to read a.', origin: { kind: 'unsigned' } },
    { type: 'function_call', callId: 'call_1', name: 'read', arguments: '{"p":"a"}' },
    { type: 'function_call_output', callId: 'call_1', output: 'file a' },
    { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'Plain answer.' }] },
    { type: 'message', role: 'user', content: [{ type: 'text', text: 'next' }] },
  ];
  const assistants = (reasoningContentToo?: boolean) =>
    (chatCodec.encodeRequest({ ...base, items }, { replayReasoning: ['unsigned'], ...(reasoningContentToo === undefined ? {} : { reasoningContentToo }) }) as { messages: Array<Record<string, unknown>> }).messages.filter(
      (m) => m.role === 'assistant',
    );

  it('goes in reasoning_content too when the target asks (llama-server reads only that), written with the message', () => {
    const [turn, plain] = assistants(true);
    expect(turn).toMatchObject({ reasoning: 'Need to read a.', reasoning_content: 'Need to read a.' });
    // a turn without reasoning gets neither field
    expect(plain).not.toHaveProperty('reasoning_content');
    expect(plain).not.toHaveProperty('reasoning');
  });

  it('goes in reasoning alone otherwise (OpenRouter, custom endpoints)', () => {
    for (const asked of [undefined, false]) expect(assistants(asked)[0]).not.toHaveProperty('reasoning_content');
    expect(assistants()[0]).toMatchObject({ reasoning: 'Need to read a.' });
  });
});
