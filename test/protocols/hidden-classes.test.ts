/**
 * Every codec direction builds its objects with hidden classes V8 can reuse: rendering the same
 * golden input twice gives objects that share their maps, object by object. A map new on every
 * call (a spread copy that then gains keys, on Node 20) costs each request a map allocation and
 * old-space garbage, and its readers slow lookups (shared/hidden-classes.ts). In a process of its
 * own (vitest.config.ts): files run before it in a shared one fill V8's transition trees with
 * their keys (the fuzz tests' random ones), and then any object may get a map of its own.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { DecodeOptions, DialectCodec, EncodeRequestOptions, ResponseContext } from '../../src/protocols/codec.js';
import type { HubRequest, HubResponse } from '../../src/protocols/hub.js';
import { chatCodec } from '../../src/protocols/chat/index.js';
import { messagesCodec } from '../../src/protocols/messages/index.js';
import { responsesCodec, restoreNativeReasoning } from '../../src/protocols/responses/index.js';
import { packOrigin } from '../../src/protocols/reasoning-envelope.js';
import { mapsNewPerCall } from './shared/hidden-classes.js';
import { plain } from './shared/helpers.js';

const here = dirname(fileURLToPath(import.meta.url));

/** Each golden fixture's text of one direction (re-parsed per call: a codec may edit its input). */
function fixtures(dialect: string, dir: string): { name: string; text: string }[] {
  const base = join(here, dialect, 'fixtures', dir);
  return readdirSync(base)
    .filter((f) => f.endsWith('.json') && !f.endsWith('.events.json'))
    .sort()
    .map((name) => ({ name, text: readFileSync(join(base, name), 'utf8') }));
}

type Fixture = Record<string, unknown>;
const codecs: Record<string, DialectCodec> = { chat: chatCodec, messages: messagesCodec, responses: responsesCodec };
// the fixture folders name the hub side `hub` (chat, responses) or `input` (messages), and the
// wire side `input`, or `request` and `body` (responses)
const hubOf = (f: Fixture): unknown => f.hub ?? f.input;
const wireOf = (f: Fixture): unknown => f.input ?? f.request ?? f.body;

const directions: Record<string, (codec: DialectCodec, f: Fixture) => unknown> = {
  'request-decode': (codec, f) => codec.decodeRequest(wireOf(f)),
  'request-encode': (codec, f) => codec.encodeRequest(hubOf(f) as HubRequest, f.opts as EncodeRequestOptions),
  'response-decode': (codec, f) => codec.decodeResponse(wireOf(f), f.opts as DecodeOptions | undefined),
  'response-encode': (codec, f) => codec.encodeResponse(hubOf(f) as HubResponse, { created: 1730000000, ...(f.ctx as ResponseContext) }),
};

for (const [dialect, codec] of Object.entries(codecs)) {
  describe(`${dialect} codec: hidden classes shared across calls`, () => {
    for (const [dir, run] of Object.entries(directions)) {
      for (const { name, text } of fixtures(dialect, dir)) {
        it(`${dir} ${name}`, () => {
          const build = (): unknown => run(codec, JSON.parse(text) as Fixture);
          // Golden fixtures hold answers, never refusals (their runners compare a returned value
          // with `expected`), so a throw here, or another answer, is a fixture read the wrong way:
          // it fails rather than leave the fixture's maps unchecked.
          expect(plain(build())).toEqual((JSON.parse(text) as Fixture).expected);
          expect(mapsNewPerCall(build)).toEqual([]);
        });
      }
    }
  });
}

describe('responses passthrough to OpenAI: reasoning put back in native form', () => {
  it('shares hidden classes across requests, for reasoning items sent without an id (as Codex sends them)', () => {
    const proof = packOrigin({ kind: 'openai', id: 'rs_real', encryptedContent: 'gAAAA-E' });
    const text = JSON.stringify({ model: 'gpt-5.4', input: [{ type: 'reasoning', summary: [], encrypted_content: proof }, { role: 'user', content: 'go on' }] });
    const restored = (): unknown => {
      const body = JSON.parse(text) as Record<string, unknown>;
      restoreNativeReasoning(body);
      return body.input;
    };
    expect(restored()).toEqual([{ type: 'reasoning', summary: [], encrypted_content: 'gAAAA-E', id: 'rs_real' }, { role: 'user', content: 'go on' }]);
    expect(mapsNewPerCall(restored)).toEqual([]);
  });
});
