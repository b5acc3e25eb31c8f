/**
 * Claude Code marks its prompt-cache breakpoints with `cache_control` (the last system block, the
 * conversation's last block, often a tool result). OpenRouter takes them on Chat content parts and
 * caches Claude (and Gemini) up to the marked block, so they go on to openrouter/…: without them
 * every turn of a long session is billed in full. Gemini's own endpoint refuses the field: none there.
 */
import Anthropic from '@anthropic-ai/sdk';
import { describe, expect, it } from 'vitest';
import { useHarness } from './harness.js';

const t = useHarness();
const client = () => new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
const ephemeral = { type: 'ephemeral' } as const;

const params = (model: string): Anthropic.MessageCreateParamsNonStreaming => ({
  model,
  max_tokens: 1024,
  system: [
    { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
    { type: 'text', text: 'Working directory: /repo', cache_control: ephemeral },
  ],
  tools: [{ name: 'Read', description: 'Read a file.', input_schema: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'] } }],
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'What is in README.md?', cache_control: ephemeral }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_01A', name: 'Read', input: { path: 'README.md' } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '# svc-proxy', cache_control: ephemeral }] },
  ],
});

describe('cache_control from a Messages client', () => {
  it('reaches openrouter/… on the system part, the user text and the tool message that carried it', async () => {
    for (const stream of [false, true]) {
      t.h.reset();
      const p = params('openrouter/anthropic/claude-sonnet-4.5');
      if (stream) await client().messages.stream(p).finalMessage();
      else await client().messages.create(p);
      const sent = t.h.mocks.openrouter.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
      expect(sent).toEqual([
        {
          role: 'system',
          content: [
            { type: 'text', text: "You are Claude Code, Anthropic's official CLI for Claude." },
            { type: 'text', text: 'Working directory: /repo', cache_control: ephemeral },
          ],
        },
        { role: 'user', content: [{ type: 'text', text: 'What is in README.md?', cache_control: ephemeral }] },
        expect.objectContaining({ role: 'assistant', tool_calls: [expect.objectContaining({ id: 'toolu_01A' })] }),
        { role: 'tool', tool_call_id: 'toolu_01A', content: [{ type: 'text', text: '# svc-proxy', cache_control: ephemeral }] },
      ]);
    }
  });

  it('a tool result without a mark stays a plain string; gemini/… gets no cache_control at all', async () => {
    const p = params('openrouter/anthropic/claude-sonnet-4.5');
    const unmarked = { ...p, messages: [...p.messages.slice(0, 2), { role: 'user' as const, content: [{ type: 'tool_result' as const, tool_use_id: 'toolu_01A', content: '# svc-proxy' }] }] };
    await client().messages.create(unmarked);
    const sent = t.h.mocks.openrouter.lastGeneration().body.messages as Array<{ role: string; content: unknown }>;
    expect(sent.at(-1)).toEqual({ role: 'tool', tool_call_id: 'toolu_01A', content: '# svc-proxy' });
    await client().messages.create(params('gemini/gemini-2.5-flash'));
    expect(JSON.stringify(t.h.mocks.gemini.lastGeneration().body)).not.toContain('cache_control');
  });
});
