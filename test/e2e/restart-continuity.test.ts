/**
 * A conversation outlives the daemon that relayed it: a session that moved from a custom Messages
 * endpoint (GLM here) to Claude after `svc-proxy restart` must still keep that endpoint's thinking
 * signatures from Anthropic, which rejects them ("Invalid `signature` in `thinking` block"). The
 * daemon keeps which endpoint issued each signature in the state dir (daemon/issuers-file.ts).
 */
import type Anthropic from '@anthropic-ai/sdk';
import { stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { messagesWeatherTool } from '../fixtures/e2e-helpers.js';
import { MODELS, startWorld, type World } from '../fixtures/world.js';

let world: World;

beforeAll(async () => {
  world = await startWorld();
}, 60_000);
afterAll(async () => world?.close());

const question: Anthropic.MessageParam = { role: 'user', content: 'Weather in Paris?' };
const params = { max_tokens: 8000, thinking: { type: 'enabled' as const, budget_tokens: 4000 }, tools: [messagesWeatherTool] };

describe('after a restart', () => {
  it('a custom endpoint’s signature still goes to no other provider', async () => {
    world.mocks.customB.next({ kind: 'turn', turn: { reasoning: { text: 'GLM thinks.' }, toolCalls: [{ name: 'get_weather', arguments: { city: 'Paris' } }] } });
    const first = await world.daemon.anthropic().messages.create({ ...params, model: MODELS.customB, messages: [question] });
    const glmSignature = (first.content[0] as Anthropic.ThinkingBlock).signature;
    expect(glmSignature).toBe(world.mocks.customB.lastSignature);

    await world.daemon.stop();
    await world.daemon.start();

    const toolUse = first.content.find((b) => b.type === 'tool_use') as Anthropic.ToolUseBlock;
    const second = await world.daemon.anthropic().messages.create({
      ...params,
      model: MODELS.anthropic,
      messages: [question, { role: 'assistant', content: first.content }, { role: 'user', content: [{ type: 'tool_result', tool_use_id: toolUse.id, content: 'sunny' }] }],
    });
    expect(second.content).toEqual([expect.objectContaining({ type: 'text', text: 'Tool said: sunny' })]);
    const sent = world.mocks.anthropic.lastGeneration();
    expect(sent.raw.toString('utf8')).not.toContain(glmSignature);
    expect(sent.body.thinking, 'the answered tool turn lost its proof: thinking off').toBeUndefined();
    expect((await stat(join(world.daemon.home, 'proof-issuers.json'))).mode & 0o777, 'kept private').toBe(0o600);
  });
});
