/**
 * The provider layer against the project's shared mock upstreams (test/fixtures/mock-upstream),
 * which reject what the real providers reject: the catalog and count_tokens must pass their
 * checks (auth, allowed fields, Gemini schema keywords, native count shape).
 */
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configSchema, type Config } from '../../src/config/schema.js';
import type { HubRequest } from '../../src/protocols/hub.js';
import { countTokens } from '../../src/providers/count-tokens.js';
import { sanitizeGeminiSchema } from '../../src/providers/gemini-schema.js';
import { LocalDetector } from '../../src/providers/local-detect.js';
import { createModelCatalog } from '../../src/providers/models.js';
import { isResolveFailure, resolveProvider } from '../../src/providers/registry.js';
import type { ResolvedProvider } from '../../src/providers/types.js';
import { closeUpstreamPools } from '../../src/providers/upstream-client.js';
import {
  anthropicCountTokens,
  geminiCountTokens,
  responsesCountTokens,
  schemaViolation,
  startAnthropicMock,
  startGeminiMock,
  startGenericChatMock,
  startOpenRouterMock,
  startResponsesMock,
  type AnthropicMock,
  type GeminiMock,
  type GenericChatMock,
  type OpenRouterMock,
  type ResponsesMock,
} from '../fixtures/mock-upstream/index.js';

const COUNT_TIMEOUTS = { connectTimeoutMs: 10_000, headersTimeoutMs: 600_000, idleTimeoutMs: 300_000 };

let ant: AnthropicMock, oa: ResponsesMock, or: OpenRouterMock, gem: GeminiMock, gen: GenericChatMock;
let config: Config;
const creds: Record<string, string> = { anthropic: 'ant-key', openai: 'oa-key', openrouter: 'or-key', gemini: 'gm-key' };
const deps = () => ({ config: () => config, credential: (s: string) => creds[s], detector: new LocalDetector({ enabled: false }) });

beforeAll(async () => {
  [ant, oa, or, gem, gen] = await Promise.all([
    startAnthropicMock({ apiKey: 'ant-key' }),
    startResponsesMock({ apiKey: 'oa-key' }),
    startOpenRouterMock({ apiKey: 'or-key' }),
    startGeminiMock({ apiKey: 'gm-key' }),
    startGenericChatMock(),
  ]);
  config = configSchema.parse({
    version: 2,
    providers: { anthropic: { baseUrl: ant.baseUrl }, openai: { baseUrl: oa.baseUrl }, openrouter: { baseUrl: or.baseUrl }, gemini: { baseUrl: gem.baseUrl } },
    locals: { box: { url: gen.baseUrl, created: '2026-01-01T00:00:00Z' } },
  });
});

afterAll(async () => {
  await closeUpstreamPools(100);
  await Promise.all([ant, oa, or, gem, gen].map((m) => m?.close()));
});

function resolve(slug: string): ResolvedProvider {
  const r = resolveProvider(slug, deps());
  if (isResolveFailure(r)) throw new Error(JSON.stringify(r));
  return r;
}

const hub: HubRequest = {
  model: 'x',
  system: [{ text: 'Be brief.' }],
  items: [
    { type: 'message', role: 'user', content: [{ type: 'text', text: 'Weather in Paris?' }] },
    { type: 'function_call', callId: 'call_1', name: 'weather', arguments: '{"city":"Paris"}' },
    { type: 'function_call_output', callId: 'call_1', output: 'sunny' },
  ],
  tools: [{ type: 'function', name: 'weather', description: 'Weather', parameters: { $schema: 'x', type: 'object', additionalProperties: false, properties: { city: { type: 'string' } }, required: ['city'] } }],
  stream: false,
};

describe('provider layer against the shared mock upstreams', () => {
  it('the catalog lists every mock with its auth accepted', async () => {
    const models = await createModelCatalog({ ...deps(), timeoutMs: 2000 }).list();
    const providers = new Set(models.map((m) => m.provider));
    expect(providers).toEqual(new Set(['anthropic', 'openai', 'openrouter', 'gemini', 'box']));
    expect(models.filter((m) => m.provider === 'gemini').every((m) => !m.id.includes('models/'))).toBe(true);
    expect(models.every((m) => m.id.startsWith(`${m.provider}/`))).toBe(true);
  });

  it('count_tokens passes each mock and returns its count', async () => {
    expect(await countTokens(resolve('anthropic'), 'claude-sonnet-4-5', { hub, raw: {}, from: 'chat', timeouts: COUNT_TIMEOUTS })).toBe(anthropicCountTokens(ant.requests.at(-1)!.body));
    expect(await countTokens(resolve('openai'), 'gpt-5.4', { hub: { ...hub, reasoning: { effort: 'high' } }, raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS })).toBe(responsesCountTokens(oa.requests.at(-1)!.body));
    expect(await countTokens(resolve('gemini'), 'gemini-2.5-flash', { hub, raw: {}, from: 'messages', timeouts: COUNT_TIMEOUTS })).toBe(geminiCountTokens(gem.requests.at(-1)!.body));
  });

  it('sanitised schemas pass the Gemini mock keyword check (property)', () => {
    const json = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small' },
        fc.record({ type: fc.constantFrom('string', 'object', 'array'), const: fc.string(), $schema: fc.constant('x'), exclusiveMinimum: fc.integer() }, { requiredKeys: ['type'] }),
        fc.record({ type: fc.constant('object'), properties: fc.dictionary(fc.string({ minLength: 1, maxLength: 5 }), tie('node'), { maxKeys: 3 }), additionalProperties: fc.boolean(), propertyNames: fc.constant({}) }),
        fc.record({ anyOf: fc.array(tie('node'), { minLength: 1, maxLength: 2 }) }),
        fc.record({ type: fc.constant('array'), items: tie('node'), unevaluatedProperties: fc.boolean() }),
        fc.constant({ $ref: '#/$defs/a' }),
      ),
    })).node.map((n) => ({ ...(n as object), $defs: { a: { type: 'object', properties: { self: { $ref: '#/$defs/a' } } } } }));
    fc.assert(
      fc.property(json, (schema) => {
        expect(schemaViolation(sanitizeGeminiSchema(schema), 'parameters')).toBeUndefined();
      }),
      { numRuns: 300 },
    );
  });
});
