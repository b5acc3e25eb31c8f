/**
 * The clientError answer (proxy-server.ts) writes nothing on a connection whose answer is under way,
 * and knows that from node's own `_httpMessage` (parser-refusal.ts answerInFlight), an internal
 * field: read here under this Node and each major `scripts/fetch-node-versions.cjs` put in
 * .cache/node-versions (CI sets REQUIRE_NODE_VERSIONS=1, which turns their absence into a failure),
 * by a fixture on the built code (dist/: `npm run build` first).
 */
import { execFile } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const fixture = fileURLToPath(new URL('../fixtures/answer-in-flight.mjs', import.meta.url));
const cache = fileURLToPath(new URL('../../.cache/node-versions/', import.meta.url));

const others = existsSync(cache)
  ? readdirSync(cache)
      .filter((major) => /^\d+$/.test(major))
      .map((major) => ({ name: `node ${major} (.cache/node-versions)`, binary: `${cache}${major}/bin/node` }))
      .filter((n) => existsSync(n.binary))
  : [];
const required = process.env.REQUIRE_NODE_VERSIONS === '1';
const runtimes = [{ name: `this node (${process.version})`, binary: process.execPath }, ...others];

describe('the answer in flight on a connection node gave up on', () => {
  it('finds the other Node majors when they are required', () => {
    if (required) expect(others.map((n) => n.name).sort()).toEqual(['node 22 (.cache/node-versions)', 'node 24 (.cache/node-versions)']);
  });

  it.each(runtimes)('is read right under $name', async ({ binary }) => {
    const { stdout } = await run(binary, [fixture], { encoding: 'utf8', timeout: 20_000 });
    const { seen } = JSON.parse(stdout) as { seen: Record<string, unknown> };
    expect(seen).toEqual({
      'first request refused': { inFlight: false },
      'pipelined behind a streaming answer': { inFlight: true, started: true, requestReadWhole: true },
      'its own chunked body broken': { inFlight: true, started: false, requestReadWhole: false },
    });
  }, 30_000);
});
