/**
 * Pages an answer cites, across dialects: OpenAI's url_citation annotations (a stretch of an
 * output_text) and Anthropic's web search citations (a whole text block) read into the hub, and
 * written as a Chat message's annotations or a Responses output_text's, at offsets into the text
 * the client is given.
 */
import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../src/protocols/chat/index.js';
import type { HubResponse } from '../../src/protocols/hub.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec } from '../../src/protocols/responses/index.js';

const page = { url: 'https://example.com/a', title: 'A page' };

function openaiAnswer(annotations: unknown[]): unknown {
  return {
    id: 'resp_1',
    object: 'response',
    status: 'completed',
    model: 'gpt-5.4',
    output: [{ type: 'message', id: 'msg_1', role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'It is so, says A page.', annotations }] }],
  };
}

describe('citations', () => {
  it('OpenAI’s url_citation annotations are hub citations of their stretch; offsets that do not fit cite the whole text; other annotations are not citations', () => {
    const hub = responsesCodec.decodeResponse(
      openaiAnswer([
        { type: 'url_citation', url: page.url, title: page.title, start_index: 15, end_index: 21 },
        { type: 'url_citation', url: 'https://example.org/b', title: '', start_index: 3, end_index: 99 },
        { type: 'file_citation', file_id: 'f', filename: 'x', index: 0 },
      ]),
    );
    expect(hub.output[0]).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'It is so, says A page.', citations: [{ ...page, start: 15, end: 21 }, { url: 'https://example.org/b' }] }],
    });
  });

  const twoParts: HubResponse = {
    id: 'u1',
    model: 'm',
    stopReason: 'end_turn',
    output: [
      {
        type: 'message',
        role: 'assistant',
        content: [
          { type: 'text', text: 'It is so, ' },
          { type: 'text', text: 'says A page.', citations: [{ ...page, start: 5, end: 11 }, { url: 'https://example.org/b' }] },
        ],
      },
    ],
  };

  it('a Chat answer gives them as message.annotations at offsets into its content (the URL stands for a missing title)', () => {
    const chat = chatCodec.encodeResponse(twoParts, { model: 'p/m', created: 1, idSuffix: 'S' }) as { choices: Array<{ message: { content: string; annotations: unknown } }> };
    const message = chat.choices[0]!.message;
    expect(message.content).toBe('It is so, says A page.');
    expect(message.annotations).toEqual([
      { type: 'url_citation', url_citation: { ...page, start_index: 15, end_index: 21 } },
      { type: 'url_citation', url_citation: { url: 'https://example.org/b', title: 'https://example.org/b', start_index: 10, end_index: 22 } },
    ]);
    expect(message.content.slice(15, 21)).toBe('A page');
    // and none when nothing is cited
    const plain = chatCodec.encodeResponse({ ...twoParts, output: [{ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'x' }] }] }, { model: 'p/m' });
    expect((plain as { choices: Array<{ message: object }> }).choices[0]!.message).not.toHaveProperty('annotations');
  });

  it('a cited stretch that does not fit its part (offsets from a stream, taken before the text was whole) cites all of the part', () => {
    const misfit: HubResponse = { ...twoParts, output: [{ type: 'message', role: 'assistant', content: [{ type: 'text', text: 'short', citations: [{ ...page, start: 2, end: 40 }] }] }] };
    const chat = chatCodec.encodeResponse(misfit, { model: 'p/m' }) as { choices: Array<{ message: { annotations: unknown } }> };
    expect(chat.choices[0]!.message.annotations).toEqual([{ type: 'url_citation', url_citation: { ...page, start_index: 0, end_index: 5 } }]);
  });

  it('a Responses answer joins the parts into one output_text, each citation at its offsets', () => {
    const res = responsesCodec.encodeResponse(twoParts, { model: 'p/m', created: 1, idSuffix: 'S' }) as { output: Array<{ content: unknown }> };
    expect(res.output[0]!.content).toEqual([
      {
        type: 'output_text',
        text: 'It is so, says A page.',
        annotations: [
          { type: 'url_citation', ...page, start_index: 15, end_index: 21 },
          { type: 'url_citation', url: 'https://example.org/b', title: 'https://example.org/b', start_index: 10, end_index: 22 },
        ],
      },
    ]);
  });

  it('Anthropic’s citations of search results cite their whole block; citations of documents are not pages', () => {
    const hub = messagesCodec.decodeResponse({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude',
      stop_reason: 'end_turn',
      content: [
        { type: 'text', text: 'It is ' },
        { type: 'text', text: 'so', citations: [{ type: 'web_search_result_location', url: page.url, title: page.title, cited_text: 'so', encrypted_index: 'Eo' }] },
        { type: 'text', text: '.', citations: [{ type: 'char_location', cited_text: '.', document_index: 0, start_char_index: 0, end_char_index: 1 }] },
      ],
    });
    expect(hub.output[0]).toEqual({
      type: 'message',
      role: 'assistant',
      content: [{ type: 'text', text: 'It is ' }, { type: 'text', text: 'so', citations: [page] }, { type: 'text', text: '.' }],
    });
  });
});
