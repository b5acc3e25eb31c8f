/**
 * A credential written across text deltas of a converted stream: the hold keeps back the end of a
 * delta that starts it, so the mask, which sees one delta at a time, meets it whole.
 */
import { describe, expect, it } from 'vitest';
import { maskEchoedText } from '../../src/routing/echoed-secrets.js';
import { SplitSecretHold } from '../../src/routing/split-secret.js';

const SECRET = 'sk-ant-api03-split-key-Zq_Xw';

/** What the client gets: each delta let through masked on its own, then whatever is still held. */
function relay(deltas: string[], secret = SECRET): { pieces: string[]; joined: string } {
  const hold = new SplitSecretHold(secret);
  const pieces: string[] = [];
  for (const d of deltas) {
    const text = hold.pass(0, d);
    if (text !== '') pieces.push(maskEchoedText(text, secret));
  }
  if (hold.holding) pieces.push(maskEchoedText(hold.release().text, secret));
  return { pieces, joined: pieces.join('') };
}

describe('a secret split across text deltas', () => {
  it('is masked wherever it is cut in two', () => {
    const text = `your key is ${SECRET}, keep it`;
    const start = text.indexOf(SECRET);
    for (let cut = start; cut <= start + SECRET.length; cut++) {
      const { joined } = relay([text.slice(0, cut), text.slice(cut)]);
      expect(joined, `cut at ${cut - start}`).toBe('your key is [REDACTED], keep it');
    }
  });

  it('is masked wherever it is cut in three, and one character at a time', () => {
    for (let a = 1; a < SECRET.length; a++) {
      for (let b = a + 1; b < SECRET.length; b++) {
        const { joined } = relay([`x ${SECRET.slice(0, a)}`, SECRET.slice(a, b), `${SECRET.slice(b)} y`]);
        expect(joined, `cuts at ${a}, ${b}`).toBe('x [REDACTED] y');
      }
    }
    expect(relay([...`>${SECRET}<`]).joined).toBe('>[REDACTED]<');
  });

  it('gives back held text that turns out to be no secret, in order and whole', () => {
    const deltas = ['hello sk-ant-', 'other things', ' and sk', '-'];
    const { pieces, joined } = relay(deltas);
    expect(joined).toBe(deltas.join(''));
    expect(pieces[0]).toBe('hello ');
  });

  it('holds nothing when the end does not start the secret (the same string goes through)', () => {
    const hold = new SplitSecretHold(SECRET);
    const text = 'an ordinary delta, ending in x';
    expect(hold.pass(0, text)).toBe(text);
    expect(hold.holding).toBe(false);
  });

  it('holds text for its own block: another block makes it go first', () => {
    const hold = new SplitSecretHold(SECRET);
    expect(hold.pass(2, 'a sk-a')).toBe('a ');
    expect(hold.heldFor(2)).toBe(false);
    expect(hold.heldFor(3)).toBe(true);
    expect(hold.release()).toEqual({ index: 2, text: 'sk-a' });
    expect(hold.holding).toBe(false);
  });
});
