import { describe, expect, it } from 'vitest';
import { scanTopLevelMembers } from '../../src/protocols/json-members.js';
import { LAZY_MEMBER_BYTES, lazyJsonBody, unparsedMember } from '../../src/protocols/lazy-json.js';
import { geminiAdapter } from '../../src/providers/gemini.js';

type Obj = Record<string, unknown>;

/** A passthrough body as the routing layer makes it: the long conversation still unparsed. */
function lazy(body: Obj): Obj {
  const raw = Buffer.from(JSON.stringify(body));
  return lazyJsonBody(raw, scanTopLevelMembers(raw)!);
}
const long = 'x'.repeat(LAZY_MEMBER_BYTES);
const finalize = (body: Obj) => geminiAdapter.finalizeBody(body, { model: 'gemini-2.5-flash', from: 'chat', passthrough: true, stream: false });

describe('gemini passthrough: several system messages join the leading one', () => {
  it('a leading and a mid-conversation system message (and a developer one) become one system message, first, in order', () => {
    const body = lazy({
      model: 'gemini-2.5-flash',
      messages: [
        { role: 'system', content: 'You are opencode.' },
        { role: 'system', content: [{ type: 'text', text: 'Project rules.' }] },
        { role: 'user', content: long },
        { role: 'assistant', content: 'ok' },
        { role: 'developer', content: 'Reminder.' },
        { role: 'user', content: 'go on' },
      ],
    });
    finalize(body);
    expect(body.messages).toEqual([
      { role: 'system', content: [{ type: 'text', text: 'You are opencode.' }, { type: 'text', text: 'Project rules.' }, { type: 'text', text: 'Reminder.' }] },
      { role: 'user', content: long },
      { role: 'assistant', content: 'ok' },
      { role: 'user', content: 'go on' },
    ]);
  });

  it('one system message: the conversation is not even parsed', () => {
    const messages = [{ role: 'system', content: 'Be terse.' }, { role: 'user', content: long }];
    const body = lazy({ model: 'gemini-2.5-flash', messages });
    finalize(body);
    expect(unparsedMember(body, 'messages')).toBeDefined();
    expect(body.messages).toEqual(messages);
  });

  it('a quoted "system" in text is no second one (its quotes are escaped): one late system message stays where it is, unparsed', () => {
    const messages = [{ role: 'user', content: `${long} the "system" role` }, { role: 'assistant', content: 'ok' }, { role: 'system', content: 'Late.' }];
    const body = lazy({ model: 'gemini-2.5-flash', messages });
    finalize(body);
    expect(unparsedMember(body, 'messages')).toBeDefined();
    expect(body.messages).toEqual(messages);
  });
});
