import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fitToolCallIds, isMistralModel, mistralToolCallId } from '../../src/providers/mistral-tool-ids.js';

describe('mistralToolCallId', () => {
  it('gives every id nine letters and digits, the same each time, distinct ids distinct (property)', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        expect(mistralToolCallId(a)).toMatch(/^[A-Za-z0-9]{9}$/);
        expect(mistralToolCallId(a)).toBe(mistralToolCallId(a));
        if (a !== b && !/^[A-Za-z0-9]{9}$/.test(a) && !/^[A-Za-z0-9]{9}$/.test(b)) expect(mistralToolCallId(a)).not.toBe(mistralToolCallId(b));
      }),
    );
    expect(mistralToolCallId('D681PevKs')).toBe('D681PevKs');
  });

  it('names Mistral models only', () => {
    for (const m of ['mistral-large-latest', 'devstral-small-2', 'mistralai/Devstral-Small-2505', 'codestral-latest', 'magistral-medium', 'Mixtral-8x7B']) expect(isMistralModel(m)).toBe(true);
    for (const m of ['qwen3-coder', 'gpt-5.4', 'kimi-k2', 'deepseek-r1']) expect(isMistralModel(m)).toBe(false);
  });
});

describe('fitToolCallIds', () => {
  it('fits calls and results alike, and leaves other models alone', () => {
    const body = () => ({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'toolu_01A', type: 'function', function: { name: 'f', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'toolu_01A', content: 'r' },
      ],
    });
    const mistral = body();
    fitToolCallIds(mistral, 'devstral-small-2');
    const id = mistralToolCallId('toolu_01A');
    expect(mistral.messages[1]!.tool_calls![0]!.id).toBe(id);
    expect(mistral.messages[2]!.tool_call_id).toBe(id);
    const other = body();
    fitToolCallIds(other, 'qwen3-coder');
    expect(other).toEqual(body());
  });
});
