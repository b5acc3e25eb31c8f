import { describe, expect, it } from 'vitest';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lazyJsonBody, unparsedMember } from '../../src/protocols/lazy-json.js';
import { SKIP_SIGNATURE_CHECK, signCurrentTurn, validatesThoughtSignatures } from '../../src/providers/gemini-signatures.js';

type Obj = Record<string, unknown>;

const call = (id: string, signature?: string): Obj => ({
  id,
  type: 'function',
  function: { name: 'get_weather', arguments: '{}' },
  ...(signature === undefined ? {} : { extra_content: { google: { thought_signature: signature } } }),
});
const step = (...calls: Obj[]): Obj => ({ role: 'assistant', content: null, tool_calls: calls });
const result = (id: string): Obj => ({ role: 'tool', tool_call_id: id, content: 'sunny' });
const user = (content: string): Obj => ({ role: 'user', content });

function lazy(body: Obj): Obj {
  const raw = Buffer.from(JSON.stringify(body));
  return lazyJsonBody(raw, scanTopLevelMembers(raw)!);
}

function signatures(body: Obj): unknown[][] {
  return (body.messages as Obj[])
    .filter((m) => Array.isArray(m.tool_calls))
    .map((m) => (m.tool_calls as Obj[]).map((c) => (c.extra_content as { google?: { thought_signature?: unknown } } | undefined)?.google?.thought_signature));
}

describe('validatesThoughtSignatures', () => {
  it.each([
    ['gemini-3-pro-preview', true],
    ['gemini-3.5-flash', true],
    ['gemini-10-ultra', true],
    ['gemini-flash-latest', true],
    ['gemini-2.5-flash', false],
    ['gemini-2.0-flash-lite', false],
    ['gemma-3-27b-it', false],
  ])('%s → %s', (model, expected) => {
    expect(validatesThoughtSignatures(model)).toBe(expected);
  });
});

describe('signCurrentTurn', () => {
  it('signs the first call of each unsigned step of the current turn, and nothing before it', () => {
    const body = {
      model: 'gemini-3-pro-preview',
      messages: [user('q1'), step(call('old')), result('old'), user('q2'), step(call('a'), call('b')), result('a'), result('b'), step(call('c', 'sig-c')), result('c'), step(call('d')), result('d')],
    };
    signCurrentTurn(body, 'gemini-3-pro-preview');
    expect(signatures(body)).toEqual([[undefined], [SKIP_SIGNATURE_CHECK, undefined], ['sig-c'], [SKIP_SIGNATURE_CHECK]]);
  });

  it('keeps what else extra_content holds', () => {
    const c = { ...call('a'), extra_content: { google: { other: 1 }, vendor: true } };
    const body = { messages: [user('q'), step(c), result('a')] };
    signCurrentTurn(body, 'gemini-3-flash-preview');
    expect(c.extra_content).toEqual({ google: { other: 1, thought_signature: SKIP_SIGNATURE_CHECK }, vendor: true });
  });

  it('leaves signed turns, models that do not validate, and bodies without calls as they are', () => {
    const signed = { messages: [user('q'), step(call('a', 'sig')), result('a')] };
    signCurrentTurn(signed, 'gemini-3-pro-preview');
    expect(signatures(signed)).toEqual([['sig']]);
    const older = { messages: [user('q'), step(call('a')), result('a')] };
    signCurrentTurn(older, 'gemini-2.5-flash');
    expect(signatures(older)).toEqual([[undefined]]);
    const none = { messages: [user('q')] };
    signCurrentTurn(none, 'gemini-3-pro-preview');
    expect(none).toEqual({ messages: [user('q')] });
  });

  it('a long conversation whose current turn is signed stays unparsed', () => {
    const history = [user('x'.repeat(LAZY_MEMBER_BYTES * 2)), step(call('old')), result('old'), user('q'), step(call('a', 'sig')), result('a')];
    const body = lazy({ model: 'gemini-3-pro-preview', messages: history });
    signCurrentTurn(body, 'gemini-3-pro-preview');
    expect(unparsedMember(body, 'messages')).toBeDefined();
  });

  it('a long conversation with an unsigned current step is read and signed', () => {
    const history = [user('x'.repeat(LAZY_MEMBER_BYTES * 2)), step(call('old')), result('old'), user('q'), step(call('a')), result('a')];
    const body = lazy({ model: 'gemini-3-pro-preview', messages: history });
    signCurrentTurn(body, 'gemini-3-pro-preview');
    expect(signatures(body)).toEqual([[undefined], [SKIP_SIGNATURE_CHECK]]);
  });
});
