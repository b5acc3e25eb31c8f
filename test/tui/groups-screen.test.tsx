/** The groups screen against a real daemon: add a group, add/edit/remove names, reorder targets. */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { holdRequests } from './hold-requests.js';
import { removeTempDirs } from '../daemon/harness.js';
import { KEYS, lines, startTui, type TuiHarness } from './harness.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

async function targetsOf(h: TuiHarness, slug: string, name: string): Promise<string[] | undefined> {
  const g = (await h.d.admin('GET', `/admin/groups/${slug}`)).json() as { models: { name: string; targets: { target: string }[] }[] };
  return g.models.find((m) => m.name === name)?.targets.map((t) => t.target);
}

/** The groups screen with an empty group "work", selected. */
async function withGroupWork(): Promise<TuiHarness> {
  const t = await startTui({ initialScreen: 'groups' });
  await t.d.admin('POST', '/admin/groups', { slug: 'work', models: [] });
  await t.press('r');
  await t.waitFor((f) => f.includes('▸ work'), 'the group');
  return t;
}

/** Opens the add-name wizard on "work" and answers both questions. */
async function addName(h: TuiHarness, name: string, targets: string): Promise<void> {
  await h.press('n');
  await h.waitFor((f) => f.includes('Add a model name to work'), 'the wizard');
  await h.type(name);
  await h.press(KEYS.enter);
  await h.waitFor((f) => f.includes('Targets:'), 'the targets question');
  await h.type(targets);
  await h.press(KEYS.enter);
}

describe('groups screen', () => {
  it('counts no groups before they have loaded', async () => {
    holdRequests('/admin/groups');
    h = await startTui({ initialScreen: 'groups' });
    const f = await h.waitFor((fr) => fr.includes('Model groups') && fr.includes('Loading…'), 'the screen loading');
    expect(lines(f).find((l) => l.startsWith('Model groups')), f).toMatch(/^Model groups a add group/);
  });

  it('adds a group and shows both of its base URLs', async () => {
    h = await startTui({ initialScreen: 'groups' });
    await h.waitFor((f) => f.includes('No groups yet'), 'the empty screen');
    await h.press('a');
    await h.waitFor((f) => f.includes('New group name:'), 'the prompt');
    await h.type('work');
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('▸ work'), 'the new group');
    expect(f).toContain('(0 names)');
    expect(f).toContain(`A (OpenAI)    ${h.d.origin}/g/work/protocol-a/v1`);
    expect(f).toContain(`B (Anthropic) ${h.d.origin}/g/work/protocol-b`);
    expect(f).toContain('Group "work" added');
  });

  it('adds a model name with ordered targets, reorders them, edits and removes them', async () => {
    h = await withGroupWork();
    await addName(h, 'claude-sonnet-4-5', 'anthropic/claude-sonnet-4-5, openai/gpt-5');
    let f = await h.waitFor((fr) => fr.includes('2. openai/gpt-5'), 'the targets');
    expect(f).toContain('claude-sonnet-4-5 → 2 targets');
    expect(f).toContain('1. anthropic/claude-sonnet-4-5 ⚠ not connected');
    expect(await targetsOf(h, 'work', 'claude-sonnet-4-5')).toEqual(['anthropic/claude-sonnet-4-5', 'openai/gpt-5']);

    // Rows: group, name, target 1, target 2. Move target 2 up with "[".
    await h.press(KEYS.down, KEYS.down, KEYS.down, '[');
    f = await h.waitFor((fr) => fr.includes('1. openai/gpt-5'), 'the reorder');
    expect(await targetsOf(h, 'work', 'claude-sonnet-4-5')).toEqual(['openai/gpt-5', 'anthropic/claude-sonnet-4-5']);
    // The selection followed the target: Shift-↓ moves it back down.
    await h.press(KEYS.shiftDown);
    await h.waitFor((fr) => fr.includes('1. anthropic/claude-sonnet-4-5'), 'the move back');
    expect(await targetsOf(h, 'work', 'claude-sonnet-4-5')).toEqual(['anthropic/claude-sonnet-4-5', 'openai/gpt-5']);
    // "]" on the last target cannot move it further: nothing changes.
    await h.press(']');

    // Edit the targets of the name: the field starts with the current ones.
    await h.press('e');
    f = await h.waitFor((fr) => fr.includes('Targets of "claude-sonnet-4-5":'), 'the edit field');
    expect(f).toContain('anthropic/claude-sonnet-4-5, openai/gpt-5');
    await h.press('\x15'); // Ctrl-U clears
    await h.type('nope/model');
    await h.press(KEYS.enter);
    // refused: the field stays open with the targets as typed and the daemon's reason
    f = await h.waitFor((fr) => fr.includes('unknown provider "nope"'), 'the refusal');
    expect(lines(f)).toContain('Targets of "claude-sonnet-4-5": nope/model');
    expect(f).toContain('Esc cancel');
    await h.press('\x15');
    await h.type('gemini/gemini-2.5-flash,openrouter/anthropic/claude-sonnet-4.5,openai/gpt-5');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('3. openai/gpt-5'), 'the edited targets');
    expect(await targetsOf(h, 'work', 'claude-sonnet-4-5')).toEqual(['gemini/gemini-2.5-flash', 'openrouter/anthropic/claude-sonnet-4.5', 'openai/gpt-5']);

    // Remove one target (asks first).
    await h.press(KEYS.home, KEYS.down, KEYS.down, 'd');
    f = await h.waitFor((fr) => fr.includes('Remove target gemini/gemini-2.5-flash'), 'the question');
    await h.press('y');
    await h.waitFor((fr) => fr.includes('2. openai/gpt-5') && !fr.includes('gemini/'), 'the removal');
    expect(await targetsOf(h, 'work', 'claude-sonnet-4-5')).toEqual(['openrouter/anthropic/claude-sonnet-4.5', 'openai/gpt-5']);

    // Remove the name.
    await h.press(KEYS.up, 'd');
    await h.waitFor((fr) => fr.includes('Remove "claude-sonnet-4-5" from group work?'), 'the question');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('(0 names)'), 'the name gone');
    expect(await targetsOf(h, 'work', 'claude-sonnet-4-5')).toBeUndefined();

    // Remove the group.
    await h.press(KEYS.up, 'd');
    await h.waitFor((fr) => fr.includes('Remove group "work"'), 'the question');
    await h.press('y');
    await h.waitFor((fr) => fr.includes('No groups yet'), 'the group gone');
    expect((await h.d.admin('GET', '/admin/groups/work')).status).toBe(404);
  });

  it('a reorder or target removal on targets changed elsewhere since shown writes nothing, says so and shows them as they are', async () => {
    h = await withGroupWork();
    await addName(h, 'fast', 'openai/gpt-5, anthropic/claude-sonnet-4-5');
    await h.waitFor((fr) => fr.includes('2. anthropic/claude-sonnet-4-5'), 'the targets');
    // the CLI (or another TUI) adds a third target; this screen has not polled since
    await h.d.admin('PUT', '/admin/groups/work/models', { name: 'fast', targets: ['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash'] });
    // Rows: group, name, target 1, target 2. Move target 1 down.
    await h.press(KEYS.down, KEYS.down, ']');
    let f = await h.waitFor((fr) => fr.includes('3. gemini/gemini-2.5-flash'), 'the targets as they are now');
    expect(f).toContain('changed elsewhere');
    expect(await targetsOf(h, 'work', 'fast')).toEqual(['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash']);

    // the same for removing a target
    await h.d.admin('PUT', '/admin/groups/work/models', { name: 'fast', targets: ['openai/gpt-5', 'gemini/gemini-2.5-flash'] });
    await h.press('d');
    await h.waitFor((fr) => fr.includes('[y/N]'), 'the question');
    await h.press('y');
    f = await h.waitFor((fr) => fr.includes('changed elsewhere'), 'the refusal');
    expect(await targetsOf(h, 'work', 'fast')).toEqual(['openai/gpt-5', 'gemini/gemini-2.5-flash']);
    await h.waitFor((fr) => fr.includes('2. gemini/gemini-2.5-flash') && !fr.includes('3. '), 'the targets as they are now');
  });

  it('an edit of targets changed elsewhere since the field opened writes nothing, says so; Enter again writes what was typed', async () => {
    h = await withGroupWork();
    await addName(h, 'fast', 'openai/gpt-5, anthropic/claude-sonnet-4-5');
    await h.waitFor((fr) => fr.includes('2. anthropic/claude-sonnet-4-5'), 'the targets');
    await h.press(KEYS.down, 'e');
    await h.waitFor((fr) => fr.includes('Targets of "fast":'), 'the edit field');
    // the CLI (or another TUI) adds a target while the field is open
    await h.d.admin('PUT', '/admin/groups/work/models', { name: 'fast', targets: ['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash'] });
    await h.type(', openrouter/openai/gpt-5');
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('changed elsewhere'), 'the refusal');
    expect(f).toContain('Targets of "fast":');
    expect(await targetsOf(h, 'work', 'fast')).toEqual(['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash']);
    await h.waitFor((fr) => fr.includes('3. gemini/gemini-2.5-flash'), 'the targets as they are now');
    // seen now: Enter writes the targets as typed
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('3. openrouter/openai/gpt-5'), 'the edit');
    expect(await targetsOf(h, 'work', 'fast')).toEqual(['openai/gpt-5', 'anthropic/claude-sonnet-4-5', 'openrouter/openai/gpt-5']);
  });

  it('a refused name and targets open the wizard again with them and the reason; fixed, Enter adds them; Esc cancels', async () => {
    h = await withGroupWork();
    await addName(h, 'fast', 'nope/model');
    // back at the name, as typed, with the daemon's reason
    let f = await h.waitFor((fr) => fr.includes('unknown provider "nope"'), 'the reason');
    expect(f).toContain('Add a model name to work');
    expect(lines(f)).toContain('Model name (as clients send it): fast');
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => fr.includes('Targets: nope/model'), 'the targets as typed');
    await h.press('\x15'); // Ctrl-U clears
    await h.type('openai/gpt-5');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Added "fast" in work'), 'the name added');
    expect(await targetsOf(h, 'work', 'fast')).toEqual(['openai/gpt-5']);
    // refused again, then Esc: the wizard closes and the reason with it
    await addName(h, 'slow', 'nope/model');
    await h.waitFor((fr) => fr.includes('unknown provider "nope"'), 'the reason');
    await h.press(KEYS.escape);
    f = await h.waitFor((fr) => !fr.includes('Add a model name to work'), 'the wizard to close');
    expect(f).not.toContain('unknown provider');
    expect(await targetsOf(h, 'work', 'slow')).toBeUndefined();
  });

  it('a refused targets edit closed with Esc stores nothing and takes the reason with it', async () => {
    h = await withGroupWork();
    await addName(h, 'fast', 'openai/gpt-5');
    await h.waitFor((fr) => fr.includes('1. openai/gpt-5'), 'the target');
    await h.press(KEYS.down, 'e');
    await h.waitFor((fr) => fr.includes('Targets of "fast": openai/gpt-5'), 'the edit field');
    await h.type(', nope/model');
    await h.press(KEYS.enter);
    const f = await h.waitFor((fr) => fr.includes('unknown provider "nope"'), 'the refusal');
    expect(lines(f)).toContain('Targets of "fast": openai/gpt-5, nope/model');
    await h.press(KEYS.escape);
    const closed = await h.waitFor((fr) => !fr.includes('Targets of "fast"'), 'the field to close');
    expect(closed).not.toContain('unknown provider');
    expect(await targetsOf(h, 'work', 'fast')).toEqual(['openai/gpt-5']);
  });

  it('a refused group name keeps the field open with the name and the reason; fixed, Enter adds it; Esc cancels', async () => {
    h = await withGroupWork();
    await h.press('a');
    await h.waitFor((f) => f.includes('New group name:'), 'the prompt');
    await h.type('work');
    await h.press(KEYS.enter);
    let f = await h.waitFor((fr) => fr.includes('already exists'), 'the reason');
    expect(lines(f)).toContain('New group name: work');
    expect(f).toContain('Esc cancel');
    await h.type('-2');
    await h.press(KEYS.enter);
    await h.waitFor((fr) => fr.includes('Group "work-2" added'), 'the group added');
    expect((await h.d.admin('GET', '/admin/groups/work-2')).status).toBe(200);
    // refused again (a space is not allowed), then Esc: the field closes and the reason with it
    await h.press('a');
    await h.waitFor((fr) => fr.includes('New group name:'), 'the prompt');
    await h.type('my group');
    await h.press(KEYS.enter);
    f = await h.waitFor((fr) => fr.includes('Group name "my group"'), 'the reason');
    expect(lines(f)).toContain('New group name: my group');
    await h.press(KEYS.escape);
    const closed = await h.waitFor((fr) => !fr.includes('New group name:'), 'the prompt to close');
    expect(closed).not.toContain('Group name "my group"');
    const list = (await h.d.admin('GET', '/admin/groups')).json() as { groups: { slug: string }[] };
    expect(list.groups.map((g) => g.slug).sort()).toEqual(['work', 'work-2']);
  });

  it('names may contain "/" and "."; several groups list in order with their names', async () => {
    h = await startTui({ initialScreen: 'groups' });
    await h.d.admin('POST', '/admin/groups', { slug: 'alpha', models: [{ name: 'org/model.v1', targets: 'openai/gpt-5' }] });
    await h.d.admin('POST', '/admin/groups', { slug: 'beta', models: [{ name: 'gpt-5', targets: ['anthropic/claude-opus-4-1'] }] });
    await h.press('r');
    const f = await h.waitFor((fr) => fr.includes('▸ beta'), 'both groups');
    const order = lines(f)
      .map((l) => l.trim())
      .filter((l) => /^(▸ |org\/|gpt-5|1\. )/.test(l));
    expect(order).toEqual(['▸ alpha (1 name)', 'org/model.v1 → 1 target', '1. openai/gpt-5 ⚠ not connected', '▸ beta (1 name)', 'gpt-5 → 1 target', '1. anthropic/claude-opus-4-1 ⚠ not connected']);
    // The base URLs follow the selection.
    await h.press(KEYS.end);
    expect(await h.waitFor((fr) => fr.includes('/g/beta/protocol-a/v1'), 'beta URLs')).toContain('Base URLs of beta');
  });

  it('says at once that a name’s last target cannot go, without asking first; a cancelled question brings back no old message', async () => {
    h = await startTui({ initialScreen: 'groups' });
    await h.d.admin('POST', '/admin/groups', { slug: 'work', models: [{ name: 'solo', targets: ['openai/gpt-5'] }] });
    await h.press('r');
    await h.waitFor((f) => f.includes('1. openai/gpt-5'), 'the group');
    await h.press(KEYS.end, 'd');
    const refused = await h.waitFor((f) => f.includes('needs at least one target'), 'the refusal');
    expect(refused).not.toContain('[y/N]');
    expect(refused).toContain('✗ "solo" needs at least one target: remove the name instead');
    // a question opened after it and answered no leaves no message behind: that one was about the target
    await h.press(KEYS.home, 'd');
    await h.waitFor((f) => f.includes('Remove group "work"'), 'the question');
    await h.press('n');
    const after = await h.waitFor((f) => !f.includes('[y/N]'), 'the question gone');
    expect(after).not.toContain('needs at least one target');
    expect(await targetsOf(h, 'work', 'solo')).toEqual(['openai/gpt-5']);
  });
});
