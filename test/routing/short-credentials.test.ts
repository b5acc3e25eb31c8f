/**
 * One length rule for a credential echoed whole (MIN_SECRET_LENGTH): a short one that an upstream
 * puts into its model list or its answer is left out of the list and masked in the answer alike,
 * and one below the rule is treated as no secret in both places.
 */
import { describe, expect, it } from 'vitest';
import { post, useHarness } from './harness.js';

const t = useHarness();
/** '_' appears in no id or timestamp, so the credential matches only where it was echoed. */
const LONGEST = 'Qz_5v7x';

function withCredential(credential: string): void {
  const { h } = t;
  h.credentials.set('ca', credential);
  h.mocks.ca.opts.apiKey = credential;
  h.mocks.ca.models = ['plain', `listed-by-${credential}-mistake`];
}

async function listedIds(): Promise<string[]> {
  const r = await fetch(`${t.h.a}/models`, { headers: { authorization: 'Bearer k' } });
  expect(r.status).toBe(200);
  return ((await r.json()) as { data: Array<{ id: string }> }).data.map((m) => m.id);
}

describe('a short credential echoed by the upstream', () => {
  for (let length = 4; length <= 7; length++) {
    const credential = LONGEST.slice(0, length);
    it(`of ${length} characters: left out of the model list, masked in answers passthrough and converted`, async () => {
      const { h } = t;
      withCredential(credential);
      const ids = await listedIds();
      expect(ids).toContain('ca/plain');
      expect(ids.filter((id) => id.startsWith('ca/'))).toEqual(['ca/plain']);

      h.mocks.ca.next({ kind: 'turn', turn: { text: `the key is ${credential}.` } });
      const chat = await post(`${h.a}/chat/completions`, { model: 'ca/plain', messages: [{ role: 'user', content: 'hi' }] });
      expect(chat.status, chat.text).toBe(200);
      expect(chat.json.choices[0].message.content).toBe('the key is [REDACTED].');

      h.mocks.ca.next({ kind: 'turn', turn: { text: `the key is ${credential}.`, stream: { chunk: 1000 } } });
      const messages = await post(`${h.b}/v1/messages`, { model: 'ca/plain', max_tokens: 50, stream: true, messages: [{ role: 'user', content: 'hi' }] });
      expect(messages.status, messages.text).toBe(200);
      expect(messages.text).not.toContain(credential);
      expect(messages.text).toContain('[REDACTED]');
    });
  }

  it('of three characters: no secret in either place (listed, and left in the answer)', async () => {
    const { h } = t;
    const credential = LONGEST.slice(0, 3);
    withCredential(credential);
    expect(await listedIds()).toContain(`ca/listed-by-${credential}-mistake`);

    h.mocks.ca.next({ kind: 'turn', turn: { text: `the key is ${credential}.` } });
    const chat = await post(`${h.a}/chat/completions`, { model: 'ca/plain', messages: [{ role: 'user', content: 'hi' }] });
    expect(chat.json.choices[0].message.content).toBe(`the key is ${credential}.`);
  });
});
