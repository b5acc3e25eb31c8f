import { describe, expect, it } from 'vitest';
import { ProtocolError } from '../../../src/protocols/errors.js';
import type { Tool } from '../../../src/protocols/hub.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { packOrigin } from '../../../src/protocols/reasoning-envelope.js';

const decode = messagesCodec.decodeRequest;

function base(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { model: 'openai/gpt-5.2', max_tokens: 1024, messages: [{ role: 'user', content: 'hi' }], ...extra };
}

/** The ProtocolError `fn` throws (fails the test when it throws anything else or nothing). */
function errorOf(fn: () => unknown): ProtocolError {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(ProtocolError);
    return e as ProtocolError;
  }
  throw new Error('expected a ProtocolError');
}

function codeOf(body: unknown): string {
  const e = errorOf(() => decode(body));
  expect(e.status).toBe(400);
  return e.code;
}

const toolTurn = (id = 'toolu_1') => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'f', input: {} }] });
const resultTurn = (id = 'toolu_1', extra: unknown[] = []) => ({ role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: 'ok' }, ...extra] });

describe('Messages decodeRequest: validation', () => {
  it('rejects bodies that are not objects', () => {
    for (const b of [null, 1, 'x', [], true]) expect(codeOf(b)).toBe('invalid_request');
  });

  it('requires a model', () => {
    expect(codeOf({ messages: [{ role: 'user', content: 'x' }] })).toBe('invalid_model');
    expect(codeOf(base({ model: '  ' }))).toBe('invalid_model');
    expect(codeOf(base({ model: 5 }))).toBe('invalid_model');
  });

  it('requires a non-empty messages array of valid turns', () => {
    expect(codeOf(base({ messages: undefined }))).toBe('invalid_messages');
    expect(codeOf(base({ messages: [] }))).toBe('invalid_messages');
    expect(codeOf(base({ messages: ['hi'] }))).toBe('invalid_messages');
    expect(codeOf(base({ messages: [{ role: 'tool', content: 'x' }] }))).toBe('invalid_messages');
    expect(codeOf(base({ messages: [{ role: 'user', content: 5 }] }))).toBe('invalid_messages');
    expect(codeOf(base({ messages: [{ role: 'user', content: [{ text: 'no type' }] }] }))).toBe('invalid_content_part');
    expect(codeOf(base({ messages: [{ role: 'user', content: [{ type: 'text', text: 5 }] }] }))).toBe('invalid_content_part');
  });

  it('names the offending field in param', () => {
    const e = errorOf(() => decode(base({ messages: [{ role: 'user', content: [{ type: 'text', text: 'a' }, { type: 'image', source: { type: 'base64', media_type: 'text/html', data: 'x' } }] }] })));
    expect(e.code).toBe('invalid_image');
    expect(e.param).toBe('messages[0].content[1].source.media_type');
  });

  it('validates images', () => {
    const img = (source: unknown) => base({ messages: [{ role: 'user', content: [{ type: 'image', source }] }] });
    expect(codeOf(img(undefined))).toBe('invalid_image');
    expect(codeOf(img({ type: 'base64', media_type: 'image/png', data: '' }))).toBe('invalid_image');
    expect(codeOf(img({ type: 'base64', media_type: 'application/pdf', data: 'x' }))).toBe('invalid_image');
    expect(codeOf(img({ type: 'url' }))).toBe('invalid_image');
    expect(codeOf(img({ type: 'ftp', url: 'x' }))).toBe('invalid_image');
    expect(decode(img({ type: 'url', url: 'https://x/y.png' })).items[0]).toEqual({
      type: 'message',
      role: 'user',
      content: [{ type: 'image', source: { kind: 'url', url: 'https://x/y.png' } }],
    });
  });

  it('rejects blocks in the wrong turn', () => {
    expect(codeOf(base({ messages: [{ role: 'user', content: [{ type: 'thinking', thinking: 'x', signature: 's' }] }] }))).toBe('invalid_content_part');
    expect(codeOf(base({ messages: [{ role: 'user', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }] }] }))).toBe('invalid_content_part');
    expect(codeOf(base({ messages: [{ role: 'user', content: 'x' }, { role: 'assistant', content: [{ type: 'image', source: { type: 'url', url: 'u' } }] }] }))).toBe('invalid_content_part');
  });

  it('rejects Anthropic server tools other than web search, and their blocks, with unsupported_feature', () => {
    const e = errorOf(() => decode(base({ tools: [{ type: 'code_execution_20250825', name: 'code_execution' }] })));
    expect(e.code).toBe('unsupported_feature');
    expect(e.message).toMatch(/code_execution_20250825/);
    expect(e.message).toMatch(/anthropic\//);
    expect(codeOf(base({ tools: [{ type: 'bash_20250124', name: 'bash' }] }))).toBe('unsupported_feature');
    expect(codeOf(base({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'code_execution', input: {} }] }] }))).toBe('unsupported_feature');
    // a web search already run is history other providers cannot take back: its blocks are left out, the text kept
    const searched = decode(base({ messages: [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [
        { type: 'server_tool_use', id: 'srvtoolu_1', name: 'web_search', input: { query: 'q' } },
        { type: 'web_search_tool_result', tool_use_id: 'srvtoolu_1', content: [{ type: 'web_search_result', url: 'https://a.org', title: 'A', encrypted_content: 'x' }] },
        { type: 'text', text: 'Found A.' },
      ] },
      { role: 'user', content: 'more' },
    ] }));
    expect(searched.items.map((i) => i.type)).toEqual(['message', 'message', 'message']);
    expect(searched.items[1]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Found A.' }] });
    expect(codeOf(base({ mcp_servers: [{ type: 'url', url: 'https://mcp', name: 'm' }] }))).toBe('unsupported_feature');
    // A regular tool may say type "custom".
    expect(decode(base({ tools: [{ type: 'custom', name: 'f', input_schema: { type: 'object' } }] })).tools).toEqual([
      { type: 'function', name: 'f', parameters: { type: 'object' } },
    ]);
  });

  it('Anthropic\'s advisor is left out for another model: its tool (any dated version, deferred or not) and the blocks of advice already given', () => {
    const advisor = { type: 'advisor_20260301', name: 'advisor', model: 'claude-opus-4-6' };
    const read = { name: 'read', input_schema: { type: 'object' } };
    const advised = decode(base({
      tools: [advisor, read],
      messages: [
        { role: 'user', content: 'Plan the refactor.' },
        { role: 'assistant', content: [
          { type: 'text', text: 'Let me ask.' },
          { type: 'server_tool_use', id: 'srvtoolu_a', name: 'advisor', input: {} },
          { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_a', content: { type: 'advisor_result', text: 'Split the module first.' } },
          { type: 'advisor_tool_result', tool_use_id: 'srvtoolu_b', content: { type: 'advisor_redacted_result', encrypted_content: 'abc' } },
          { type: 'text', text: 'Splitting the module first.' },
        ] },
        { role: 'user', content: 'Go on.' },
      ],
    }));
    expect(advised.tools).toEqual([{ type: 'function', name: 'read', parameters: { type: 'object' } }]);
    expect(advised.items[1]).toMatchObject({ role: 'assistant', content: [{ type: 'text', text: 'Let me ask.' }, { type: 'text', text: 'Splitting the module first.' }] });
    expect(JSON.stringify(advised.items)).not.toContain('advisor');
    // with a deferred tool the tool set is worked out turn by turn: the advisor is still left out
    const deferred = decode(base({ tools: [{ ...advisor, type: 'advisor_20270101' }, read, { name: 'late', input_schema: { type: 'object' }, defer_loading: true }] }));
    expect(deferred.tools?.map((t) => (t as { name: string }).name)).toEqual(['read']);
    // a server tool use of another name is still refused, in an assistant turn or a user turn
    expect(codeOf(base({ messages: [{ role: 'user', content: 'q' }, { role: 'assistant', content: [{ type: 'server_tool_use', id: 's', name: 'bash', input: {} }] }] }))).toBe('unsupported_feature');
    expect(codeOf(base({ messages: [{ role: 'user', content: [{ type: 'advisor_tool_result', tool_use_id: 's', content: { type: 'advisor_result', text: 'x' } }] }] }))).toBe('unsupported_feature');
  });

  it('decodes web search (any dated version) into the hub web search; its fields are checked', () => {
    const tool = { type: 'web_search_20260209', name: 'web_search', allowed_domains: ['a.org'], blocked_domains: [], max_uses: 3, user_location: { type: 'approximate', city: 'Bern', country: 'CH' } };
    expect(decode(base({ tools: [tool] })).tools).toEqual([{ type: 'web_search', name: 'web_search', allowedDomains: ['a.org'], maxUses: 3, userLocation: { city: 'Bern', country: 'CH' } }]);
    expect(codeOf(base({ tools: [{ ...tool, allowed_domains: 'a.org' }] }))).toBe('invalid_request');
    expect(codeOf(base({ tools: [{ ...tool, max_uses: 'many' }] }))).toBe('invalid_request');
    expect(codeOf(base({ tools: [{ type: 'web_search_latest', name: 'web_search' }] }))).toBe('unsupported_feature');
  });

  it('validates tools', () => {
    expect(codeOf(base({ tools: {} }))).toBe('invalid_request');
    expect(codeOf(base({ tools: [{ name: '' }] }))).toBe('invalid_request');
    expect(codeOf(base({ tools: [{ name: 'f', input_schema: 'x' }] }))).toBe('invalid_request');
    expect(codeOf(base({ tools: [{ name: 'f', cache_control: { type: 'persistent' } }] }))).toBe('invalid_request');
    expect(decode(base({ tools: [{ name: 'f' }] })).tools).toEqual([{ type: 'function', name: 'f' }]);
  });
});

describe('Messages decodeRequest: tool call pairing', () => {
  const user = { role: 'user', content: 'go' };

  it('accepts a pending call in the final assistant turn', () => {
    const req = decode(base({ messages: [user, toolTurn()] }));
    expect(req.items.map((i) => i.type)).toEqual(['message', 'function_call']);
  });

  it('rejects a tool_use whose next user turn has no tool_result', () => {
    const e = errorOf(() => decode(base({ messages: [user, toolTurn(), { role: 'user', content: 'never mind' }] })));
    expect(e.code).toBe('invalid_tool_call');
    expect(e.message).toMatch(/toolu_1/);
  });

  it('rejects an answer that comes a turn too late', () => {
    const msgs = [user, toolTurn(), { role: 'user', content: 'wait' }, { role: 'assistant', content: 'ok' }, resultTurn()];
    expect(codeOf(base({ messages: msgs }))).toBe('invalid_tool_call');
  });

  it('names what a tool_result may hold when one of its blocks cannot be converted', () => {
    const result = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'container_upload', file_id: 'f1' }] }] };
    const e = errorOf(() => decode(base({ messages: [user, toolTurn(), result] })));
    expect(e.code).toBe('unsupported_feature');
    expect(e.message).toMatch(/"container_upload".*text, image, document, search_result or tool_reference/);
  });

  it('rejects a tool_result without a matching tool_use, and a duplicate one', () => {
    expect(codeOf(base({ messages: [resultTurn('toolu_x')] }))).toBe('invalid_tool_call');
    const dup = { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1' }, { type: 'tool_result', tool_use_id: 'toolu_1' }] };
    expect(errorOf(() => decode(base({ messages: [user, toolTurn(), dup] }))).message).toMatch(/already/);
  });

  it('an id an earlier, answered call used (Kimi numbers calls per turn) is a new call with a fresh id; one id twice in a turn and a tool_use without id are refused', () => {
    const msgs = [user, toolTurn('a'), resultTurn('a'), toolTurn('a'), resultTurn('a')];
    const calls = decode(base({ messages: msgs })).items.filter((i) => i.type === 'function_call' || i.type === 'function_call_output');
    expect(calls.map((i) => [i.type, i.callId])).toEqual([
      ['function_call', 'a'],
      ['function_call_output', 'a'],
      ['function_call', 'a_2'],
      ['function_call_output', 'a_2'],
    ]);
    const twice = { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }, { type: 'tool_use', id: 'a', name: 'f', input: {} }] };
    expect(codeOf(base({ messages: [user, twice, resultTurn('a')] }))).toBe('invalid_tool_call');
    expect(codeOf(base({ messages: [user, { role: 'assistant', content: [{ type: 'tool_use', name: 'f', input: {} }] }] }))).toBe('invalid_tool_call');
  });

  it('puts tool results first, in order, then the text of the same turn', () => {
    const turn = {
      role: 'user',
      content: [
        { type: 'text', text: 'before' },
        { type: 'tool_result', tool_use_id: 'b', content: 'B' },
        { type: 'text', text: 'between' },
        { type: 'tool_result', tool_use_id: 'a', content: 'A' },
      ],
    };
    const assistant = { role: 'assistant', content: [{ type: 'tool_use', id: 'a', name: 'f', input: {} }, { type: 'tool_use', id: 'b', name: 'f', input: {} }] };
    const req = decode(base({ messages: [user, assistant, turn] }));
    expect(req.items.slice(3)).toEqual([
      { type: 'function_call_output', callId: 'b', output: 'B' },
      { type: 'function_call_output', callId: 'a', output: 'A' },
      { type: 'message', role: 'user', content: [{ type: 'text', text: 'before' }, { type: 'text', text: 'between' }] },
    ]);
  });

  it('merges consecutive same-role turns before pairing (as Anthropic does)', () => {
    const msgs = [user, toolTurn('a'), { role: 'assistant', content: [{ type: 'tool_use', id: 'b', name: 'g', input: { x: 1 } }] }, resultTurn('a'), resultTurn('b')];
    const req = decode(base({ messages: msgs }));
    expect(req.items.map((i) => i.type)).toEqual(['message', 'function_call', 'function_call', 'function_call_output', 'function_call_output']);
  });

  it('reads tool_result content, errors and an empty result', () => {
    const msgs = [user, toolTurn(), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', is_error: true }] }];
    expect(decode(base({ messages: msgs })).items[2]).toEqual({ type: 'function_call_output', callId: 'toolu_1', output: '', isError: true });
    const bad = [user, toolTurn(), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'browser_state', tabs: [] }] }] }];
    expect(codeOf(base({ messages: bad }))).toBe('unsupported_feature');
  });
});

describe('Messages decodeRequest: deferred tools, tool_reference and tool changes', () => {
  const user = { role: 'user', content: 'go' };
  const fn = (name: string, defer?: unknown) => ({ name, input_schema: { type: 'object' }, ...(defer === undefined ? {} : { defer_loading: defer }) });
  const loads = (id: string, ...names: string[]) => ({
    role: 'user',
    content: [{ type: 'tool_result', tool_use_id: id, content: names.map((tool_name) => ({ type: 'tool_reference', tool_name })) }],
  });
  const search = (id: string) => ({ role: 'assistant', content: [{ type: 'tool_use', id, name: 'ToolSearch', input: { query: 'select:x' } }] });
  const toolNames = (tools: Tool[]) => tools.map((t) => ('name' in t ? t.name : t.type));
  const names = (body: unknown) => toolNames(decode(body).tools);
  const tools = [fn('ToolSearch'), fn('A', true), fn('B', true), fn('C', false)];

  it('offers deferred tools once a tool_reference in any earlier tool_result loaded them', () => {
    expect(names(base({ tools }))).toEqual(['ToolSearch', 'C']);
    expect(names(base({ tools, messages: [user, search('toolu_1'), loads('toolu_1', 'B')] }))).toEqual(['ToolSearch', 'B', 'C']);
    const twoSearches = [user, search('toolu_1'), loads('toolu_1', 'B'), search('toolu_2'), loads('toolu_2', 'A', 'B')];
    expect(names(base({ tools, messages: twoSearches }))).toEqual(['ToolSearch', 'A', 'B', 'C']);
  });

  it('turns each reference into a line saying the tool is loaded, next to the result’s other content', () => {
    const msgs = [user, search('toolu_1'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'text', text: 'Found 2.' }, { type: 'tool_reference', tool_name: 'A' }, { type: 'tool_reference', tool_name: 'B' }] }] }];
    expect(decode(base({ tools, messages: msgs })).items[2]).toEqual({
      type: 'function_call_output',
      callId: 'toolu_1',
      output: [
        { type: 'text', text: 'Found 2.' },
        { type: 'text', text: 'Tool "A" is loaded and can be called now.' },
        { type: 'text', text: 'Tool "B" is loaded and can be called now.' },
      ],
    });
  });

  it('offers the deferred tool tool_choice forces, and drops unloaded deferred server tools unchecked', () => {
    const forced = decode(base({ tools, tool_choice: { type: 'tool', name: 'A' } }));
    expect(toolNames(forced.tools)).toEqual(['ToolSearch', 'A', 'C']);
    expect(forced.toolChoice).toEqual({ type: 'function', name: 'A' });
    const server = { type: 'code_execution_20250825', name: 'code_execution' };
    expect(names(base({ tools: [...tools, { ...server, defer_loading: true }] }))).toEqual(['ToolSearch', 'C']);
    expect(codeOf(base({ tools: [...tools, server] }))).toBe('unsupported_feature');
  });

  it('refuses a reference to an undeclared tool, a bad tool_name and a defer_loading that is not a boolean', () => {
    const unresolved = errorOf(() => decode(base({ tools, messages: [user, search('toolu_1'), loads('toolu_1', 'Z')] })));
    expect(unresolved).toMatchObject({ code: 'invalid_tool_call', param: 'messages[2].content[0].content[0].tool_name' });
    expect(unresolved.message).toContain('"Z"');
    expect(codeOf(base({ tools, messages: [user, search('toolu_1'), loads('toolu_1', '')] }))).toBe('invalid_content_part');
    expect(codeOf(base({ tools, messages: [user, search('toolu_1'), { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference' }] }] }] }))).toBe('invalid_content_part');
    expect(codeOf(base({ tools: [fn('A', 'yes')] }))).toBe('invalid_request');
  });

  const add = (name: string) => ({ type: 'tool_addition', tool: { type: 'tool_reference', name } });
  const remove = (name: string) => ({ type: 'tool_removal', tool: { type: 'tool_reference', name } });
  const system = (...content: unknown[]) => ({ role: 'system', content });

  it('applies tool_addition and tool_removal in message order, from system messages and user turns alike', () => {
    const req = decode(base({ tools, messages: [user, system(add('A'), remove('C')), { role: 'assistant', content: 'ok' }, { role: 'user', content: [add('B'), { type: 'text', text: 'go on' }] }] }));
    expect(toolNames(req.tools)).toEqual(['ToolSearch', 'A', 'B']);
    // the notices stand where the system message did: after the first user turn
    const inline = { beforeItem: 1, role: 'system' };
    expect(req.system).toEqual([{ text: 'Tool "A" can be called from now on.', inline }, { text: 'Tool "C" can no longer be called.', inline }]);
    expect(req.items.at(-1)).toEqual({ type: 'message', role: 'user', content: [{ type: 'text', text: 'Tool "B" can be called from now on.' }, { type: 'text', text: 'go on' }] });
    // added, then removed later: not offered; removed, then loaded again by a reference: offered
    expect(names(base({ tools, messages: [user, system(add('A')), { role: 'assistant', content: 'ok' }, { role: 'user', content: 'x' }, system(remove('A'))] }))).toEqual(['ToolSearch', 'C']);
    expect(names(base({ tools, messages: [user, system(remove('C')), search('toolu_1'), loads('toolu_1', 'C')] }))).toEqual(['ToolSearch', 'C']);
  });

  it('a system message between two user messages stands between their content, inside the merged turn’s message', () => {
    const text = (t: string) => ({ type: 'text', text: t });
    const req = decode(base({ messages: [{ role: 'user', content: [text('a'), text('b')] }, { role: 'system', content: 'S' }, { role: 'system', content: 'T' }, { role: 'user', content: 'c' }, { role: 'system', content: 'U' }, { role: 'user', content: 'd' }, { role: 'system', content: 'V' }] }));
    expect(req.items).toEqual([{ type: 'message', role: 'user', content: [text('a'), text('b'), text('c'), text('d')] }]);
    expect(req.system.map((p) => [p.text, p.inline])).toEqual([
      ['S', { beforeItem: 0, role: 'system', beforePart: 2 }],
      ['T', { beforeItem: 0, role: 'system', beforePart: 2 }],
      ['U', { beforeItem: 0, role: 'system', beforePart: 3 }],
      ['V', { beforeItem: 1, role: 'system' }],
    ]);
    // after tool results alone: before the turn's message, its results still first
    const results = decode(base({ tools, messages: [user, search('toolu_1'), loads('toolu_1', 'C'), { role: 'system', content: 'S' }, { role: 'user', content: 'go on' }] }));
    expect(results.items.slice(2).map((i) => i.type)).toEqual(['function_call_output', 'message']);
    expect(results.system[0]!.inline).toEqual({ beforeItem: 3, role: 'system' });
  });

  it('offers a tool defined inline after the declared ones, checked as a tools entry', () => {
    const def = { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'mcp__late__ping', description: 'Ping.', input_schema: { type: 'object', properties: {} } } } };
    const req = decode(base({ tools, messages: [user, system(def)] }));
    expect(req.tools.at(-1)).toMatchObject({ type: 'function', name: 'mcp__late__ping', description: 'Ping.' });
    expect(toolNames(req.tools)).toEqual(['ToolSearch', 'C', 'mcp__late__ping']);
    // and then removable by name
    expect(names(base({ tools, messages: [user, system(def, remove('mcp__late__ping'))] }))).toEqual(['ToolSearch', 'C']);
    const clash = { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'C', input_schema: { type: 'object' } } } };
    expect(codeOf(base({ tools, messages: [user, system(clash)] }))).toBe('invalid_request');
    const broken = { type: 'tool_addition', tool: { type: 'tool_definition', definition: { name: 'D', input_schema: 'nope' } } };
    expect(codeOf(base({ tools, messages: [user, system(broken)] }))).toBe('invalid_request');
  });

  it('refuses changes that name no tool, malformed ones and MCP references', () => {
    const unknown = errorOf(() => decode(base({ tools, messages: [user, system({ type: 'text', text: 'x' }, remove('Z'))] })));
    expect(unknown).toMatchObject({ code: 'invalid_tool_call', param: 'messages[1].content[1].tool.name' });
    expect(unknown.message).toContain('tool_removal names "Z"');
    expect(codeOf(base({ tools, messages: [user, system(add('Z'))] }))).toBe('invalid_tool_call');
    expect(codeOf(base({ tools, messages: [user, system({ type: 'tool_addition' })] }))).toBe('invalid_content_part');
    expect(codeOf(base({ tools, messages: [user, system({ type: 'tool_removal', tool: { type: 'tool_definition', definition: fn('Q') } })] }))).toBe('invalid_content_part');
    expect(codeOf(base({ tools, messages: [user, system({ type: 'tool_addition', tool: { type: 'mcp_toolset_reference', server_name: 'x' } })] }))).toBe('unsupported_feature');
    // in an assistant turn they mean nothing
    expect(codeOf(base({ tools, messages: [user, { role: 'assistant', content: [add('A')] }] }))).toBe('invalid_content_part');
  });
});

describe('Messages decodeRequest: reasoning and limits', () => {
  it('validates effort from output_config.effort and reasoning_effort', () => {
    expect(decode(base({ output_config: { effort: 'max' } })).reasoning).toEqual({ effort: 'max' });
    expect(decode(base({ reasoning_effort: 'minimal' })).reasoning).toEqual({ effort: 'low' });
    expect(decode(base({ output_config: { effort: 'none' } })).reasoning).toEqual({ effort: 'none' });
    expect(decode(base({ output_config: { effort: 'high' }, reasoning_effort: 'low' })).reasoning).toEqual({ effort: 'high' });
    expect(codeOf(base({ output_config: { effort: 'extreme' } }))).toBe('invalid_reasoning');
    expect(codeOf(base({ reasoning_effort: 'HIGH' }))).toBe('invalid_reasoning');
    expect(codeOf(base({ output_config: { effort: 'high' }, reasoning_effort: 3 }))).toBe('invalid_reasoning');
    expect(decode(base({ output_config: { effort: null } })).reasoning).toBeUndefined();
  });

  it('reads every thinking type', () => {
    expect(decode(base({ thinking: { type: 'enabled', budget_tokens: 1024, display: 'omitted' } })).reasoning).toEqual({ thinkingType: 'enabled', budgetTokens: 1024, display: 'omitted' });
    expect(decode(base({ thinking: { type: 'adaptive' } })).reasoning).toEqual({ thinkingType: 'adaptive' });
    // Claude Code 2.1.332 printing a stream (--verbose, the Agent SDK) asks for thinking updates
    expect(decode(base({ thinking: { type: 'adaptive', display: 'updates' } })).reasoning).toEqual({ thinkingType: 'adaptive', display: 'updates' });
    expect(decode(base({ thinking: { type: 'disabled' } })).reasoning).toEqual({ thinkingType: 'disabled' });
    expect(decode(base({ thinking: { type: 'between_tools' } })).reasoning).toEqual({ thinkingType: 'between_tools' });
    expect(codeOf(base({ thinking: { type: 'enabled' } }))).toBe('invalid_reasoning');
    expect(codeOf(base({ thinking: { type: 'enabled', budget_tokens: -5 } }))).toBe('invalid_reasoning');
    expect(codeOf(base({ thinking: { type: 'sometimes' } }))).toBe('invalid_reasoning');
    expect(codeOf(base({ thinking: { type: 'adaptive', display: 'full' } }))).toBe('invalid_reasoning');
    expect(codeOf(base({ thinking: 'on' }))).toBe('invalid_reasoning');
  });

  it('is lenient about a missing max_tokens but rejects absurd ones', () => {
    expect(decode(base({ max_tokens: undefined })).maxOutputTokens).toBeUndefined();
    expect(decode(base({ max_tokens: 64000 })).maxOutputTokens).toBe(64000);
    for (const v of [-1, 1.5, 0, 1e12, '100', Number.MAX_SAFE_INTEGER]) expect(codeOf(base({ max_tokens: v }))).toBe('invalid_max_tokens');
  });

  it('validates sampling and stop', () => {
    expect(codeOf(base({ temperature: 3 }))).toBe('invalid_request');
    expect(codeOf(base({ top_p: 1.5 }))).toBe('invalid_request');
    expect(codeOf(base({ top_k: 2.5 }))).toBe('invalid_request');
    expect(codeOf(base({ stop_sequences: 'END' }))).toBe('invalid_request');
    expect(codeOf(base({ stop_sequences: [1] }))).toBe('invalid_request');
    expect(codeOf(base({ stream: 'yes' }))).toBe('invalid_request');
    expect(codeOf(base({ metadata: { user_id: 7 } }))).toBe('invalid_request');
  });

  it('maps tool_choice and disable_parallel_tool_use', () => {
    expect(decode(base({ tool_choice: { type: 'auto', disable_parallel_tool_use: true } }))).toMatchObject({ toolChoice: { type: 'auto' }, parallelToolCalls: false });
    expect(decode(base({ tool_choice: { type: 'any' } }))).toMatchObject({ toolChoice: { type: 'required' } });
    expect(decode(base({ tool_choice: { type: 'tool', name: 'f' } }))).toMatchObject({ toolChoice: { type: 'function', name: 'f' } });
    const none = decode(base({ tool_choice: { type: 'none' } }));
    expect(none.toolChoice).toEqual({ type: 'none' });
    expect(none.parallelToolCalls).toBeUndefined();
    expect(codeOf(base({ tool_choice: 'auto' }))).toBe('invalid_request');
    expect(codeOf(base({ tool_choice: { type: 'tool' } }))).toBe('invalid_request');
    expect(codeOf(base({ tool_choice: { type: 'some' } }))).toBe('invalid_request');
  });

  it('reads structured output from output_config.format and the older output_format', () => {
    const schema = { type: 'object', properties: {} };
    const expected = { type: 'json_schema', name: 'response', schema, strict: true };
    expect(decode(base({ output_config: { format: { type: 'json_schema', schema } } })).responseFormat).toEqual(expected);
    expect(decode(base({ output_format: { type: 'json_schema', schema } })).responseFormat).toEqual(expected);
    expect(codeOf(base({ output_config: { format: { type: 'json_object' } } }))).toBe('invalid_request');
    expect(codeOf(base({ output_config: { format: { type: 'json_schema' } } }))).toBe('invalid_request');
    expect(codeOf(base({ output_config: 'json' }))).toBe('invalid_request');
  });

  it('reads thinking blocks: native signatures, our envelopes, unsigned, redacted', () => {
    const origin = { kind: 'openrouter' as const, details: [{ type: 'reasoning.text', text: 't' }] };
    const req = decode(
      base({
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'thinking', thinking: 'a', signature: 'native' },
              { type: 'thinking', thinking: 'b', signature: packOrigin(origin) },
              { type: 'thinking', thinking: 'c', signature: 'svcp1.not-base64-json' },
              { type: 'thinking', thinking: 'd' },
              { type: 'redacted_thinking', data: 'R' },
              { type: 'text', text: 'answer' },
            ],
          },
        ],
      }),
    );
    expect(req.items.slice(1)).toEqual([
      { type: 'reasoning', text: 'a', origin: { kind: 'anthropic', signature: 'native' } },
      { type: 'reasoning', text: 'b', origin },
      // Our prefix but damaged: it proves nothing (no provider's base64 signature has a '.'), and
      // as a native signature it would reach Anthropic, which only rejects it.
      { type: 'reasoning', text: 'c', origin: { kind: 'unsigned' } },
      { type: 'reasoning', text: 'd', origin: { kind: 'unsigned' } },
      { type: 'reasoning', text: '', origin: { kind: 'anthropic_redacted', data: 'R' } },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'answer' }] },
    ]);
  });

  it('keeps the order of text and tool calls inside an assistant turn', () => {
    const req = decode(
      base({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: [{ type: 'text', text: 'a' }, { type: 'tool_use', id: 't', name: 'f', input: { k: [1, '✓'] } }, { type: 'text', text: 'b' }] },
        ],
      }),
    );
    expect(req.items.slice(1)).toEqual([
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'a' }] },
      { type: 'function_call', callId: 't', name: 'f', arguments: '{"k":[1,"✓"]}' },
      { type: 'message', role: 'assistant', content: [{ type: 'text', text: 'b' }] },
    ]);
  });
});
