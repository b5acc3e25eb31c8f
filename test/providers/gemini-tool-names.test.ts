import { describe, expect, it } from 'vitest';
import { nameToolResults } from '../../src/providers/gemini-tool-names.js';

const call = (id: string, name: string) => ({ id, type: 'function', function: { name, arguments: '{}' } });

describe('nameToolResults', () => {
  it('names each tool result after the call it answers, parallel calls and later turns included', () => {
    const body = {
      messages: [
        { role: 'user', content: 'Look.' },
        { role: 'assistant', content: null, tool_calls: [call('c1', 'read_file'), call('c2', 'list_dir')] },
        { role: 'tool', tool_call_id: 'c2', content: 'a b' },
        { role: 'tool', tool_call_id: 'c1', content: 'text' },
        { role: 'assistant', content: null, tool_calls: [call('c3', 'bash')] },
        { role: 'tool', tool_call_id: 'c3', content: 'ok' },
      ],
    };
    nameToolResults(body);
    expect(body.messages.filter((m) => m.role === 'tool').map((m) => (m as { name?: string }).name)).toEqual(['list_dir', 'read_file', 'bash']);
  });

  it('keeps a name the client gave, and leaves a result whose call is not in the conversation as it is', () => {
    const body = {
      messages: [
        { role: 'assistant', content: null, tool_calls: [call('c1', 'read_file')] },
        { role: 'tool', tool_call_id: 'c1', name: 'own', content: 'x' },
        { role: 'tool', tool_call_id: 'gone', content: 'y' },
      ],
    };
    nameToolResults(body);
    expect(body.messages[1]).toMatchObject({ name: 'own' });
    expect(body.messages[2]).not.toHaveProperty('name');
  });

  it('a body without tool results is not touched', () => {
    const body = { messages: [{ role: 'user', content: 'Hi' }] };
    nameToolResults(body);
    expect(body).toEqual({ messages: [{ role: 'user', content: 'Hi' }] });
  });
});
