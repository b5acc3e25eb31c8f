/**
 * A credential or a service key written across deltas of a converted stream (text, refusal,
 * reasoning, tool-call arguments): the hold keeps back the end of a delta that may start one, so
 * the mask, which sees one delta at a time, meets it whole. Each block has its own hold.
 */
import { describe, expect, it } from 'vitest';
import type { HubEvent } from '../../src/protocols/hub.js';
import { maskEchoedText } from '../../src/routing/echoed-secrets.js';
import { secretForms } from '../../src/util/secret-forms.js';
import { HELD_RUN_LIMIT } from '../../src/routing/service-key-tail.js';
import { SplitSecretHold, type ModelDelta } from '../../src/routing/split-secret.js';

const SECRET = 'sk-ant-api03-split-key-Zq_Xw';
const SERVICE_KEY = 'sk-svc-proxy-3kTQm8VdPa1xZr9yLw2bNc5Hj7Fe4Gs6AbCdEfGhIjK';
const KINDS = ['text_delta', 'refusal_delta', 'reasoning_delta', 'arguments_delta'] as const;

const delta = (type: ModelDelta['type'], text: string, index = 0): ModelDelta => (type === 'arguments_delta' ? { type, index, json: text } : { type, index, text });
const textOf = (ev: ModelDelta): string => (ev.type === 'arguments_delta' ? ev.json : ev.text);

/** What the client reads: each delta let through masked on its own (as the relay's flush masks), then what the block's end gives up. */
function relay(deltas: string[], type: ModelDelta['type'] = 'text_delta', secret: string | undefined = SECRET): { pieces: string[]; joined: string } {
  const forms = secret === undefined ? undefined : secretForms(secret);
  const hold = new SplitSecretHold(forms);
  const pieces: string[] = [];
  for (const d of deltas) {
    const out = hold.pass(delta(type, d));
    if (out !== undefined) {
      expect(out.type).toBe(type);
      pieces.push(maskEchoedText(textOf(out), forms));
    }
  }
  const rest = hold.release(0);
  if (rest !== undefined) pieces.push(maskEchoedText(textOf(rest), forms));
  expect(hold.holding).toBe(false);
  return { pieces, joined: pieces.join('') };
}

describe('a secret split across deltas', () => {
  for (const type of KINDS) {
    for (const [name, secret] of [
      ['the credential', SECRET],
      ['a service key', SERVICE_KEY],
    ] as const) {
      it(`${type}: ${name} is masked wherever it is cut in two, and in three`, () => {
        const text = `your key is ${secret}, keep it`;
        const start = text.indexOf(secret);
        for (let cut = start; cut <= start + secret.length; cut++) {
          expect(relay([text.slice(0, cut), text.slice(cut)], type).joined, `cut at ${cut - start}`).toBe('your key is [REDACTED], keep it');
        }
        for (let a = 1; a < secret.length; a += 2) {
          for (let b = a + 1; b < secret.length; b++) {
            expect(relay([`x ${secret.slice(0, a)}`, secret.slice(a, b), `${secret.slice(b)} y`], type).joined, `cuts at ${a}, ${b}`).toBe('x [REDACTED] y');
          }
        }
        expect(relay([...`>${secret}<`], type).joined).toBe('>[REDACTED]<');
      });
    }
  }

  it('a service key is masked also where there is no credential (a local server)', () => {
    const text = `{"key":"${SERVICE_KEY}"}`;
    for (let cut = 1; cut < text.length; cut++) {
      expect(relay([text.slice(0, cut), text.slice(cut)], 'arguments_delta', undefined).joined, `cut at ${cut}`).toBe('{"key":"[REDACTED]"}');
    }
  });

  it('a service key whose run the block ends in is masked when the block ends', () => {
    expect(relay(['key: sk-svc-pro', 'xy-3kTQm8VdPa1xZr9yLw2b'], 'reasoning_delta').joined).toBe('key: [REDACTED]');
  });

  it('gives back held text that turns out to be no secret, in order and whole', () => {
    const deltas = ['hello sk-ant-', 'other things', ' and sk', '-svc-pro', 'bably', ' sk-svc-proxy-abc', ' and s'];
    const { pieces, joined } = relay(deltas);
    expect(joined).toBe(deltas.join(''));
    expect(pieces[0]).toBe('hello ');
  });

  it('holds nothing when the end cannot start a secret (the same event goes through)', () => {
    const hold = new SplitSecretHold([SECRET]);
    for (const text of ['an ordinary delta, ending in x', 'the cat', '{"a": 1}', 'word.\n']) {
      const ev = delta('text_delta', text);
      expect(hold.pass(ev)).toBe(ev);
    }
    expect(hold.holding).toBe(false);
  });

  it('lets a run far longer than a key go without waiting for its end', () => {
    const hold = new SplitSecretHold(undefined);
    const run = 'A'.repeat(HELD_RUN_LIMIT);
    expect(textOf(hold.pass(delta('text_delta', `x sk-svc-proxy-${run}`))!)).toBe(`x sk-svc-proxy-${run}`);
    expect(hold.holding).toBe(false);
  });

  it('keeps a hold per block: deltas of other blocks between do not give it up, its end does', () => {
    const hold = new SplitSecretHold([SECRET]);
    expect(hold.pass(delta('reasoning_delta', 'think sk-ant', 0))).toEqual(delta('reasoning_delta', 'think ', 0));
    expect(hold.pass(delta('arguments_delta', '{"k":"sk-svc-pro', 1))).toEqual(delta('arguments_delta', '{"k":"', 1));
    expect(hold.pass(delta('arguments_delta', `x`, 2))).toEqual(delta('arguments_delta', 'x', 2));
    expect(textOf(hold.pass(delta('arguments_delta', `${SERVICE_KEY.slice(10)}"}`, 1))!)).toBe(`${SERVICE_KEY}"}`);
    expect(hold.pass(delta('reasoning_delta', SECRET.slice(6), 0))).toEqual(delta('reasoning_delta', SECRET, 0));
    expect(hold.pass(delta('text_delta', 'a sk-a', 3))).toEqual(delta('text_delta', 'a ', 3));
    expect(hold.pass(delta('reasoning_delta', 'and sk-', 4))).toEqual(delta('reasoning_delta', 'and ', 4));
    expect(hold.release(2)).toBeUndefined();
    expect(hold.release(3)).toEqual(delta('text_delta', 'sk-a', 3));
    expect(hold.releaseAll()).toEqual([delta('reasoning_delta', 'sk-', 4)]);
    expect(hold.holding).toBe(false);
  });

  it('a text delta with logprobs still goes out when all its text is held', () => {
    const hold = new SplitSecretHold([SECRET]);
    const logprobs = [{ token: 'sk', logprob: -0.1, bytes: [115, 107], top: [] }];
    const ev: HubEvent = { type: 'text_delta', index: 0, text: 'sk', logprobs };
    expect(hold.pass(ev)).toEqual({ type: 'text_delta', index: 0, text: '', logprobs });
    expect(hold.pass(delta('reasoning_delta', 'sk', 1))).toBeUndefined();
  });
});
