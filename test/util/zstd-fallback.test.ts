/**
 * fzstd in place of zlib's zstd (a Node before 22.15), tested on every Node: the request decoder
 * stops at the limit as it goes, the stream decoder hands on each block as it comes, and bad data
 * or a window past libzstd's default limit fails as data zlib refuses would (an errno).
 */
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { AnswerTooLarge, readAll } from '../../src/providers/read-all.js';
import { createZstdFallback, zstdDecompressFallback } from '../../src/util/zstd-fallback.js';
import { ZSTD_PACKED, ZSTD_TEXT, zstdBlock, zstdBomb, zstdFrame, zstdHeader } from '../fixtures/zstd.js';

const decompress = (buf: Buffer, maxOutputLength?: number) =>
  new Promise<Buffer>((resolve, reject) => zstdDecompressFallback(buf, maxOutputLength === undefined ? {} : { maxOutputLength }, (err, out) => (err ? reject(err) : resolve(out))));

describe('zstdDecompressFallback', () => {
  it('decodes what the zstd CLI compressed, and frames one after another', async () => {
    expect((await decompress(ZSTD_PACKED)).toString()).toBe(ZSTD_TEXT);
    const two = Buffer.concat([ZSTD_PACKED, zstdFrame([{ raw: Buffer.from('!') }])]);
    expect((await decompress(two)).toString()).toBe(ZSTD_TEXT + '!');
  });

  it('stops at maxOutputLength as it decodes, with zlib’s ERR_BUFFER_TOO_LARGE', async () => {
    const bomb = zstdBomb(4000); // ~16 KB that would be 500 MB
    expect(bomb.length).toBeLessThan(20_000);
    const started = performance.now();
    await expect(decompress(bomb, 1024 * 1024)).rejects.toMatchObject({ code: 'ERR_BUFFER_TOO_LARGE' });
    expect(performance.now() - started).toBeLessThan(2000);
    // a frame whose header says it is larger is refused before any of it is decoded
    const declared = Buffer.concat([zstdHeader({ contentSize: 2 * 1024 * 1024 }), zstdBlock({ rle: 0x20, size: 1 }, true)]);
    await expect(decompress(declared, 1024 * 1024)).rejects.toMatchObject({ code: 'ERR_BUFFER_TOO_LARGE' });
  });

  it('bad data, a cut frame, and a window past 128 MiB fail as zlib’s data errors do', async () => {
    for (const bad of [Buffer.from('{"plain":"json"}'), ZSTD_PACKED.subarray(0, 40), zstdFrame([{ raw: Buffer.from('x') }], { windowLog: 28 })]) {
      const err = await decompress(bad).then(() => undefined, (e: unknown) => e);
      expect(err, bad.toString('hex').slice(0, 20)).toMatchObject({ code: 'Z_DATA_ERROR', errno: expect.any(Number) });
    }
  });
});

describe('createZstdFallback', () => {
  it('hands on each block as it comes, before the body ends', async () => {
    const body = new PassThrough();
    const out = body.pipe(createZstdFallback());
    const seen: string[] = [];
    out.on('data', (c: Buffer) => seen.push(c.toString()));
    body.write(Buffer.concat([zstdHeader(), zstdBlock({ raw: Buffer.from('data: {"n":1}\n\n') }, false)]));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.join('')).toBe('data: {"n":1}\n\n');
    body.write(zstdBlock({ raw: Buffer.from('data: {"n":2}\n\n') }, false));
    await new Promise((r) => setTimeout(r, 20));
    expect(seen.join('')).toBe('data: {"n":1}\n\ndata: {"n":2}\n\n');
    body.end(zstdBlock({ raw: Buffer.alloc(0) }, true));
    await new Promise((r) => out.on('end', r));
  });

  it('stops decoding once its reader stops at a limit, within the chunk that passed it', async () => {
    const body = new PassThrough();
    const decoded = body.pipe(createZstdFallback());
    let blocks = 0;
    const push = decoded.push.bind(decoded);
    decoded.push = (chunk: unknown) => (blocks++, push(chunk));
    const read = readAll(decoded, 1024 * 1024).then(() => undefined, (e: unknown) => e);
    body.end(zstdBomb(8000)); // one ~32 KB chunk that would be 1 GB
    expect(await read).toBeInstanceOf(AnswerTooLarge);
    expect(blocks).toBeLessThan(20); // 1 MB is 8 blocks of 128 KiB
  });

  it('decodes a body cut anywhere; bad data fails the stream with an errno', async () => {
    const whole = async (pieces: Buffer[]): Promise<string> => {
      const dec = createZstdFallback();
      const chunks: Buffer[] = [];
      dec.on('data', (c: Buffer) => chunks.push(c));
      const done = new Promise<void>((resolve, reject) => dec.on('end', resolve).on('error', reject));
      for (const p of pieces) dec.write(p);
      dec.end();
      await done;
      return Buffer.concat(chunks).toString();
    };
    const cut = [1, 5, 17, 100, 300].map((n, i, all) => ZSTD_PACKED.subarray(i === 0 ? 0 : all[i - 1], n));
    expect(await whole([...cut, ZSTD_PACKED.subarray(300)])).toBe(ZSTD_TEXT);
    expect(await whole([])).toBe('');
    await expect(whole([Buffer.from('{"plain":"json"}')])).rejects.toMatchObject({ code: 'Z_DATA_ERROR', errno: expect.any(Number) });
  });
});
