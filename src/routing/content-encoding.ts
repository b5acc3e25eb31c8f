/**
 * Request bodies a client compressed (`Content-Encoding: gzip`, `deflate`, `br`, `zstd`, or a list
 * of them, applied in order): decoded before anything reads them, so passthrough sends the plain
 * JSON upstream (the upstream never sees the client's encoding header). Decoding runs in libuv's
 * thread pool, not on the event loop, and stops at the body limit, so a small body that expands
 * to gigabytes (a "zip bomb") is a 413 like any other large body.
 */
import * as zlib from 'node:zlib';
import { ProtocolError } from '../protocols/errors.js';

type Decoder = (buf: Buffer, options: zlib.ZlibOptions | zlib.BrotliOptions, done: (err: Error | null, out: Buffer) => void) => void;

// zstd arrived in Node 22.15 and 23.8; on older Nodes a zstd body is refused with that reason
const zstdDecompress = (zlib as unknown as { zstdDecompress?: Decoder }).zstdDecompress;

/** deflate per HTTP is zlib-wrapped; some clients send raw deflate, which inflate refuses at once. */
const inflateEither: Decoder = (buf, options, done) =>
  zlib.inflate(buf, options, (err, out) => (err && (err as NodeJS.ErrnoException).code === 'Z_DATA_ERROR' ? zlib.inflateRaw(buf, options, done) : done(err, out)));

const DECODERS: Record<string, Decoder | undefined> = {
  gzip: zlib.gunzip,
  'x-gzip': zlib.gunzip,
  deflate: inflateEither,
  br: zlib.brotliDecompress,
  zstd: zstdDecompress,
};

const SUPPORTED = Object.keys(DECODERS).filter((name) => DECODERS[name] !== undefined && name !== 'x-gzip');

function unsupported(coding: string): ProtocolError {
  const why = coding === 'zstd' ? ` (zstd needs Node 22.15 or later; this daemon runs on Node ${process.versions.node})` : '';
  return new ProtocolError(415, 'unsupported_content_encoding', `Content-Encoding "${coding.slice(0, 40)}" is not supported${why}. Send the body uncompressed, or as ${SUPPORTED.join(', ')}.`);
}

function decodeOne(buf: Buffer, coding: string, limit: number): Promise<Buffer> {
  const decoder = DECODERS[coding];
  if (!decoder) return Promise.reject(unsupported(coding));
  return new Promise((resolve, reject) => {
    decoder(buf, { maxOutputLength: limit }, (err, out) => {
      if (!err) return resolve(out);
      if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') return reject(new ProtocolError(413, 'request_too_large', `Request body is larger than the limit of ${limit} bytes (settings.bodyLimitBytes) once decompressed.`));
      reject(new ProtocolError(400, 'invalid_content_encoding', `The request body is not valid ${coding} data, as its Content-Encoding says (${err.message}).`));
    });
  });
}

/** The body as the client meant it: `raw` decoded by each coding of `header`, last applied first. */
export async function decodeContent(raw: Buffer, header: string, limit: number): Promise<Buffer> {
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  let body = raw;
  for (let i = codings.length - 1; i >= 0; i--) body = await decodeOne(body, codings[i], limit);
  return body;
}
