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
    // a header named for a credential, whatever its value looks like
    expect(headerSettingsText({ headers: { 'X-Gateway-Token': 'plain123', 'x-auth-user': 'bob', 'x-team': '42' } })).toBe('X-Gateway-Token=***; x-auth-user=***; x-team=42');
  });

  it('the editor opens with a stored credential masked; *** left as it was sends the marker that keeps the stored value, and never stands for a new one', () => {
    const secret = 'sk-ant-api03-abcdefghijklmnopqrstuvwxyz0123456789';
    // as the admin API lists them: the credentials masked already
    const stored = { 'X-Gw': '***', 'x-goog-api-key': '***', 'x-team': '42' };
    const shown = headerListText(stored);
    expect(shown).toBe('X-Gw=***; x-goog-api-key=***; x-team=42');
    expect(parseHeaderList(shown, undefined, stored)).toEqual({ headers: { 'x-gw': { keep: true }, 'x-goog-api-key': { keep: true }, 'x-team': '42' } });
    expect(parseHeaderList('x-gw=***; x-team=43', undefined, stored)).toEqual({ headers: { 'x-gw': { keep: true }, 'x-team': '43' } });
    // a header shown as it is has no masked value to keep, nor has a new or renamed one
    for (const text of ['x-team=***', 'x-other=***', 'x-gw-renamed=***']) expect(parseHeaderList(text, undefined, stored)).toEqual({ problem: expect.stringMatching(/^\*\*\* keeps a value .* it has none to keep/) });
    expect(parseHeaderList('x-gw=***')).toEqual({ problem: expect.stringMatching(/it has none to keep/) });
    // a kept value still may not become the key's header
    expect(parseHeaderList('x-gw=***', 'x-gw', stored)).toEqual({ problem: expect.stringMatching(/^X-gw cannot be a fixed header/) });
    // a new credential is refused as ever
    expect(parseHeaderList(`x-gw=${secret}x`, undefined, stored)).toEqual({ problem: expect.stringMatching(/looks like a key/) });
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
