/**
 * Golden fixtures, one folder per direction. Each file holds the input and the expected output.
 * Regenerate after a deliberate change with UPDATE_GOLDEN=1 and review the diff line by line.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EncodeRequestOptions, ResponseContext } from '../../../src/protocols/codec.js';
import type { HubEvent, HubRequest, HubResponse } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { UPDATE_GOLDEN as UPDATE } from '../shared/helpers.js';
import { FIXTURES, fixtureJson, fixtureNames } from './helpers.js';


interface Fixture {
  input: unknown;
  opts?: EncodeRequestOptions;
  ctx?: ResponseContext;
  expected?: unknown;
}

const directions: Record<string, (f: Fixture) => unknown> = {
  'request-decode': (f) => messagesCodec.decodeRequest(f.input),
  'request-encode': (f) => messagesCodec.encodeRequest(f.input as HubRequest, f.opts!),
  'response-decode': (f) => messagesCodec.decodeResponse(f.input),
  'response-encode': (f) => messagesCodec.encodeResponse(f.input as HubResponse, f.ctx!),
  // The SSE text is kept as one string per event so diffs stay readable.
  'stream-encode': (f) => {
    const enc = messagesCodec.createStreamEncoder(f.ctx!);
    return (f.input as HubEvent[]).map((e) => enc.encode(e)).join('').split(/(?<=\n\n)/);
  },
};

for (const [dir, run] of Object.entries(directions)) {
  describe(`golden ${dir}`, () => {
    const names = fixtureNames(dir, '.json');
    it('has fixtures', () => expect(names.length).toBeGreaterThan(0));
    for (const name of names) {
      it(name, () => {
        const rel = `${dir}/${name}.json`;
        const f = fixtureJson<Fixture>(rel);
        const got: unknown = JSON.parse(JSON.stringify(run(f)));
        if (UPDATE) {
          writeFileSync(join(FIXTURES, rel), JSON.stringify({ ...f, expected: got }, null, 2) + '\n');
          return;
        }
        expect(f.expected, `${rel} has no expected output yet (run with UPDATE_GOLDEN=1)`).toBeDefined();
        expect(got).toEqual(f.expected);
      });
    }
  });
}
