/** Which wizard answer a real daemon's refusal names, from the errors its admin API sends. */
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { removeTempDirs } from '../../daemon/harness.js';
import { startTui, type TuiHarness } from '../harness.js';
import { refusedAnswer } from '../../../src/tui/providers/refused-answer.js';
import type { TuiBackend } from '../../../src/tui/backend.js';

let h: TuiHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});
afterAll(removeTempDirs);

async function backend(): Promise<TuiBackend> {
  h = await startTui({ initialScreen: 'providers' });
  await h.waitFor((f) => f.includes('gemini'), 'the list');
  const state = h.link.state;
  if (state.status !== 'connected') throw new Error('the TUI is not connected');
  return state.backend;
}

const refusal = (p: Promise<unknown>) => p.then(() => undefined, (err: unknown) => err);

describe('refusedAnswer', () => {
  it('names the header setting, the name or the URL the daemon refused; nothing for what the wizard does not ask', async () => {
    const b = await backend();
    const headers = ['authHeader', 'headers'];
    expect(refusedAnswer(await refusal(b.management.setProviderHeaders('anthropic', { authHeader: 'x api key' })), headers)).toBe('authHeader');
    expect(refusedAnswer(await refusal(b.management.setProviderHeaders('anthropic', { headers: { 'x team': '1' } })), headers)).toBe('headers');
    const local = ['slug', 'url'];
    expect(refusedAnswer(await refusal(b.management.addLocal({ slug: 'openai', url: 'http://127.0.0.1:1' })), local)).toBe('slug');
    expect(refusedAnswer(await refusal(b.management.addLocal({ slug: 'lm', url: 'ftp://127.0.0.1:1' })), local)).toBe('url');
    // a URL refused where the wizard asks none: no answer named, so it starts from the first
    expect(refusedAnswer(await refusal(b.management.addLocal({ slug: 'lm', url: 'ftp://127.0.0.1:1' })), ['slug'])).toBeUndefined();
    expect(refusedAnswer(new Error('network down'), local)).toBeUndefined();
  });
});
