/** The providers screen's header answers (src/tui/providers/header-input.ts): typed, checked, shown back. */
import { describe, expect, it } from 'vitest';
import { authHeaderInputProblem, headerListText, parseHeaderList } from '../../../src/tui/providers/header-input.js';
import { headerSettingsText } from '../../../src/tui/providers/rows.js';

describe('header answers', () => {
  it('name=value; … both ways, names lower-cased, blanks and a trailing ; ignored', () => {
    expect(parseHeaderList(' X-Team = 42 ;x-project=a=b; ')).toEqual({ headers: { 'x-team': '42', 'x-project': 'a=b' } });
    expect(parseHeaderList('')).toEqual({ headers: {} });
    expect(headerListText({ 'x-team': '42', 'x-project': 'a=b' })).toBe('x-team=42; x-project=a=b');
    expect(headerSettingsText({ authHeader: 'api-key', headers: { 'x-team': '42' } })).toBe('key in api-key; x-team=42');
    expect(headerSettingsText({})).toBe('');
  });

  it('a credential a hand-edited config holds in a fixed header is masked on the providers screen, as in the re-add hint', () => {
    expect(headerSettingsText({ headers: { authorization: 'Bearer gw-secret-1', 'x-team': '42' } })).toBe('authorization=***; x-team=42');
    expect(headerSettingsText({ headers: { 'x-gw': 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789' } })).toBe('x-gw=***');
  });

  it('refuses what the CLI and the admin API refuse, in a sentence', () => {
    expect(parseHeaderList('x-team')).toEqual({ problem: '"x-team" must be name=value.' });
    expect(parseHeaderList('authorization=Bearer x')).toEqual({ problem: expect.stringMatching(/^Authorization cannot be a fixed header \(a credential goes in the keychain/) });
    expect(parseHeaderList('x-gw-key=1', 'x-gw-key')).toEqual({ problem: expect.stringMatching(/^X-gw-key cannot be a fixed header/) });
    expect(authHeaderInputProblem('')).toBeUndefined();
    expect(authHeaderInputProblem('api-key')).toBeUndefined();
    expect(authHeaderInputProblem('content-type')).toBe('Content-type cannot carry the credential.');
  });
});
