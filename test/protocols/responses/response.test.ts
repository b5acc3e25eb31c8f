import { describe, expect, it } from 'vitest';
import type { ResponseContext } from '../../../src/protocols/codec.js';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { HubResponse, StopReason } from '../../../src/protocols/hub.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';
import { fixtureNames, jsonFixture } from './fixtures.js';

describe('responses decodeResponse: golden fixtures', () => {
  for (const name of fixtureNames('response-decode')) {
    it(name, () => {
      const fx = jsonFixture<{ body: unknown; expected: unknown }>('response-decode', `${name}.json`);
      expect(responsesCodec.decodeResponse(fx.body)).toEqual(fx.expected);
    });
  }
});

describe('responses encodeResponse: golden fixtures', () => {
  for (const name of fixtureNames('response-encode')) {
    it(name, () => {
      const fx = jsonFixture<{ hub: HubResponse; ctx: ResponseContext; expected: unknown }>('response-encode', `${name}.json`);
      expect(responsesCodec.encodeResponse(fx.hub, fx.ctx)).toEqual(fx.expected);
    });
  }
});

describe('responses decodeResponse: failures', () => {
  it('turns a malformed body into a 502 upstream_error', () => {
    for (const body of [null, 'x', {}, { output: 'no' }]) {
      expect(() => responsesCodec.decodeResponse(body)).toThrow(expect.objectContaining({ status: 502, code: 'upstream_error' }));
    }
  });

  it('turns a failed response into an upstream_error with the upstream message and mapped status', () => {
    let err: unknown;
    try {
      responsesCodec.decodeResponse({ id: 'r', status: 'failed', output: [], error: { code: 'rate_limit_exceeded', message: 'Slow down' } });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ProtocolError);
    expect(err).toMatchObject({ status: 429, code: 'upstream_error' });
    expect((err as Error).message).toContain('Slow down');
  });
});

describe('responses encodeResponse: stop reasons', () => {
  const cases: Array<[StopReason, boolean, string, string | null]> = [
    ['end_turn', false, 'completed', null],
    ['stop_sequence', false, 'completed', null],
    ['tool_use', false, 'completed', null],
    ['max_tokens', false, 'incomplete', 'max_output_tokens'],
    ['context_window_exceeded', false, 'incomplete', 'max_output_tokens'],
    ['pause_turn', false, 'incomplete', 'max_output_tokens'],
    ['refusal', false, 'incomplete', 'content_filter'],
    ['refusal', true, 'completed', null],
  ];
  for (const [stopReason, refusalPart, status, reason] of cases) {
    it(`${stopReason}${refusalPart ? ' with a refusal part' : ''} → ${status}`, () => {
      const res: HubResponse = {
        id: 'x',
        model: 'm',
        output: [{ type: 'message', role: 'assistant', content: [refusalPart ? { type: 'refusal', text: 'no' } : { type: 'text', text: 'hi' }] }],
        stopReason,
      };
      const body = responsesCodec.encodeResponse(res, { model: 'p/m', created: 1 });
      expect(body.status).toBe(status);
      expect(body.incomplete_details).toEqual(reason ? { reason } : null);
    });
  }

  it('round-trips its own output through decodeResponse', () => {
    const fx = jsonFixture<{ hub: HubResponse; ctx: ResponseContext }>('response-encode', 'from-anthropic.json');
    const back = responsesCodec.decodeResponse(responsesCodec.encodeResponse(fx.hub, fx.ctx));
    expect(back.output).toEqual(fx.hub.output);
    expect(back.stopReason).toBe(fx.hub.stopReason);
    expect(back.usage).toEqual({ ...fx.hub.usage, reasoningTokens: 0 });
  });
});
