import { describe, expect, it } from 'vitest';
import { anthropicAdapter } from '../../src/providers/anthropic.js';
import { claudeTraits } from '../../src/providers/anthropic-models.js';
import type { Effort } from '../../src/protocols/hub.js';
import type { FinalizeContext } from '../../src/providers/types.js';

function run(body: Record<string, unknown>, ctx: Partial<FinalizeContext> & { model: string }) {
  const full: FinalizeContext = { from: 'chat', passthrough: false, stream: false, ...ctx };
  const out = structuredClone(body);
  const res = anthropicAdapter.finalizeBody(out, full);
  return { body: out, effortSent: res.effortSent };
}

const base = () => ({ model: 'm', max_tokens: 1000, messages: [{ role: 'user', content: 'hi' }] });

describe('anthropic finalizeBody: effort from a converted request', () => {
  const table: Array<[string, Effort, Record<string, unknown> | undefined, string | undefined, string | undefined]> = [
    // model, effort, thinking expected, output_config.effort expected, effortSent
    ['claude-opus-4-7', 'max', { type: 'adaptive' }, 'max', 'max'],
    ['claude-opus-4-7', 'xhigh', { type: 'adaptive' }, 'xhigh', 'xhigh'],
    ['claude-opus-4-6', 'xhigh', { type: 'adaptive' }, 'high', 'high'],
    ['claude-sonnet-4-6', 'max', { type: 'adaptive' }, 'max', 'max'],
    ['claude-sonnet-4-6', 'low', { type: 'adaptive' }, 'low', 'low'],
    ['claude-opus-5-5', 'xhigh', { type: 'adaptive' }, 'xhigh', 'xhigh'],
    ['claude-mythos-preview', 'medium', { type: 'adaptive' }, 'medium', 'medium'],
    ['claude-fable-5', 'max', { type: 'adaptive' }, 'max', 'max'],
    ['claude-opus-4-5-20251101', 'max', { type: 'enabled', budget_tokens: 16384 }, 'high', 'high (budget_tokens:16384)'],
    ['claude-sonnet-4-5', 'max', { type: 'enabled', budget_tokens: 16384 }, undefined, 'budget_tokens:16384'],
    ['claude-sonnet-4-5-20250929', 'low', { type: 'enabled', budget_tokens: 1024 }, undefined, 'budget_tokens:1024'],
    ['claude-haiku-4-5', 'medium', { type: 'enabled', budget_tokens: 2048 }, undefined, 'budget_tokens:2048'],
    ['claude-opus-4-1', 'high', { type: 'enabled', budget_tokens: 4096 }, undefined, 'budget_tokens:4096'],
    ['claude-3-7-sonnet-latest', 'xhigh', { type: 'enabled', budget_tokens: 8192 }, undefined, 'budget_tokens:8192'],
    ['claude-3-5-sonnet-20241022', 'high', undefined, undefined, undefined],
  ];
  for (const [model, effort, thinking, oc, sent] of table) {
    it(`${effort} to ${model}`, () => {
      const { body, effortSent } = run({ ...base(), output_config: { effort: 'medium' }, thinking: { type: 'adaptive' } }, { model, effort });
      expect(body.thinking).toEqual(thinking);
      expect((body.output_config as Record<string, unknown> | undefined)?.effort).toBe(oc);
      expect(effortSent).toBe(sent);
    });
  }

  it('max to sonnet-4-5 raises max_tokens above the budget, keeping the answer allowance', () => {
    const { body } = run(base(), { model: 'claude-sonnet-4-5', effort: 'max' });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 16384 });
    expect(body.max_tokens).toBe(16384 + 1000);
  });

  it('keeps max_tokens when it already exceeds the budget', () => {
    const { body } = run({ ...base(), max_tokens: 30000 }, { model: 'claude-sonnet-4-5', effort: 'high' });
    expect(body.max_tokens).toBe(30000);
  });

  it('none removes thinking and output_config.effort but keeps output_config.format', () => {
    const { body, effortSent } = run(
      { ...base(), thinking: { type: 'adaptive' }, output_config: { effort: 'high', format: { type: 'json_schema', schema: {} } } },
      { model: 'claude-opus-4-7', effort: 'none' },
    );
    expect(body.thinking).toBeUndefined();
    expect(body.output_config).toEqual({ format: { type: 'json_schema', schema: {} } });
    expect(effortSent).toBe('none');
  });

  it('none drops an output_config left empty', () => {
    const { body } = run({ ...base(), thinking: { type: 'adaptive' }, output_config: { effort: 'high' } }, { model: 'claude-sonnet-4-6', effort: 'none' });
    expect('output_config' in body).toBe(false);
  });

  it('keeps the display setting the codec chose', () => {
    const { body } = run({ ...base(), thinking: { type: 'adaptive', display: 'summarized' } }, { model: 'claude-opus-4-7', effort: 'high' });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
  });

  it('forced tool_choice with thinking becomes auto (parallel flag kept)', () => {
    const { body } = run({ ...base(), tool_choice: { type: 'tool', name: 'x', disable_parallel_tool_use: true } }, { model: 'claude-sonnet-4-6', effort: 'high' });
    expect(body.tool_choice).toEqual({ type: 'auto', disable_parallel_tool_use: true });
    const any = run({ ...base(), tool_choice: { type: 'any' } }, { model: 'claude-sonnet-4-5', effort: 'low' });
    expect(any.body.tool_choice).toEqual({ type: 'auto' });
  });

  it('forced tool_choice stays when thinking is off', () => {
    const { body } = run({ ...base(), tool_choice: { type: 'any' } }, { model: 'claude-sonnet-4-6', effort: 'none' });
    expect(body.tool_choice).toEqual({ type: 'any' });
  });

  it('drops sampling Opus 4.7 rejects, and temperature/top_k when thinking is on', () => {
    const opus = run({ ...base(), temperature: 0.5, top_p: 0.9, top_k: 5 }, { model: 'claude-opus-4-7' });
    expect(opus.body).not.toHaveProperty('temperature');
    expect(opus.body).not.toHaveProperty('top_p');
    expect(opus.body).not.toHaveProperty('top_k');
    const thinking = run({ ...base(), temperature: 0.5, top_k: 5, top_p: 0.99 }, { model: 'claude-sonnet-4-5', effort: 'high' });
    expect(thinking.body).not.toHaveProperty('temperature');
    expect(thinking.body).not.toHaveProperty('top_k');
    expect(thinking.body.top_p).toBe(0.99);
    const pair = run({ ...base(), temperature: 0.5, top_p: 0.9 }, { model: 'claude-haiku-4-5' });
    expect(pair.body.temperature).toBe(0.5);
    expect(pair.body).not.toHaveProperty('top_p');
  });

  it('removes reasoning_effort, which Anthropic does not know', () => {
    const { body } = run({ ...base(), reasoning_effort: 'high' }, { model: 'claude-opus-4-7', effort: 'high' });
    expect(body).not.toHaveProperty('reasoning_effort');
  });

  it('no effort asked: body left alone (apart from fixes)', () => {
    const { body, effortSent } = run({ ...base(), thinking: { type: 'adaptive' }, output_config: { effort: 'low' } }, { model: 'claude-opus-4-7' });
    expect(body.thinking).toEqual({ type: 'adaptive' });
    expect(body.output_config).toEqual({ effort: 'low' });
    expect(effortSent).toBeUndefined();
  });
});

describe('anthropic finalizeBody: Messages client passthrough', () => {
  const pass = { from: 'messages' as const, passthrough: true };

  it('budget thinking passes through unchanged', () => {
    const body = { ...base(), thinking: { type: 'enabled', budget_tokens: 3000 }, temperature: 1 };
    const { body: out, effortSent } = run(body, { ...pass, model: 'claude-sonnet-4-5' });
    expect(out).toEqual(body);
    expect(effortSent).toBeUndefined();
  });

  it('only the effort ceiling changes: xhigh on sonnet-4-6 becomes high, thinking untouched', () => {
    const { body, effortSent } = run({ ...base(), thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'xhigh' } }, { ...pass, model: 'claude-sonnet-4-6', effort: 'xhigh' });
    expect(body.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(effortSent).toBe('high');
  });

  it('max passes on models that take it', () => {
    const { body } = run({ ...base(), thinking: { type: 'adaptive' }, output_config: { effort: 'max' } }, { ...pass, model: 'claude-opus-4-7', effort: 'max' });
    expect(body.output_config).toEqual({ effort: 'max' });
  });

  it('effort removed on a model that takes none (sonnet 4.5 rejects output_config.effort)', () => {
    const { body } = run({ ...base(), thinking: { type: 'enabled', budget_tokens: 2048 }, output_config: { effort: 'high' } }, { ...pass, model: 'claude-sonnet-4-5', effort: 'high' });
    expect(body).not.toHaveProperty('output_config');
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048 });
  });

  it('adaptive thinking asked of a model without it (Claude Code on a provider/model id) goes as its level goes: a budget, or no thinking', () => {
    const omitted = { ...base(), thinking: { type: 'adaptive', display: 'omitted' }, output_config: { effort: 'medium' }, temperature: 0.5 };
    const sonnet = run(omitted, { ...pass, model: 'claude-sonnet-4-5', effort: 'medium' });
    expect(sonnet.body.thinking).toEqual({ type: 'enabled', budget_tokens: 2048, display: 'omitted' });
    expect(sonnet.body.max_tokens).toBeGreaterThan(2048);
    expect(sonnet.body).not.toHaveProperty('output_config');
    expect(sonnet.body).not.toHaveProperty('temperature');
    expect(sonnet.effortSent).toBe('budget_tokens:2048');
    // no level asked: adaptive's default, high
    const { body } = run({ ...base(), thinking: { type: 'adaptive' } }, { ...pass, model: 'claude-haiku-4-5' });
    expect(body.thinking).toEqual({ type: 'enabled', budget_tokens: 4096 });
    const old = run({ ...base(), thinking: { type: 'adaptive' } }, { ...pass, model: 'claude-3-5-haiku-20241022' });
    expect(old.body).not.toHaveProperty('thinking');
    // a model that takes adaptive keeps it as sent
    expect(run(omitted, { ...pass, model: 'claude-sonnet-4-6', effort: 'medium' }).body.thinking).toEqual({ type: 'adaptive', display: 'omitted' });
  });

  it('a budget asked of a model that takes only adaptive thinking (Opus 4.7 on) goes as adaptive at the level the budget reaches, display kept', () => {
    const budget = (budget_tokens: number) => ({ ...base(), max_tokens: 20000, thinking: { type: 'enabled', budget_tokens, display: 'summarized' }, temperature: 1 });
    const opus = run(budget(3000), { ...pass, model: 'claude-opus-4-7', effort: 'low' });
    expect(opus.body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(opus.body.output_config).toEqual({ effort: 'medium' });
    expect(opus.body).not.toHaveProperty('temperature');
    expect(opus.effortSent).toBe('medium');
    // the inverse of the level → budget map: 1024 low … 16384 max; below 1024 low
    const level = (tokens: number, model = 'claude-opus-4-7') => run(budget(tokens), { ...pass, model }).body.output_config;
    expect([500, 1024, 4096, 8192, 16384, 32000].map((t) => level(t))).toEqual(['low', 'low', 'high', 'xhigh', 'max', 'max'].map((effort) => ({ effort })));
    // a level the client named wins over its budget's
    const named = run({ ...budget(16384), output_config: { effort: 'low' } }, { ...pass, model: 'claude-fable-5', effort: 'low' });
    expect(named.body.output_config).toEqual({ effort: 'low' });
    // a model that takes both keeps the budget as sent
    expect(run(budget(3000), { ...pass, model: 'claude-sonnet-4-6' }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000, display: 'summarized' });
    // the list's thinking types rule over the id's, both ways
    expect(run(budget(3000), { ...pass, model: 'claude-sonnet-4-6', stated: { thinking: 'adaptive-only' } }).body.thinking).toEqual({ type: 'adaptive', display: 'summarized' });
    expect(run(budget(3000), { ...pass, model: 'claude-opus-4-7', stated: { thinking: 'adaptive' } }).body.thinking).toEqual({ type: 'enabled', budget_tokens: 3000, display: 'summarized' });
  });

  it('thinking "disabled" is left out for adaptive-only Claudes (Fable, Mythos, Opus 4.7), which refuse it and are off without thinking; kept for other Claudes', () => {
    const off = { ...base(), thinking: { type: 'disabled' } };
    expect(run(off, { ...pass, model: 'claude-fable-5' }).body).not.toHaveProperty('thinking');
    expect(run(off, { ...pass, model: 'claude-mythos-preview' }).body).not.toHaveProperty('thinking');
    expect(run(off, { ...pass, model: 'claude-opus-4-7' }).body).not.toHaveProperty('thinking');
    expect(run(off, { ...pass, model: 'claude-opus-4-6' }).body.thinking).toEqual({ type: 'disabled' });
    expect(run(off, { ...pass, model: 'claude-sonnet-4-5' }).body.thinking).toEqual({ type: 'disabled' });
  });

  it('thinking "between_tools" is left out where the list states the model refuses it; as sent where it takes it or states nothing (no id rule)', () => {
    const notes = { ...base(), thinking: { type: 'between_tools' } };
    expect(run(notes, { ...pass, model: 'claude-opus-4-7', stated: { refusesBetweenTools: true } }).body).not.toHaveProperty('thinking');
    expect(run(notes, { ...pass, model: 'claude-opus-4-7', stated: { refusesBetweenTools: false } }).body.thinking).toEqual({ type: 'between_tools' });
    expect(run(notes, { ...pass, model: 'claude-opus-4-7' }).body.thinking).toEqual({ type: 'between_tools' });
  });

  it('a Messages client asking with reasoning_effort (no native controls) gets the mapping', () => {
    const { body, effortSent } = run({ ...base(), reasoning_effort: 'high' }, { ...pass, model: 'claude-opus-4-7', effort: 'high' });
    expect(body.thinking).toEqual({ type: 'adaptive' });
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(body).not.toHaveProperty('reasoning_effort');
    expect(effortSent).toBe('high');
  });

  it('sampling of a native request is left alone', () => {
    const body = { ...base(), temperature: 0.2, top_p: 0.5 };
    const { body: out } = run(body, { ...pass, model: 'claude-opus-4-7' });
    expect(out).toEqual(body);
  });
});

describe('anthropic encodeOptions', () => {
  it.each([
    ['claude-sonnet-4-5', 64000],
    ['claude-opus-4-5', 64000],
    ['claude-opus-4-7', 64000],
    ['claude-opus-4-1-20250805', 32000],
    ['claude-opus-4-20250514', 32000],
    ['claude-sonnet-4-20250514', 64000],
    ['claude-3-5-haiku-latest', 8192],
    ['claude-3-haiku-20240307', 4096],
    ['claude-opus-5-5', 64000],
  ])('%s default max_tokens %i', (model, expected) => {
    expect(anthropicAdapter.encodeOptions(model).defaultMaxTokens).toBe(expected);
  });

  it('keeps cache_control and replays only Anthropic reasoning', () => {
    const opts = anthropicAdapter.encodeOptions('claude-opus-4-7');
    expect(opts.keepCacheControl).toBe(true);
    expect(opts.replayReasoning).toEqual(['anthropic', 'anthropic_redacted']);
  });

  it('reads versions with dots and provider prefixes', () => {
    expect(claudeTraits('claude-sonnet-4.6').thinking).toBe('adaptive');
    expect(claudeTraits('anthropic/claude-opus-4.7').thinking).toBe('adaptive-only');
    expect(claudeTraits('anthropic/claude-sonnet-4.5').thinking).toBe('budget');
    expect(claudeTraits('claude-sonnet-4-5@20250929').thinking).toBe('budget');
  });
});

describe('anthropic finalizeBody: levels routing derived', () => {
  it('a level derived from a thinking budget is not added to a native request', () => {
    const body = { ...base(), thinking: { type: 'enabled', budget_tokens: 4096 } };
    const { body: out, effortSent } = run(body, { from: 'messages', passthrough: true, model: 'claude-opus-4-6', effort: 'medium' });
    expect(out).toEqual(body);
    expect(effortSent).toBeUndefined();
  });

  it('reasoning_effort next to native thinking sets the capped level', () => {
    const { body } = run({ ...base(), thinking: { type: 'adaptive' }, reasoning_effort: 'xhigh' }, { from: 'messages', passthrough: true, model: 'claude-opus-4-6', effort: 'xhigh' });
    expect(body.output_config).toEqual({ effort: 'high' });
    expect(body.thinking).toEqual({ type: 'adaptive' });
  });
});
