import { describe, expect, it } from 'vitest';
import { compileViewFilter, isFiltering, nextKey, nextStatusClass, NO_FILTER } from '../../../src/tui/log/view-filter.js';
import { makeEntry } from '../../log/make-entry.js';

describe('view filter', () => {
  const entries = [
    makeEntry({ id: 'ok', status: 200, keyName: 'alice', modelAsked: 'openai/gpt-5' }),
    makeEntry({ id: 'limited', status: 429, keyName: 'bob', modelAsked: 'anthropic/claude-sonnet-4-5', errorCode: 'rate_limited' }),
    makeEntry({ id: 'down', status: 502, keyName: 'alice', modelAsked: 'fast', base: 'group:work', attempts: [{ target: 'gemini/gemini-2.5-flash', status: 502, latencyMs: 3, errorCode: 'upstream_error' }] }),
    makeEntry({ id: 'none', status: 0, keyName: 'carol', modelAsked: 'lm/llama' }),
  ];
  const run = (f: Partial<typeof NO_FILTER>) => entries.filter(compileViewFilter({ ...NO_FILTER, ...f })).map((e) => e.id);

  it('a stream cut part-way, logged 200 with the error that ended it, is an error, not ok', () => {
    const cut = [makeEntry({ id: 'whole', status: 200 }), makeEntry({ id: 'cut', status: 200, streamed: true, errorCode: 'key_revoked' })];
    const of = (status: 'ok' | 'error' | '4xx') => cut.filter(compileViewFilter({ ...NO_FILTER, status })).map((e) => e.id);
    expect(of('error')).toEqual(['cut']);
    expect(of('ok')).toEqual(['whole']);
    expect(of('4xx')).toEqual([]);
  });

  it('a stream its client left part-way (client_disconnected) is ok, as stats counts it cancelled, not an error', () => {
    const left = [makeEntry({ id: 'left', status: 200, streamed: true, errorCode: 'client_disconnected' })];
    const of = (status: 'ok' | 'error') => left.filter(compileViewFilter({ ...NO_FILTER, status })).map((e) => e.id);
    expect(of('error')).toEqual([]);
    expect(of('ok')).toEqual(['left']);
  });

  it('status classes mean what `svc-proxy logs --status` means', () => {
    expect(run({ status: 'ok' })).toEqual(['ok']);
    expect(run({ status: '4xx' })).toEqual(['limited']);
    expect(run({ status: '5xx' })).toEqual(['down']);
    expect(run({ status: 'error' })).toEqual(['limited', 'down', 'none']);
  });

  it('text matches models, keys, groups, error codes and attempted targets, case-insensitively', () => {
    expect(run({ text: 'CLAUDE' })).toEqual(['limited']);
    expect(run({ text: 'rate_lim' })).toEqual(['limited']);
    expect(run({ text: 'group:work' })).toEqual(['down']);
    expect(run({ text: 'gemini' })).toEqual(['down']);
    expect(run({ text: '  ' })).toEqual(['ok', 'limited', 'down', 'none']);
  });

  it('key filter, and everything combined', () => {
    expect(run({ key: 'alice' })).toEqual(['ok', 'down']);
    expect(run({ key: 'alice', status: 'error', text: 'fast' })).toEqual(['down']);
    expect(isFiltering(NO_FILTER)).toBe(false);
    expect(isFiltering({ ...NO_FILTER, key: 'x' })).toBe(true);
  });

  it('cycles status classes and keys', () => {
    expect(['all', 'ok', '4xx', '5xx', 'error'].map((s) => nextStatusClass(s as never))).toEqual(['ok', '4xx', '5xx', 'error', 'all']);
    expect(nextKey(null, ['a', 'b'])).toBe('a');
    expect(nextKey('a', ['a', 'b'])).toBe('b');
    expect(nextKey('b', ['a', 'b'])).toBeNull();
    expect(nextKey('gone', ['a'])).toBeNull();
    expect(nextKey(null, [])).toBeNull();
  });
});
