/**
 * A group's protocol B model list looks up its targets' context windows in their providers'
 * lists; a provider whose list fails leaves its names without a window, and the request log names
 * it as GET …/models on a provider base does (an attempt with its status and code), so
 * `svc-proxy logs`, the TUI and stats read it as a provider not listed, and say why a window is
 * missing. Through the official SDKs.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { beforeEach, describe, expect, it } from 'vitest';
import { LogTable } from '../../src/cli/log-format.js';
import { statsKey } from '../../src/log/stats.js';
import { detailLines } from '../../src/tui/log/detail-lines.js';
import { KEYS, useHarness } from './harness.js';

const t = useHarness({
  groups: {
    g: [
      { name: 'fast', targets: ['anthropic/claude-sonnet-4-5', 'gemini/gemini-2.5-flash'] },
      { name: 'solo', targets: ['anthropic/claude-sonnet-4-5'] },
    ],
  },
});

beforeEach(() => {
  t.h.mocks.gemini.always('/v1beta/openai/models', t.h.mocks.gemini.error(500, 'internal'));
});

const anthropic = () => new Anthropic({ baseURL: t.h.groupB('g'), apiKey: 'k', maxRetries: 0 });
const openai = () => new OpenAI({ baseURL: t.h.groupA('g'), apiKey: 'k', maxRetries: 0 });

const GEMINI_FAILED = { target: 'gemini', status: 500, errorCode: 'upstream_error' };

describe('a group whose target’s model list fails', () => {
  it('protocol B list: the names still listed, the failed provider in the log entry beside the 200', async () => {
    const { data } = await anthropic().models.list();
    const byId = new Map(data.map((m) => [m.id, m]));
    expect([...byId.keys()]).toEqual(['fast', 'solo']);
    expect(byId.get('solo')).toMatchObject({ max_input_tokens: 200_000, max_tokens: 64_000 });
    expect(byId.get('fast')).not.toHaveProperty('max_input_tokens');
    expect(byId.get('fast')).not.toHaveProperty('max_tokens');

    const [entry] = await t.h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'models', base: 'group:g', status: 200, attempts: [expect.objectContaining(GEMINI_FAILED)] });
    expect(entry!.errorCode).toBeUndefined();
    expect(new LogTable([entry!]).row(entry!)).toContain('gemini: upstream_error');
    expect(JSON.stringify(entry)).not.toContain(KEYS.gemini.slice(-4));
  });

  it('protocol B retrieve: the entry without a window, the failure logged', async () => {
    const fast = await anthropic().models.retrieve('fast');
    expect(fast.id).toBe('fast');
    expect(fast).not.toHaveProperty('max_input_tokens');
    expect(fast).not.toHaveProperty('max_tokens');
    const [entry] = await t.h.waitForLogs(1);
    expect(entry).toMatchObject({ endpoint: 'model', base: 'group:g', modelAsked: 'fast', status: 200, attempts: [expect.objectContaining(GEMINI_FAILED)] });
    // read as a list's providers not listed, not as a request gemini answered: `logs`, the TUI, stats
    expect(new LogTable([entry!]).row(entry!)).toContain('gemini: upstream_error');
    expect(detailLines(entry!).map((l) => l.text)).toContain('Providers not listed (1)');
    expect(statsKey(entry!, 'provider')).not.toBe('gemini');
  });

  it('protocol A asks no provider for a group list, so it logs none', async () => {
    const ids: string[] = [];
    for await (const m of openai().models.list()) ids.push(m.id);
    expect(ids).toEqual(['fast', 'solo']);
    const [entry] = await t.h.waitForLogs(1);
    expect(entry!.attempts).toEqual([]);
  });
});
