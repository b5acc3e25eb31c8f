/**
 * zstd where Node's zlib has none (before 22.15 and 23.8): fzstd, a small pure-JS decoder, loaded
 * when first needed (not at daemon start). Node's own zstd is used wherever it exists. fzstd sizes
 * a frame's window from its header at once, so a header is read first: a window past libzstd's
 * default limit (128 MiB, which Node's own zstd keeps too) is refused as that would be, not
 * allocated. Output comes block by block (at most 128 KiB each), so readers count it as it comes.
 */
import { createRequire } from 'node:module';
import { Transform, type TransformCallback } from 'node:stream';
import type { Decompress } from 'fzstd';

/** libzstd's ZSTD_WINDOWLOG_LIMIT_DEFAULT (27): the largest window it decodes unless told otherwise. */
const MAX_WINDOW = 2 ** 27;

type Fzstd = typeof import('fzstd');
let fzstd: Fzstd | undefined;
const load = (): Fzstd => (fzstd ??= createRequire(import.meta.url)('fzstd') as Fzstd);

/** fzstd's own state (0.1.1, pinned): `s` the frame being read, or bytes still to skip; `c` the bytes it holds back. */
interface DecoderState {
  s?: number | object;
  c: Uint8Array[];
}

export interface ZstdFrame {
  /** The window the frame needs. */
  window: number;
  /** The decoded size the header declares, where it declares one. */
  contentSize?: number;
}

/** A zstd frame header at the start of `head` (magic, descriptor, window, dictionary id, content size); undefined when short, or no zstd frame. */
function frameHeader(head: Uint8Array): ZstdFrame | undefined {
  if (head.length < 6 || head[0] !== 0x28 || head[1] !== 0xb5 || head[2] !== 0x2f || head[3] !== 0xfd) return undefined;
  const descriptor = head[4]!;
  const single = (descriptor >> 5) & 1;
  const fcsFlag = descriptor >> 6;
  const at = 5 + (single ? 0 : 1) + [0, 1, 2, 4][descriptor & 3]!;
  const size = fcsFlag ? 1 << fcsFlag : single;
  let contentSize: number | undefined;
  if (size > 0) {
    if (head.length < at + size) return undefined;
    contentSize = fcsFlag === 1 ? 256 : 0;
    for (let i = 0; i < size; i++) contentSize += head[at + i]! * 2 ** (8 * i);
  }
  if (single) return { window: contentSize!, contentSize };
  const exponent = 10 + (head[5]! >> 3);
  const base = 2 ** exponent;
  return { window: base + (base / 8) * (head[5]! & 7), ...(contentSize !== undefined ? { contentSize } : {}) };
}

/** An error of the zstd data itself, as zlib's carry an errno (readers tell them from a failed source by it). */
function dataError(message: string): Error {
  return Object.assign(new Error(message), { errno: -3, code: 'Z_DATA_ERROR' });
}

/**
 * A decoder handing each decoded block to `ondata`; `onFrame` sees each frame's header before
 * fzstd does. What either throws comes out of `push` as it is; anything fzstd throws (bad data)
 * comes out as a `dataError`.
 */
export function zstdDecoder(ondata: (block: Buffer) => void, onFrame?: (frame: ZstdFrame) => void): Pick<Decompress, 'push'> {
  // thrown by this file or a callback, through fzstd's own frames: passed on as they are
  const own = new WeakSet<object>();
  const ours = <T>(run: () => T): T => {
    try {
      return run();
    } catch (err) {
      if (typeof err === 'object' && err !== null) own.add(err);
      throw err;
    }
  };
  const decoder = new (load().Decompress)((block) => {
    if (block.length > 0) ours(() => ondata(Buffer.from(block.buffer, block.byteOffset, block.length)));
  });
  const state = decoder as unknown as DecoderState;
  const push = decoder.push.bind(decoder);
  const fzstdPush = (chunk: Uint8Array, final?: boolean): unknown => {
    try {
      return push(chunk, final);
    } catch (err) {
      if (typeof err === 'object' && err !== null && own.has(err)) throw err;
      throw ours(() => {
        throw dataError(`invalid zstd data: ${err instanceof Error ? err.message : String(err)}`);
      });
    }
  };
  // fzstd pushes the rest of a chunk to itself after each frame: this sees every header
  decoder.push = (chunk: Uint8Array, final?: boolean) => {
    if (typeof state.s !== 'object') {
      const rest = typeof state.s === 'number' && state.s > 0 ? chunk.subarray(Math.min(chunk.length, state.s)) : chunk;
      const head = state.c.length > 0 ? Buffer.concat([...state.c, rest]) : rest;
      const frame = frameHeader(head.subarray(0, 18));
      if (frame) {
        ours(() => {
          if (frame.window > MAX_WINDOW) throw dataError(`zstd frame needs a ${frame.window}-byte window, more than the ${MAX_WINDOW} bytes decoded`);
          onFrame?.(frame);
        });
      }
    }
    return fzstdPush(chunk, final);
  };
  return decoder;
}

/** A zstd stream decoded as it comes, for a Node without zlib's createZstdDecompress. */
export function createZstdFallback(): Transform {
  let decoder: Pick<Decompress, 'push'> | undefined;
  return new Transform({
    transform(this: Transform, chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback) {
      try {
        decoder ??= zstdDecoder((block) => {
          // a reader stopped it (a limit reached): the rest of a chunk is not decoded for nothing
          if (this.destroyed) throw new Error('zstd stream destroyed');
          this.push(block);
        });
        decoder.push(chunk);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
    flush(this: Transform, done: TransformCallback) {
      try {
        // an empty body is no error, as for gzip
        if (decoder) decoder.push(new Uint8Array(0), true);
        done();
      } catch (err) {
        done(err as Error);
      }
    },
  });
}

/** A slice of the body decoded at a time, the event loop let run between. */
const ZSTD_SLICE = 64 * 1024;

/** zstd by fzstd, failing as zlib does: past `maxOutputLength` with ERR_BUFFER_TOO_LARGE, as it goes. */
export function zstdDecompressFallback(buf: Buffer, options: { maxOutputLength?: number }, done: (err: Error | null, out: Buffer) => void): void {
  const limit = options.maxOutputLength ?? Infinity;
  const tooLarge = () => Object.assign(new RangeError(`Cannot create a Buffer larger than ${limit} bytes`), { code: 'ERR_BUFFER_TOO_LARGE' });
  const blocks: Buffer[] = [];
  let size = 0;
  const run = async (): Promise<Buffer> => {
    const decoder = zstdDecoder(
      (block) => {
        size += block.length;
        if (size > limit) throw tooLarge();
        blocks.push(block);
      },
      // a frame that says it is larger than the limit is refused before it is decoded
      (frame) => {
        if (frame.contentSize !== undefined && size + frame.contentSize > limit) throw tooLarge();
      },
    );
    for (let at = 0; at < buf.length || at === 0; at += ZSTD_SLICE) {
      if (at > 0) await new Promise((resolve) => setImmediate(resolve));
      const end = Math.min(buf.length, at + ZSTD_SLICE);
      decoder.push(buf.subarray(at, end), end === buf.length);
    }
    return Buffer.concat(blocks, size);
  };
  run().then(
    (out) => done(null, out),
    (err: Error) => done(err, Buffer.alloc(0)),
  );
}
