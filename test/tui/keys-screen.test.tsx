/** The keys screen against a real daemon: list, create (key shown once), revoke with confirmation. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { holdRequests } from './hold-requests.js';
import { AdminClient } from '../../src/cli/admin-client.js';
import { removeTempDirs } from '../daemon/harness.js';
import { textWidth } from '../../src/util/text-width.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';
import { showsScreen } from './screen-shown.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

const KEY_RE = /sk-svc-proxy-[A-Za-z0-9]{20,}/;

/** A request to the proxy with this key: 200 past auth (the test daemon echoes), else 401. */
async function callWith(h: TuiHarness, key: string): Promise<number> {
  const res = await fetch(`${h.d.origin}/protocol-a/v1/chat/completions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify({ model: 'openai/gpt-5', messages: [{ role: 'user', content: 'hi' }] }),
  });
  await res.text();
  return res.status;
}

describe('keys screen', () => {
  it('counts no keys before the list has loaded', async () => {
    holdRequests('/admin/keys');
    h = await startTui({ initialScreen: 'keys' });
    const f = await h.waitFor((fr) => fr.includes('Service keys') && fr.includes('Loading…'), 'the screen loading');
    expect(lines(f).find((l) => l.startsWith('Service keys')), f).toMatch(/^Service keys n new/);
  });

  it('creates a key: asks a name, shows the full key once with "copy it now", then only its prefix, selected', async () => {
    h = await startTui({ initialScreen: 'keys' });
    await h.waitFor((f) => f.includes('No keys yet'), 'the empty list');
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the name prompt');
    await h.type('laptop-claude');
    await h.press(KEYS.enter);
    const shown = await h.waitFor((f) => KEY_RE.test(f), 'the new key');
    expect(shown).toContain('Key "laptop-claude" created');
    expect(shown).toContain('Copy it now: it is not shown again.');
    const key = shown.match(KEY_RE)![0];
    // The whole key is on screen, uncut.
    expect(lines(shown).some((l) => l.includes(key))).toBe(true);
    expect(await callWith(h, key)).toBe(200);

    await h.press(KEYS.enter);
    const listed = await h.waitFor((f) => f.includes('laptop-claude') && f.includes('active') && !f.includes('Copy it now'), 'the list');
    expect(listed).not.toContain(key);
    expect(listed).toContain(`${key.slice(0, 17)}`); // the stored display prefix
    expect(listed).toContain('1 active, 0 revoked');
    // A second key is selected once created: d asks about it, not the first
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the name prompt');
    await h.type('second');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('Key "second" created'), 'the second key');
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('2 active, 0 revoked') && !f.includes('Copy it now'), 'the list of two');
    await h.press('d');
    expect(await h.waitFor((f) => f.includes('[y/N]'), 'the question')).toContain('Revoke key "second"');
    await h.press('n');
    // Switching screens and back never brings the key back.
    await h.press('1');
    await h.waitFor((f) => showsScreen(f, '1'), 'the log');
    await h.press('2');
    expect(await h.waitFor((f) => showsScreen(f, '2') && f.includes('laptop-claude'), 'the list again')).not.toMatch(KEY_RE);
  });

  it('a refused duplicate name keeps the field open with the name and the reason; fixed, Enter creates it; Esc cancels', async () => {
    h = await startTui({ initialScreen: 'keys' });
    await h.d.admin('POST', '/admin/keys', { name: 'ci' });
    await h.press('r');
    await h.waitFor((f) => f.includes('ci ') && f.includes('active'), 'the listed key');
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the prompt');
    await h.type('ci');
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('already exists'), 'the reason');
    expect(f).toContain('An active key named "ci" already exists');
    expect(lines(f)).toContain('Name for the new key: ci');
    expect(f).toContain('Esc cancel');
    expect(f).not.toMatch(KEY_RE);
    // the name typed is still there to fix
    await h.type('-2');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => KEY_RE.test(fr) && fr.includes('Key "ci-2" created'), 'the new key');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('2 active, 0 revoked') && !fr.includes('Copy it now'), 'the list of two');
    // refused again, then Esc: the field closes and the reason with it
    await h.press('n');
    await h.waitFor((fr) => fr.includes('Name for the new key:'), 'the prompt');
    await h.type('ci');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('already exists'), 'the reason');
    await h.press(KEYS.escape);
    const closed = await h.waitFor((fr) => !fr.includes('Name for the new key:'), 'the prompt to close');
    expect(closed).not.toContain('already exists');
    const keys = (await h.d.admin('GET', '/admin/keys')).json() as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name).sort()).toEqual(['ci', 'ci-2']);
  });

  it('two Enters in one read (a paste with a blank line, a busy machine) create the key once and show it', async () => {
    // counted before the TUI binds its client's request (hold-requests.ts)
    const creates: string[] = [];
    const request = AdminClient.prototype.request;
    vi.spyOn(AdminClient.prototype, 'request').mockImplementation(function (this: AdminClient, ...args: Parameters<AdminClient['request']>) {
      if (args[0] === 'POST' && args[1] === '/admin/keys') creates.push(args[1]);
      return request.apply(this, args);
    });
    h = await startTui({ initialScreen: 'keys' });
    await h.waitFor((f) => f.includes('No keys yet'), 'the empty list');
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the name prompt');
    // the second Enter reaches what is on screen once the field has closed, not the field again
    await h.type('pasted\r\r');
    const shown = await h.waitFor((f) => KEY_RE.test(f) || f.includes('already exists'), 'the outcome');
    expect(shown).not.toContain('already exists');
    expect(shown).toContain('Key "pasted" created');
    const keys = (await h.d.admin('GET', '/admin/keys')).json() as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).toEqual(['pasted']);
    // a second create, refused or not, would race the first for the screen and could hide the key
    expect(creates).toHaveLength(1);
  });

  it('a screen key pressed while the daemon is still creating the key waits: the new key is shown, not lost with the screen', async () => {
    // the create is answered only when the test says (counted before the TUI binds its client's request)
    let answer = () => {};
    const answered = new Promise<void>((resolve) => (answer = resolve));
    const request = AdminClient.prototype.request;
    vi.spyOn(AdminClient.prototype, 'request').mockImplementation(async function (this: AdminClient, ...args: Parameters<AdminClient['request']>) {
      if (args[0] === 'POST' && args[1] === '/admin/keys') await answered;
      return request.apply(this, args);
    });
    h = await startTui({ initialScreen: 'keys' });
    await h.waitFor((f) => f.includes('No keys yet'), 'the empty list');
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the name prompt');
    await h.type('slow-one');
    await h.press(KEYS.enter, '1', KEYS.tab, 'q');
    answer();
    const shown = await h.waitFor((f) => KEY_RE.test(f), 'the new key');
    expect(shown).toContain('Key "slow-one" created');
    // the keyboard is let go once the key is on screen: dismissed, the screen keys work again
    await h.press(KEYS.enter);
    await h.waitFor((f) => f.includes('1 active, 0 revoked'), 'the list');
    await h.press('1');
    await h.waitFor((f) => showsScreen(f, '1'), 'the log');
  });

  it('Backspace deletes a whole character: an emoji with its modifier, a letter with its accent', async () => {
    h = await startTui({ initialScreen: 'keys' });
    await h.waitFor((f) => f.includes('Service keys'), 'the screen');
    await h.press('n');
    await h.waitFor((f) => f.includes('Name for the new key:'), 'the prompt');
    await h.type('cafe\u0301👍🏽');
    await h.press(KEYS.backspace);
    const f = await h.waitFor((fr) => !fr.includes('👍'), 'the emoji gone whole');
    expect(f).toContain('Name for the new key: cafe\u0301');
    expect(f).not.toMatch(/[\ud800-\udfff]/); // no half of it left behind
    await h.type('x👍');
    await h.press(KEYS.backspace, KEYS.backspace, KEYS.enter);
    await h.waitFor((fr) => fr.includes('created (key_'), 'the key');
    const keys = (await h.d.admin('GET', '/admin/keys')).json() as { keys: { name: string }[] };
    expect(keys.keys.map((k) => k.name)).toEqual(['cafe\u0301']);
  });

  it('the daemon refuses a key name holding half of a character, with a clear error', async () => {
    h = await startTui({ initialScreen: 'keys' });
    const res = await h.d.admin('POST', '/admin/keys', '{"name":"laptop\\ud83d"}');
    expect(res.status).toBe(400);
    expect(JSON.stringify(res.json())).toMatch(/half of a character/);
  });

  it('revokes the selected key after a confirmation; the key stops working at once', async () => {
    h = await startTui({ initialScreen: 'keys' });
    const first = (await h.d.admin('POST', '/admin/keys', { name: 'first' })).json() as { key: string };
    const second = (await h.d.admin('POST', '/admin/keys', { name: 'second' })).json() as { key: string };
    await h.press('r');
    await h.waitFor((f) => f.includes('second'), 'both keys');

    // "n" (or Enter, or Esc) at the question keeps the key.
    await h.press(KEYS.down, 'd');
    let f = await h.waitFor((fr) => fr.includes('Revoke key "second"'), 'the confirmation');
    expect(f).toContain('[y/N]');
    await h.press('n');
    await h.waitFor((fr) => !fr.includes('Revoke key'), 'the question to close');
    expect(await callWith(h, second.key)).toBe(200);

    await h.press('d');
    await h.waitFor((fr) => fr.includes('Revoke key "second"'), 'the confirmation');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('revoked: it no longer works'), 'the revoke');
    expect(await callWith(h, second.key)).toBe(401);
    expect(await callWith(h, first.key)).toBe(200);
    f = await h.waitFor((fr) => fr.includes('1 active, 1 revoked'), 'the refreshed list');
    expect(lines(f).find((l) => l.startsWith('second'))).toMatch(/revoked/);

    // Revoking it again is refused politely, without a question.
    await h.press('d');
    await h.waitFor((fr) => fr.includes('is already revoked'), 'the note');
  });

  it('c copies the new key whole through the terminal (OSC 52) and says so; nothing else written carries it', async () => {
    h = await startTui({ initialScreen: 'keys', size: { columns: 30, rows: 14 } });
    await h.waitFor((f) => f.includes('No keys yet'), 'the empty list');
    await h.press('n');
    await h.waitFor((f) => /(Key name|Name):/.test(f), 'the name prompt');
    await h.type('copied');
    await h.press(KEYS.enter);
    const shown = await h.waitFor((f) => f.includes('c copy · Enter when done.'), 'the new key with its copy key');
    // wrapped at 30 columns: a mouse copy would carry the line breaks
    const all = lines(shown).map((l) => l.trim());
    const from = all.findIndex((l) => l.startsWith('sk-svc-proxy-'));
    const key = all.slice(from, from + 2).join('');
    expect(key, shown).toMatch(/^sk-svc-proxy-[A-Za-z0-9]{43}$/);

    await h.press('c');
    const f = await h.waitFor((fr) => fr.includes('Sent to the'), 'what the copy did');
    expect(lines(f).map((l) => l.trim()).join(' '), f).toContain('Sent to the clipboard (OSC 52): paste to check, as some terminals ignore it.');
    const b64 = Buffer.from(key).toString('base64');
    // outside tmux: the one sequence, written on its own between frames
    const writes = h.ui.stdout.frames.filter((w) => w.includes(b64));
    expect(writes).toEqual([`\x1b]52;c;${b64}\x07`]);
    expect(await callWith(h, key)).toBe(200);
    await h.press(KEYS.enter);
    await h.waitFor((fr) => !fr.includes('Copy it') && fr.includes('copied'), 'the list');
  });

  it('in a narrow terminal shows the new key whole, wrapped, with its warning', async () => {
    for (const [columns, rows] of [[20, 10], [30, 12], [40, 15], [20, 24]] as const) {
      h = await startTui({ initialScreen: 'keys', size: { columns, rows } });
      await h.waitFor((f) => f.includes('No keys yet'), 'the empty list');
      await h.press('n');
      await h.waitFor((f) => /(Name for the new key|Key name|Name):/.test(f), 'the name prompt');
      await h.type(`k${columns}x${rows}`);
      await h.press(KEYS.enter);
      const frame = await h.waitFor((f) => f.includes('Copy it') || f.includes('✗'), 'the new key');
      const what = `${columns}x${rows}:\n${frame}`;
      const all = lines(frame);
      expect(all, what).toHaveLength(rows - 1);
      for (const l of all) expect(textWidth(l), what).toBeLessThanOrEqual(columns);
      // its lines follow one another with nothing around them to copy along
      const from = all.findIndex((l) => l.trim().startsWith('sk-svc-proxy-'));
      const rest = all.slice(from).map((l) => l.trim());
      const key = rest.slice(0, rest.findIndex((l) => !/^[A-Za-z0-9-]+$/.test(l))).join('');
      expect(key, what).toMatch(/^sk-svc-proxy-[A-Za-z0-9]{43}$/);
      expect(frame, what).not.toContain('│');
      expect(all.map((l) => l.trim()).join(' '), what).toContain('Copy it now: it is not shown again.');
      expect(await callWith(h, key)).toBe(200);
      if (columns <= 30) expect(all.at(-1)!.trimEnd(), what).toBe('? help · q quit');
      await h.press(KEYS.enter);
      await h.waitFor((f) => !f.includes('Copy it'), 'the list');
      await h.close();
      h = undefined;
    }
  });

  it('wraps the name prompt\'s example onto a second line in a narrow terminal rather than cutting it', async () => {
    h = await startTui({ initialScreen: 'keys', size: { columns: 40, rows: 15 } });
    await h.waitFor((f) => f.includes('No keys yet'), 'the empty list');
    await h.press('n');
    const frame = await h.waitFor((f) => f.includes('Name for the new key:') && f.includes('creates it'), 'the name prompt and its hint');
    const all = lines(frame).map((l) => l.trimEnd());
    const at = all.findIndex((l) => l.startsWith('Name for the new key:'));
    expect(all.slice(at + 1, at + 3).join(' '), frame).toBe('Esc cancel · e.g. laptop-claude · Enter creates it');
    expect(all, frame).toHaveLength(14);
  });
});

