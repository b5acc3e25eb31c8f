import { PassThrough, type Readable } from 'node:stream';
import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { decodedBody } from '../../src/providers/upstream-decoding.js';
import { toUpstreamError, undecodableCoding, UpstreamError } from '../../src/providers/upstream-error.js';
import { answerReadFailure, bodyErrorCode } from '../../src/routing/upstream-body.js';

const URL = 'https://gw.example/v1/chat/completions';

function read(body: Readable): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    body.on('data', (c: Buffer) => chunks.push(c));
    body.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    body.on('error', reject);
  });
}

function failure(body: Readable): Promise<unknown> {
  return read(body).then(
    () => undefined,
    (err: unknown) => err,
  );
}

describe('decodedBody', () => {
  it('returns the body itself when there is nothing to decode', () => {
    const body = new PassThrough();
    expect(decodedBody(body, 'identity', URL)).toBe(body);
    expect(decodedBody(body, ' , identity', URL)).toBe(body);
  });

  it.each([
    ['gzip', zlib.gzipSync],
    ['x-gzip', zlib.gzipSync],
    ['deflate', zlib.deflateSync],
    ['br', zlib.brotliCompressSync],
    ['GZIP', zlib.gzipSync],
  ] as const)('decodes %s', async (coding, compress) => {
    const body = new PassThrough();
    const out = decodedBody(body, coding, URL);
    body.end(compress(Buffer.from('{"answer":"plain"}')));
    expect(await read(out)).toBe('{"answer":"plain"}');
  });

  it('decodes codings applied one after another, last applied first', async () => {
    const body = new PassThrough();
    const out = decodedBody(body, ['gzip', 'br'], URL);
    body.end(zlib.brotliCompressSync(zlib.gzipSync(Buffer.from('twice'))));
    expect(await read(out)).toBe('twice');
  });

  it.each([
    ['gzip', () => zlib.createGzip()],
    ['deflate', () => zlib.createDeflateRaw()],
  ] as const)('hands on each flushed piece of a %s stream as it comes, before the body ends', async (coding, compressor) => {
    const gz = compressor();
    const compressed: Buffer[] = [];
    gz.on('data', (c: Buffer) => compressed.push(c));
    const flushed = async (text: string): Promise<Buffer> => {
      gz.write(text);
      await new Promise<void>((resolve) => gz.flush(() => resolve()));
      return Buffer.concat(compressed.splice(0));
    };
    const body = new PassThrough();
    const out = decodedBody(body, coding, URL);
    const seen: string[] = [];
    out.on('data', (c: Buffer) => seen.push(c.toString()));
    body.write(await flushed('data: {"n":1}\n\n'));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.join('')).toBe('data: {"n":1}\n\n');
    body.write(await flushed('data: {"n":2}\n\n'));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.join('')).toBe('data: {"n":1}\n\ndata: {"n":2}\n\n');
  });

  it('takes a body the HTTP framing says is complete: no gzip trailer, or empty, is not an error', async () => {
    const cut = zlib.gzipSync(Buffer.from('almost all of it'));
    const body = new PassThrough();
    const out = decodedBody(body, 'gzip', URL);
    body.end(cut.subarray(0, cut.length - 8));
    expect(await read(out)).toBe('almost all of it');
    const empty = new PassThrough();
    const none = decodedBody(empty, 'gzip', URL);
    empty.end();
    expect(await read(none)).toBe('');
  });

  it('data that is not what its coding says fails as undecodable, which maps to upstream_invalid_response', async () => {
    const body = new PassThrough();
    const out = decodedBody(body, 'gzip', URL);
    body.end('{"plain":"json"}');
    const err = await failure(out);
    expect(undecodableCoding(err)).toBe('gzip');
    expect(bodyErrorCode(err)).toBe('upstream_invalid_response');
    const mapped = toUpstreamError(err, URL);
    expect(mapped.code).toBe('upstream_invalid_response');
    expect(mapped.message).toMatch(/^https:\/\/gw\.example sent a gzip answer that could not be decoded/);
    const client = answerReadFailure('gw', err, undefined);
    expect(client).toMatchObject({ status: 502, code: 'upstream_invalid_response' });
    expect(client.message).toMatch(/^gw: the upstream's gzip-compressed answer could not be decoded \(/);
  });

  it('takes deflate raw as well as zlib-wrapped (as browsers do), whatever bytes the header comes in', async () => {
    const text = '{"answer":"' + 'x'.repeat(5000) + '"}';
    for (const compress of [zlib.deflateRawSync, zlib.deflateSync]) {
      const packed = compress(Buffer.from(text));
      // cut after the first byte, and after every 97th: the header may come alone
      for (const cuts of [[1], [97, 194, 291]]) {
        const body = new PassThrough();
        const out = decodedBody(body, 'deflate', URL);
        let from = 0;
        for (const cut of [...cuts, packed.length]) {
          body.write(packed.subarray(from, cut));
          from = cut;
        }
        body.end();
        expect(await read(out), `${compress.name} cut at ${cuts.join(',')}`).toBe(text);
      }
    }
    const empty = new PassThrough();
    const emptyOut = decodedBody(empty, 'deflate', URL);
    empty.end();
    expect(await read(emptyOut)).toBe('');
  });

  it('deflate data that is neither form fails as undecodable deflate', async () => {
    const body = new PassThrough();
    const out = decodedBody(body, 'deflate', URL);
    body.end(Buffer.from([0xff, 0xff, 0xff, 0xff, 0x00, 0x01]));
    const err = await failure(out);
    expect(undecodableCoding(err)).toBe('deflate');
    expect(bodyErrorCode(err)).toBe('upstream_invalid_response');
  });

  it("the body's own failure passes through as itself, not as undecodable", async () => {
    const body = new PassThrough();
    const out = decodedBody(body, 'br', URL);
    body.write(zlib.brotliCompressSync(Buffer.from('start')).subarray(0, 3));
    const reset = Object.assign(new Error('socket hang up'), { code: 'UND_ERR_SOCKET', errno: -104 });
    body.destroy(reset);
    const err = await failure(out);
    expect(err).toBe(reset);
    expect(undecodableCoding(err)).toBeUndefined();
    expect(bodyErrorCode(err)).toBe('upstream_reset');
  });

  it('a reader destroying the decoded body (an idle watch, a client gone) destroys the upstream body too, with no undecodable mark', async () => {
    const body = new PassThrough();
    const out = decodedBody(body, 'gzip', URL);
    const idle = Object.assign(new Error('upstream idle timeout'), { code: 'upstream_timeout' });
    const seen = failure(out);
    out.destroy(idle);
    expect(await seen).toBe(idle);
    expect(bodyErrorCode(idle)).toBe('upstream_timeout');
    await new Promise((r) => setImmediate(r));
    expect(body.destroyed).toBe(true);
  });

  it('a coding it cannot decode is refused before reading, naming it, and the body is dropped', () => {
    const body = new PassThrough();
    let thrown: unknown;
    try {
      decodedBody(body, 'gzip, compress', URL);
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(UpstreamError);
    expect((thrown as UpstreamError).code).toBe('upstream_invalid_response');
    expect((thrown as UpstreamError).message).toBe('https://gw.example answered with Content-Encoding "compress", which svc-proxy cannot decode.');
    expect(body.destroyed).toBe(true);
  });
});
