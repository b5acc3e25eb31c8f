/** The model-family history rules as one step: each family's rules for its models, nothing for the others — tested once per model id. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fillReasoningContent } from '../../src/providers/deepseek-reasoning.js';
import { fillKimiReasoningContent } from '../../src/providers/kimi-reasoning.js';
import { inlineMiniMaxReasoning } from '../../src/providers/minimax-reasoning.js';
import { fitToolCallIds } from '../../src/providers/mistral-tool-ids.js';
import { bridgeToolToUser } from '../../src/providers/mistral-turn-order.js';
import { fitModelFamilyHistory } from '../../src/providers/model-family-history.js';

type Msg = Record<string, unknown>;

function conversation(): { messages: Msg[] } {
  return {
    messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: null, reasoning: 'thought', tool_calls: [{ id: 'call_abc_123456', type: 'function', function: { name: 'f', arguments: '{}' } }] },
      { role: 'tool', tool_call_id: 'call_abc_123456', content: 'r' },
    ],
  };
}

describe('fitModelFamilyHistory', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('applies the rules of the model family, on every request to it', () => {
    for (let i = 0; i < 2; i++) {
      const deepseek = conversation();
      fitModelFamilyHistory(deepseek, 'deepseek-reasoner');
      expect(deepseek.messages[1]!.reasoning_content).toBe('thought');
      const mistral = conversation();
      fitModelFamilyHistory(mistral, 'mistral-large-latest');
      const id = (mistral.messages[1]!.tool_calls as Msg[])[0]!.id;
      expect(id).toMatch(/^[A-Za-z0-9]{9}$/);
      expect(mistral.messages[2]!.tool_call_id).toBe(id);
    }
  });

  it("leaves a model of none of the families alone, and asks its id the families' tests only once", () => {
    const first = conversation();
    fitModelFamilyHistory(first, 'family-less-model-1');
    expect(first).toEqual(conversation());
    const test = vi.spyOn(RegExp.prototype, 'test');
    const again = conversation();
    fitModelFamilyHistory(again, 'family-less-model-1');
    expect(again).toEqual(conversation());
    expect(test).not.toHaveBeenCalled();
  });
});

describe('fitModelFamilyHistory, gated once per model id', () => {
  it('does what the five rules do ungated, for every family (Kimi and MiniMax too) and for none', () => {
    const models = ['deepseek-reasoner', 'kimi-k2-thinking', 'moonshotai/Kimi-K2.5', 'k2p5', 'MiniMax-M2.1', 'minimax/minimax-m2', 'devstral-small', 'qwen3-coder', 'gpt-oss:20b'];
    for (const model of models) {
      for (let i = 0; i < 2; i++) {
        const ungated = { ...conversation(), thinking: { type: 'enabled' } };
        fillReasoningContent(ungated, model);
        fillKimiReasoningContent(ungated, model);
        fitToolCallIds(ungated, model);
        bridgeToolToUser(ungated, model);
        inlineMiniMaxReasoning(ungated, model);
        const gated = { ...conversation(), thinking: { type: 'enabled' } };
        fitModelFamilyHistory(gated, model);
        expect(gated, `${model}, call ${i + 1}`).toEqual(ungated);
      }
    }
    // the families' rules did change something: the comparison is not of untouched bodies
    const kimi = { ...conversation(), thinking: { type: 'enabled' } };
    fitModelFamilyHistory(kimi, 'kimi-k2-thinking');
    const minimax = conversation();
    fitModelFamilyHistory(minimax, 'MiniMax-M2.1');
    expect(kimi.messages).not.toEqual(conversation().messages);
    expect(minimax.messages).not.toEqual(conversation().messages);
  });
});
