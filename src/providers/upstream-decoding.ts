/**
 * Answers an upstream compressed although svc-proxy never asked (undici sends no Accept-Encoding,
 * and HTTP lets a server pick any coding then; some gateways gzip everything, and a fixed
 * `accept-encoding` header asks for it): decoded as they arrive, so every reader downstream (the
 * relays, the converters, the logs, the client) sees the plain bytes, a streamed answer still
 * chunk by chunk. Reading stays bounded by the readers' own limits, which count decoded bytes. A
 * coding that cannot be decoded is an `upstream_invalid_response` before anything is read.
 */
import { pipeline, Transform, type Duplex, type Readable, type TransformCallback } from 'node:stream';
import * as zlib from 'node:zlib';
import { displayOrigin } from './base-url.js';
import { markUndecodable, UpstreamError } from './upstream-error.js';

type Factory = () => Duplex;

// a body the HTTP framing says is complete is taken as it is, as browsers and fetch do: a gzip
// stream without its trailer is not an error here, nor is an empty body labelled gzip
const LENIENT = { finishFlush: zlib.constants.Z_SYNC_FLUSH };

// zstd arrived in Node 22.15 and 23.8
const createZstd = (zlib as unknown as { createZstdDecompress?: () => Duplex }).createZstdDecompress;

const DECODERS: Record<string, Factory | undefined> = {
  gzip: () => zlib.createGunzip(LENIENT),
  'x-gzip': () => zlib.createGunzip(LENIENT),
  deflate: () => new EitherDeflate(),
  br: () => zlib.createBrotliDecompress({ finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH }),
  zstd: createZstd,
};

/**
 * `deflate` as servers send it: HTTP means the zlib-wrapped stream, but some servers send the raw
 * deflate data, and browsers and undici's fetch look at the first two bytes and take either. A
 * zlib header names method 8 in its low nibble and, read as one 16-bit number, is a multiple of 31.
 */
class EitherDeflate extends Transform {
  private inner: zlib.Inflate | zlib.InflateRaw | undefined;
  /** The first byte, while it came alone. */
  private head: Buffer | undefined;

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    let bytes = chunk;
    if (this.inner === undefined) {
      if (this.head !== undefined) bytes = Buffer.concat([this.head, chunk]);
      if (bytes.length < 2) {
        this.head = bytes;
        done();
        return;
      }
      this.head = undefined;
      this.begin((bytes[0]! & 0x0f) === 8 && ((bytes[0]! << 8) | bytes[1]!) % 31 === 0);
    }
    this.inner!.write(bytes, (err) => done(err ?? undefined));
  }

  override _flush(done: TransformCallback): void {
    const inner = this.inner ?? this.begin(false);
    if (this.head !== undefined) inner.write(this.head);
    inner.once('end', () => done());
    inner.end();
  }

  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    this.inner?.destroy();
    done(err);
  }

  private begin(wrapped: boolean): zlib.Inflate | zlib.InflateRaw {
    const inner = wrapped ? zlib.createInflate(LENIENT) : zlib.createInflateRaw(LENIENT);
    inner.on('data', (piece: Buffer) => this.push(piece));
    // zlib's own error (with its errno) is this stream's: the reader learns the data was bad
    inner.on('error', (err) => this.destroy(err));
    this.inner = inner;
    return inner;
  }
}

/** The codings of a Content-Encoding header, in the order they were applied. */
function codingsOf(header: string | string[]): string[] {
  const joined = Array.isArray(header) ? header.join(',') : header;
  return joined
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
}

/**
 * The body as the upstream meant it. `body` is returned as it is when there is nothing to decode;
 * otherwise the decoder's output, which ends or fails with it and, when destroyed (a client gone,
 * an idle watch), destroys it too, so the connection is not left half read.
 */
export function decodedBody(body: Readable, header: string | string[], url: string): Readable {
  const codings = codingsOf(header);
  if (codings.length === 0) return body;
  const factories = codings.map((coding) => {
    const factory = DECODERS[coding];
    if (factory) return { coding, factory };
    body.destroy();
    const why = coding === 'zstd' ? ` (zstd needs Node 22.15 or later; this daemon runs on Node ${process.versions.node})` : '';
    throw new UpstreamError('upstream_invalid_response', `${displayOrigin(url)} answered with Content-Encoding "${coding.slice(0, 40)}", which svc-proxy cannot decode${why}.`);
  });
  let sourceFailure: unknown;
  body.on('error', (err) => {
    sourceFailure = err;
  });
  let decoded: Readable = body;
  for (let i = factories.length - 1; i >= 0; i--) {
    const { coding, factory } = factories[i]!;
    const decoder = factory();
    // registered before pipeline's own. zlib's own errors carry its errno; the body's failure
    // passed on, or a reader's destroy (an idle watch), are not the data's fault
    decoder.on('error', (err: NodeJS.ErrnoException) => {
      if (err !== sourceFailure && typeof err.errno === 'number') markUndecodable(err, coding);
    });
    // each stage fails, ends and is destroyed with its neighbours; errors reach readers through the last
    pipeline(decoded, decoder, ignore);
    decoded = decoder;
  }
  return decoded;
}

function ignore(): void {}
