// The least any Node gateway on node:http + undici does per request: read the body, send it to
// one upstream over a keep-alive pool, relay the answer chunk by chunk. No key check, no parsing,
// no routing, no log. The bench runs it beside svc-proxy, so each row carries the floor this
// machine sets for that stack and what svc-proxy's own work adds over it is read off one run.
//
// Usage: node bench/bare-forwarder.js <port> <upstream origin>; prints "ready" when listening.
import http from 'node:http';
import { Pool } from 'undici';

const [, , port, upstream] = process.argv;
const pool = new Pool(upstream, { keepAliveTimeout: 30_000 });

function fail(res) {
  if (res.headersSent) res.destroy();
  else res.writeHead(502, { 'content-type': 'text/plain' }).end('upstream failed');
}

const server = http.createServer((req, res) => {
  const chunks = [];
  req.on('data', (c) => chunks.push(c));
  req.on('end', () => {
    pool
      .request({ path: req.url, method: req.method, headers: { 'content-type': req.headers['content-type'] ?? 'application/json' }, body: Buffer.concat(chunks) })
      .then(({ statusCode, headers, body }) => {
        res.writeHead(statusCode, { 'content-type': headers['content-type'] ?? 'application/octet-stream' });
        body.on('data', (c) => {
          if (!res.write(c)) body.pause();
        });
        res.on('drain', () => body.resume());
        body.on('end', () => res.end());
        body.on('error', () => res.destroy());
        res.on('close', () => body.destroy());
      }, () => fail(res));
  });
});
server.keepAliveTimeout = 30_000;
server.listen(Number(port), '127.0.0.1', () => console.log('ready'));
process.on('SIGTERM', () => process.exit(0));
process.on('SIGINT', () => process.exit(0));
