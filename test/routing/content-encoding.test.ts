import * as zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../src/protocols/errors.js';
import { decodeContent } from '../../src/routing/content-encoding.js';

const JSON_BODY = Buffer.from(JSON.stringify({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi '.repeat(500) }] }));
const LIMIT = 1024 * 1024;
const hasZstd = typeof (zlib as { zstdCompressSync?: unknown }).zstdCompressSync === 'function';

async function refusal(p: Promise<unknown>): Promise<ProtocolError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ProtocolError);
  return err as ProtocolError;
}

describe('decodeContent', () => {
  it.each([
    ['gzip', zlib.gzipSync(JSON_BODY)],
    ['x-gzip', zlib.gzipSync(JSON_BODY)],
    ['deflate', zlib.deflateSync(JSON_BODY)],
    ['deflate', zlib.deflateRawSync(JSON_BODY)], // raw deflate, as some clients send it
    ['br', zlib.brotliCompressSync(JSON_BODY)],
    ['GZip', zlib.gzipSync(JSON_BODY)],
    ['identity', JSON_BODY],
    ['gzip, br', zlib.brotliCompressSync(zlib.gzipSync(JSON_BODY))], // applied in order, undone last first
    ['identity, gzip', zlib.gzipSync(JSON_BODY)],
  ])('decodes %s', async (header, body) => {
    expect((await decodeContent(body, header, LIMIT)).equals(JSON_BODY)).toBe(true);
  });

  it('refuses a coding it does not know with 415, naming what it takes', async () => {
    const err = await refusal(decodeContent(JSON_BODY, 'compress', LIMIT));
    expect([err.status, err.code]).toEqual([415, 'unsupported_content_encoding']);
    expect(err.message).toBe(`Content-Encoding "compress" is not supported. Send the body uncompressed, or as gzip, deflate, br${hasZstd ? ', zstd' : ''}.`);
  });

  it.runIf(!hasZstd)('refuses zstd on a Node without it, saying which Node has it', async () => {
    const err = await refusal(decodeContent(JSON_BODY, 'zstd', LIMIT));
    expect([err.status, err.code]).toEqual([415, 'unsupported_content_encoding']);
    expect(err.message).toContain(`zstd needs Node 22.15 or later; this daemon runs on Node ${process.versions.node}`);
  });

  it.runIf(hasZstd)('decodes zstd on a Node that has it', async () => {
    const compress = (zlib as unknown as { zstdCompressSync(b: Buffer): Buffer }).zstdCompressSync;
    expect((await decodeContent(compress(JSON_BODY), 'zstd', LIMIT)).equals(JSON_BODY)).toBe(true);
  });

  it('a body that is not what its Content-Encoding says is a 400', async () => {
    const err = await refusal(decodeContent(JSON_BODY, 'gzip', LIMIT));
    expect([err.status, err.code]).toEqual([400, 'invalid_content_encoding']);
    expect(err.message).toMatch(/^The request body is not valid gzip data, as its Content-Encoding says \(/);
    const truncated = zlib.brotliCompressSync(JSON_BODY).subarray(0, 20);
    expect((await refusal(decodeContent(truncated, 'br', LIMIT))).code).toBe('invalid_content_encoding');
  });

  it('stops at the body limit: a small body that expands past it is a 413', async () => {
    const bomb = zlib.gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20)); // ~50 KB that would be 50 MB
    expect(bomb.length).toBeLessThan(100 * 1024);
    const err = await refusal(decodeContent(bomb, 'gzip', LIMIT));
    expect([err.status, err.code]).toEqual([413, 'request_too_large']);
    expect(err.message).toBe(`Request body is larger than the limit of ${LIMIT} bytes (settings.bodyLimitBytes) once decompressed.`);
  });
});
