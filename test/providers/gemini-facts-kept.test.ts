/**
 * Gemini's native list is the only one that says a model does not think (gemini-2.0-flash), its
 * window and its output limit. A refresh that cannot read it keeps what the last good read stated,
 * so the daemon still sends such a model no reasoning_effort (which Google refuses for it).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { configSchema, type Config } from '../../src/config/schema.js';
import { LocalDetector } from '../../src/providers/local-detect.js';
import { createModelCatalog, type CatalogModel } from '../../src/providers/models.js';
import { StatedControls } from '../../src/providers/stated-controls.js';
import { closeUpstreamPools } from '../../src/providers/upstream-client.js';
import { GeminiMock } from '../fixtures/mock-upstream/index.js';

const KEY = 'AIza-kept-facts-key_Tg';
/** Listed on both lists, its id past the id filter; the native list says it cannot generateContent. */
const LIVE_ONLY = 'gemini-2.5-flash-native-audio-preview-09-2025';
let gemini: GeminiMock;

beforeAll(async () => {
  gemini = await new GeminiMock({ apiKey: KEY, models: ['models/gemini-2.0-flash', 'models/gemini-2.5-flash', `models/${LIVE_ONLY}`] }).listen();
});
afterAll(async () => {
  await closeUpstreamPools(100);
  await gemini.close();
});

const config = (): Config => configSchema.parse({ version: 2, providers: { gemini: { baseUrl: gemini.baseUrl } } });
const byId = (models: CatalogModel[]) => new Map(models.map((m) => [m.id, m]));

describe('Gemini facts across a refresh whose native list fails', () => {
  it('a good read, then a failing one: the window, output limit and "does not think" stay, and so does no effort; a model it left out as unable to generate content stays out', async () => {
    const stated = new StatedControls();
    const only = new Set(['gemini']);
    // every list refreshes behind the one it answers with
    const catalog = createModelCatalog({ config, credential: (s) => (s === 'gemini' ? KEY : undefined), detector: new LocalDetector({ enabled: false }), ttlMs: 0, failureTtlMs: 0, stated });

    const good = byId(await catalog.list(undefined, only));
    expect(good.get('gemini/gemini-2.0-flash')).toMatchObject({ contextWindow: 1_048_576, maxOutput: 8_192, reasons: false, efforts: [] });
    expect(stated.of('gemini', 'gemini-2.0-flash')).toEqual({ efforts: [] });
    expect(good.has(`gemini/${LIVE_ONLY}`)).toBe(false);

    gemini.always('/v1beta/models', gemini.error(500, 'Internal error encountered.'));
    // a model added with the failure shows when a refresh that met it has landed
    gemini.models.push('models/gemini-new');
    const refreshed = await vi.waitFor(async () => {
      const models = byId(await catalog.list(undefined, only));
      expect(models.has('gemini/gemini-new')).toBe(true);
      return models;
    });
    expect(gemini.requests.filter((r) => r.path === '/v1beta/models').length, 'the native list was asked again').toBeGreaterThan(1);

    expect(refreshed.get('gemini/gemini-2.0-flash')).toMatchObject({ contextWindow: 1_048_576, maxOutput: 8_192, reasons: false, efforts: [] });
    expect(refreshed.get('gemini/gemini-2.5-flash')).toMatchObject({ contextWindow: 1_048_576, maxOutput: 65_536, reasons: true });
    expect(stated.of('gemini', 'gemini-2.0-flash')).toEqual({ efforts: [] });
    // left out by the last good read, it stays left out, through failing refreshes one after another
    expect(refreshed.has(`gemini/${LIVE_ONLY}`)).toBe(false);
    gemini.models.push('models/gemini-newer');
    const again = await vi.waitFor(async () => {
      const models = byId(await catalog.list(undefined, only));
      expect(models.has('gemini/gemini-newer')).toBe(true);
      return models;
    });
    expect(again.has(`gemini/${LIVE_ONLY}`)).toBe(false);
    expect(again.get('gemini/gemini-2.0-flash')).toMatchObject({ reasons: false, efforts: [] });
    // one the last good read never saw has nothing to keep
    expect(refreshed.get('gemini/gemini-new')).not.toHaveProperty('reasons');
    expect(refreshed.get('gemini/gemini-new')).not.toHaveProperty('contextWindow');
  });
});
