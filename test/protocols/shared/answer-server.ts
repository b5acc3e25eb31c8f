/**
 * A loopback HTTP server that answers an official SDK with whatever a test decides per request:
 * a JSON body, or an event stream written piece by piece (one write per encoder event, as the
 * relay flushes, or fixed-size byte chunks with a pause between, so boundaries fall inside events
 * and UTF-8 sequences). Listens on 127.0.0.1 and a free port only.
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Answer = { json: unknown } | { sse: string[] } | { sse: string; chunkBytes: number };

export interface Received {
  url: string;
  body: Record<string, unknown>;
}

export interface AnswerServer {
  /** http://127.0.0.1:<port> */
  origin: string;
  /** Every request, in order. */
  received: Received[];
  close(): Promise<void>;
}

function writeAnswer(res: ServerResponse, answer: Answer): void {
  if ('json' in answer) {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answer.json));
    return;
  }
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  if (!('chunkBytes' in answer)) {
    for (const piece of answer.sse) if (piece) res.write(piece);
    res.end();
    return;
  }
  const bytes = Buffer.from(answer.sse);
  const step = answer.chunkBytes;
  let at = 0;
  const pump = (): void => {
    if (at >= bytes.length) {
      res.end();
      return;
    }
    res.write(bytes.subarray(at, at + step));
    at += step;
    setImmediate(pump);
  };
  pump();
}

export async function startAnswerServer(answer: (req: Received) => Answer): Promise<AnswerServer> {
  const received: Received[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const request: Received = { url: req.url ?? '', body: JSON.parse(Buffer.concat(parts).toString('utf8')) as Record<string, unknown> };
      received.push(request);
      writeAnswer(res, answer(request));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
