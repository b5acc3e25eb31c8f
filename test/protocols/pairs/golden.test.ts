/**
 * Golden fixtures for every conversion pair (client dialect × upstream dialect), in
 * fixtures/<client>-to-<upstream>/:
 *   request/<case>.json   client request → upstream body (`target` = provider/model; optional
 *                         `variants` patch the input, `pick` records only some fields of each result)
 *   response/<case>.json  upstream answer → client answer
 *   stream/<case>.json + <case>.upstream.sse → <case>.client.sse, identical whatever the upstream
 *                         byte chunking (cut at every offset, byte by byte, random cuts)
 * A case whose conversion is refused records the ProtocolError instead of a body.
 * UPDATE_GOLDEN=1 rewrites every expected side; each diff is reviewed against PROTOCOLS.md.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Dialect } from '../../../src/protocols/hub.js';
import { everySplit, namesIn, readJson, UPDATE_GOLDEN, writeJson } from '../shared/helpers.js';
import { contextFor, convertRequest, convertResponse, convertStream, FIXTURES, PAIRS, recordError } from './harness.js';

type Json = Record<string, unknown>;

interface RequestCase {
  about: string;
  target: string;
  input: Json;
  variants?: Record<string, Json>;
  pick?: string[];
  expected?: unknown;
}

interface ResponseCase {
  about: string;
  model: string;
  includeUsage?: boolean;
  /** Messages client that asked `thinking.display: "omitted"`. */
  omitThinking?: boolean;
  input: unknown;
  expected?: unknown;
}

interface StreamCase {
  about: string;
  model: string;
  includeUsage?: boolean;
  omitThinking?: boolean;
}

function attempt(run: () => Json): unknown {
  try {
    return run();
  } catch (err) {
    return recordError(err);
  }
}

function picked(body: unknown, pick: string[] | undefined): unknown {
  if (!pick || typeof body !== 'object' || body === null || 'error' in body) return body;
  const out: Json = {};
  for (const key of pick) if (key in (body as Json)) out[key] = (body as Json)[key];
  return out;
}

function requestResult(client: Dialect, upstream: Dialect, c: RequestCase): unknown {
  const run = (input: Json): unknown => picked(attempt(() => convertRequest(client, upstream, c.target, input)), c.pick);
  if (!c.variants) return run(c.input);
  const out: Json = {};
  for (const [name, patch] of Object.entries(c.variants)) out[name] = run({ ...structuredClone(c.input), ...structuredClone(patch) });
  return out;
}

function check(path: string, data: { expected?: unknown }, actual: unknown): void {
  if (UPDATE_GOLDEN) {
    writeJson(path, { ...data, expected: actual });
    return;
  }
  expect(data.expected, `${path} has no expected output (run with UPDATE_GOLDEN=1 and review)`).toBeDefined();
  expect(actual).toEqual(data.expected);
}

for (const { client, upstream, dir } of PAIRS) {
  const base = join(FIXTURES, dir);

  describe(`${client} client → ${upstream} upstream`, () => {
    it('has request, response and stream fixtures', () => {
      for (const kind of ['request', 'response', 'stream']) {
        expect(existsSync(join(base, kind)) ? namesIn(join(base, kind), '.json').length : 0, `${dir}/${kind}`).toBeGreaterThan(0);
      }
    });

    describe('request', () => {
      for (const name of namesIn(join(base, 'request'), '.json')) {
        it(name, () => {
          const path = join(base, 'request', `${name}.json`);
          const c = readJson<RequestCase>(path);
          check(path, c, requestResult(client, upstream, c));
        });
      }
    });

    describe('response', () => {
      for (const name of namesIn(join(base, 'response'), '.json')) {
        it(name, () => {
          const path = join(base, 'response', `${name}.json`);
          const c = readJson<ResponseCase>(path);
          check(path, c, attempt(() => convertResponse(client, upstream, c.input, contextFor(client, c.model, c.includeUsage, c.omitThinking))));
        });
      }
    });

    describe('stream', () => {
      for (const name of namesIn(join(base, 'stream'), '.json')) {
        it(`${name} (every chunking gives the same client stream)`, () => {
          const c = readJson<StreamCase>(join(base, 'stream', `${name}.json`));
          const upstreamBytes = readFileSync(join(base, 'stream', `${name}.upstream.sse`));
          const expectedPath = join(base, 'stream', `${name}.client.sse`);
          const ctx = contextFor(client, c.model, c.includeUsage, c.omitThinking);
          const whole = convertStream(client, upstream, [upstreamBytes], ctx);
          if (UPDATE_GOLDEN) writeFileSync(expectedPath, whole);
          else {
            expect(existsSync(expectedPath), `${expectedPath} is missing (run with UPDATE_GOLDEN=1 and review)`).toBe(true);
            expect(whole).toBe(readFileSync(expectedPath, 'utf8'));
          }
          let runs = 0;
          for (const chunks of everySplit(upstreamBytes)) {
            const text = convertStream(client, upstream, chunks, ctx);
            if (text !== whole) expect(text, `chunks ${chunks.map((ch) => ch.length).join('+')}`).toBe(whole);
            runs++;
          }
          expect(runs).toBeGreaterThan(upstreamBytes.length);
        });
      }
    });
  });
}
