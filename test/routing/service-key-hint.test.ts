/** The cheap `sk-svc` search of each passthrough read answers exactly as a plain search does. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { holdsServiceKeyHint } from '../../src/routing/service-key-hint.js';

const plain = (text: string): boolean => Buffer.from(text, 'latin1').indexOf('sk-svc') !== -1;

describe('holdsServiceKeyHint', () => {
  it('finds sk-svc at the start, the end and between, and nothing that only resembles it', () => {
    for (const text of ['sk-svc', 'sk-svc-proxy-Ab', 'data: sk-svc', 'vvvv sk-svc', 'vsk-svcv', 'event: x\ndata: {"t":"sk-svc-proxy-"}\n\n']) expect(holdsServiceKeyHint(Buffer.from(text)), text).toBe(true);
    for (const text of ['', 'v', 'sk-sv', 'k-svc', 'sk-svC', 'sk_svc', 'sksvc', 'sk-s vc', 'event: content_block_delta\ndata: {"delta":"over the river"}\n\n']) expect(holdsServiceKeyHint(Buffer.from(text)), text).toBe(false);
  });

  it('property: answers as a plain search, on text dense in the hint’s bytes', () => {
    const dense = fc.array(fc.constantFrom('s', 'k', '-', 'v', 'c', 'sk-', 'svc', 'sk-svc', 'x', '\n'), { maxLength: 40 }).map((parts) => parts.join(''));
    fc.assert(
      fc.property(dense, (text) => {
        expect(holdsServiceKeyHint(Buffer.from(text, 'latin1'))).toBe(plain(text));
      }),
      { numRuns: 5000 },
    );
  });

  it('looks only inside the Buffer it is given (a slice of a larger one)', () => {
    const whole = Buffer.from('sk-svc|sk-svc');
    expect(holdsServiceKeyHint(whole.subarray(1, 12))).toBe(false);
    expect(holdsServiceKeyHint(whole.subarray(0, 6))).toBe(true);
  });
});
