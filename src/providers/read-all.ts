/** Reading a whole body to its end with a size bound. */
import type { Readable } from 'node:stream';

export class AnswerTooLarge extends Error {
  constructor(limit: number) {
    super(`the upstream answer is larger than ${limit} bytes`);
    this.name = 'AnswerTooLarge';
  }
}

/**
 * Read a body to the end. Past `limit`: with `truncate` keep the first `limit` bytes, else
 * reject with AnswerTooLarge. Either way reading stops and the body is destroyed.
 */
export function readAll(body: Readable, limit: number, truncate = false): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer): void => {
      if (size + chunk.length > limit) {
        body.removeListener('data', onData);
        body.removeListener('end', onEnd);
        body.destroy();
        if (truncate) {
          chunks.push(chunk.subarray(0, limit - size));
          resolve(Buffer.concat(chunks));
        } else reject(new AnswerTooLarge(limit));
        return;
      }
      size += chunk.length;
      chunks.push(chunk);
    };
    const onEnd = (): void => resolve(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
    body.on('data', onData);
    body.on('end', onEnd);
    body.on('error', reject);
  });
}
