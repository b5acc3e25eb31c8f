/**
 * Golden fixtures for every direction of the Chat codec. Each file holds an input and the exact
 * expected output; UPDATE_GOLDEN=1 rewrites `expected` (review the diff: it is the spec).
 */
import { describe, expect, it } from 'vitest';
import type { HubEvent, HubRequest, HubResponse } from '../../../src/protocols/hub.js';
import type { DecodeOptions, EncodeRequestOptions, ResponseContext } from '../../../src/protocols/codec.js';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import { plain, sseData as parseSse, UPDATE_GOLDEN as UPDATE } from '../shared/helpers.js';
import { goldenFiles, writeGolden } from './helpers.js';

function check(g: { file: string; path: string; data: Record<string, unknown> }, actual: unknown): void {
  if (UPDATE) {
    writeGolden(g, { ...g.data, expected: actual });
    return;
  }
  expect(g.data.expected, `${g.file} has no expected output`).toBeDefined();
  expect(actual).toEqual(g.data.expected);
}

describe('chat golden: request decode (client → hub)', () => {
  for (const g of goldenFiles('request-decode')) {
    it(g.file, () => check(g, plain(chatCodec.decodeRequest(g.data.input))));
  }
});

describe('chat golden: request encode (hub → chat upstream)', () => {
  for (const g of goldenFiles('request-encode')) {
    it(g.file, () => {
      const hub = g.data.hub as HubRequest;
      check(g, plain(chatCodec.encodeRequest(hub, g.data.opts as EncodeRequestOptions)));
    });
  }
});

describe('chat golden: response decode (chat upstream → hub)', () => {
  for (const g of goldenFiles('response-decode')) {
    it(g.file, () => check(g, plain(chatCodec.decodeResponse(g.data.input, g.data.opts as DecodeOptions | undefined))));
  }
});

describe('chat golden: response encode (hub → chat client)', () => {
  for (const g of goldenFiles('response-encode')) {
    it(g.file, () => check(g, plain(chatCodec.encodeResponse(g.data.hub as HubResponse, g.data.ctx as ResponseContext))));
  }
});

describe('chat golden: stream encode (hub events → chat client SSE)', () => {
  for (const g of goldenFiles('stream-encode')) {
    it(g.file, () => {
      const enc = chatCodec.createStreamEncoder(g.data.ctx as ResponseContext);
      const text = (g.data.events as HubEvent[]).map((e) => enc.encode(e)).join('');
      check(g, parseSse(text));
    });
  }
});
