import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MultipartError, MultipartModelRewriter, multipartBoundary } from '../../src/routing/multipart-model.js';

const B = '----svcTestBoundary7MA4YWxkTrZu0gW';

function form(parts: Array<{ name: string; value: string | Buffer; filename?: string; type?: string }>, boundary = B): Buffer {
  const pieces: Buffer[] = [];
  for (const p of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${p.name}"`;
    if (p.filename) head += `; filename="${p.filename}"`;
    head += '\r\n';
    if (p.type) head += `Content-Type: ${p.type}\r\n`;
    pieces.push(Buffer.from(`${head}\r\n`), Buffer.isBuffer(p.value) ? p.value : Buffer.from(p.value), Buffer.from('\r\n'));
  }
  pieces.push(Buffer.from(`--${boundary}--\r\n`));
  return Buffer.concat(pieces);
}

/** Feed `chunks`, release with `replacement` when found, forward the rest; returns output and the model read. */
function run(chunks: Buffer[], replacement: string): { out: Buffer; model: string | undefined; delta: number } {
  const rw = new MultipartModelRewriter(B);
  const out: Buffer[] = [];
  let released = false;
  let delta = 0;
  for (const c of chunks) {
    if (released) {
      out.push(c);
      continue;
    }
    if (rw.push(c)) {
      delta = rw.lengthDelta(replacement);
      out.push(...rw.release(replacement));
      released = true;
    }
  }
  return { out: Buffer.concat(out), model: rw.model, delta };
}

// audio bytes that contain CR/LF, dashes and a near-boundary to tempt the scanner
const AUDIO = Buffer.concat([Buffer.from([0, 13, 10, 45, 45, 13, 10, 13, 10]), Buffer.from(`\r\n--${B.slice(0, 10)}`), Buffer.alloc(300, 7)]);

const cases = {
  'model after the file': form([
    { name: 'file', value: AUDIO, filename: 'a.wav', type: 'audio/wav' },
    { name: 'model', value: 'myasr/whisper-large' },
    { name: 'language', value: 'fr' },
  ]),
  'model first': form([
    { name: 'model', value: 'g/whisper' },
    { name: 'file', value: AUDIO, filename: 'a.wav', type: 'audio/wav' },
  ]),
  'unicode model, empty field before': form([
    { name: 'prompt', value: '' },
    { name: 'model', value: 'myasr/modèle-ü' },
  ]),
};

describe('multipartBoundary', () => {
  it('reads quoted and bare boundaries, refuses other types', () => {
    expect(multipartBoundary(`multipart/form-data; boundary=${B}`)).toBe(B);
    expect(multipartBoundary('multipart/form-data; charset=utf-8; boundary="a b"')).toBe('a b');
    expect(multipartBoundary('application/json')).toBeUndefined();
    expect(multipartBoundary('multipart/form-data')).toBeUndefined();
    expect(multipartBoundary(undefined)).toBeUndefined();
  });
});

describe('MultipartModelRewriter', () => {
  for (const [name, body] of Object.entries(cases)) {
    const original = /name="model"\r\n\r\n([^\r]*)\r\n/.exec(body.toString('utf8'))![1]!;
    const expected = Buffer.from(body.toString('latin1').replace(`name="model"\r\n\r\n${Buffer.from(original).toString('latin1')}\r\n`, `name="model"\r\n\r\nwhisper-1\r\n`), 'latin1');

    it(`${name}: one chunk`, () => {
      const r = run([body], 'whisper-1');
      expect(r.model).toBe(original);
      expect(r.out.equals(expected)).toBe(true);
      expect(r.delta).toBe(expected.length - body.length);
    });

    it(`${name}: split at every byte offset`, () => {
      for (let i = 1; i < body.length; i++) {
        const r = run([body.subarray(0, i), body.subarray(i)], 'whisper-1');
        expect(r.model, `split at ${i}`).toBe(original);
        expect(r.out.equals(expected), `split at ${i}`).toBe(true);
      }
    });

    it(`${name}: one byte at a time`, () => {
      const chunks = Array.from({ length: body.length }, (_, i) => body.subarray(i, i + 1));
      const r = run(chunks, 'whisper-1');
      expect(r.model).toBe(original);
      expect(r.out.equals(expected)).toBe(true);
    });
  }

  it('random splits agree (property)', () => {
    const body = cases['model after the file'];
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 1, max: body.length - 1 }), { maxLength: 12 }), (cuts) => {
        const sorted = [...cuts].sort((a, b) => a - b);
        const chunks: Buffer[] = [];
        let prev = 0;
        for (const c of sorted) {
          chunks.push(body.subarray(prev, c));
          prev = c;
        }
        chunks.push(body.subarray(prev));
        const r = run(chunks, 'x');
        expect(r.model).toBe('myasr/whisper-large');
        expect(r.out.length).toBe(body.length + r.delta);
      }),
    );
  });

  it('a form without a model field is an error at its closing delimiter', () => {
    const body = form([{ name: 'file', value: AUDIO, filename: 'a.wav' }]);
    const rw = new MultipartModelRewriter(B);
    expect(() => rw.push(body)).toThrow(MultipartError);
  });

  it('a file part named model is not the model field', () => {
    const body = form([
      { name: 'model', value: 'not-this', filename: 'model.bin' },
      { name: 'model', value: 'p/real' },
    ]);
    expect(run([body], 'real').model).toBe('p/real');
  });

  it('refuses an absurdly long model value', () => {
    const body = form([{ name: 'model', value: 'x'.repeat(10_000) }]);
    expect(() => run([body], 'y')).toThrow(/too long/);
  });
});
