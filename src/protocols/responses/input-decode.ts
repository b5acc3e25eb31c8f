/**
 * The Responses `input` (a string or a list of items) → hub items and system texts.
 * System and developer messages leave the item list for `hub.system`, in order; those after the
 * conversation began are marked with their place and role, for targets that can keep it there.
 */
import type { ContentPart, FunctionCallItem, Item, SystemPart } from '../hub.js';
import { badRequest } from '../errors.js';
import { decodeContent } from './content-decode.js';
import { isObject, optString, reqString, type JsonObject } from './json.js';
import { originOf, textOf } from './reasoning.js';

export interface DecodedInput {
  system: SystemPart[];
  items: Item[];
  /** For each hub item, its index in the client's `input` (to name it in errors). */
  positions: number[];
}

/** Items that only OpenAI's hosted tools produce; the hub has no place for them. */
const HOSTED_ITEM_TYPES = new Set([
  'file_search_call',
  'computer_call',
  'computer_call_output',
  'code_interpreter_call',
  'image_generation_call',
  'local_shell_call',
  'local_shell_call_output',
  'shell_call',
  'shell_call_output',
  'apply_patch_call',
  'apply_patch_call_output',
  'mcp_list_tools',
  'mcp_approval_request',
  'mcp_approval_response',
  'mcp_call',
  'tool_search_call',
  'tool_search_output',
  'additional_tools',
  'compaction',
  'compaction_trigger',
  'program',
  'program_output',
]);

export function decodeInput(input: unknown): DecodedInput {
  const out: DecodedInput = { system: [], items: [], positions: [] };
  if (typeof input === 'string') {
    if (input.length > 0) {
      out.items.push({ type: 'message', role: 'user', content: [{ type: 'text', text: input }] });
      out.positions.push(0);
    }
    return out;
  }
  if (input === undefined || input === null) return out;
  if (!Array.isArray(input)) throw badRequest('invalid_input', 'input must be a string or an array of input items.', 'input');
  input.forEach((raw, i) => decodeItem(raw, `input[${i}]`, i, out));
  return out;
}

function decodeItem(raw: unknown, param: string, position: number, out: DecodedInput): void {
  if (!isObject(raw)) throw badRequest('invalid_input', `${param} must be an object.`, param);
  const type = raw.type ?? (raw.role !== undefined ? 'message' : undefined);
  const push = (item: Item): void => {
    out.items.push(item);
    out.positions.push(position);
  };
  switch (type) {
    case 'message':
      decodeMessage(raw, param, out, push);
      return;
    case 'function_call':
      push(decodeCall(raw, param, 'arguments'));
      return;
    // a custom tool's call is a function call whose arguments are its input text
    case 'custom_tool_call': {
      // marked on the call, not spread onto a copy: on Node 20 that copy gets a hidden class per call
      const call = decodeCall(raw, param, 'input');
      call.freeform = true;
      push(call);
      return;
    }
    case 'function_call_output':
    case 'custom_tool_call_output':
      push({ type: 'function_call_output', callId: callIdOf(raw, param), output: toolOutput(raw.output, `${param}.output`) });
      return;
    case 'reasoning': {
      const id = optString(raw, 'id', `${param}.id`, 'invalid_input');
      const text = textOf(raw);
      const origin = originOf(id, raw.encrypted_content);
      // Unsigned reasoning with no text carries nothing at all.
      if (origin.kind !== 'unsigned' || text) push({ type: 'reasoning', text, origin });
      return;
    }
    case 'web_search_call':
      // A search already run (by OpenAI, or by another provider for this client): the message
      // after it says what it found, and no other provider can take it back.
      return;
    case 'item_reference':
      // routing replaced the references to items of the answers it keeps (response-store.ts)
      throw badRequest('unsupported_feature', `${param} is an item_reference to an item svc-proxy does not keep (it keeps the items of its own answers for an hour, unless store is false). Send the full item instead.`, param);
    default:
      if (typeof type === 'string' && HOSTED_ITEM_TYPES.has(type)) {
        throw badRequest('unsupported_feature', `${param} is a ${type} item: items of OpenAI-hosted tools can only be sent to openai models.`, `${param}.type`);
      }
      throw badRequest('invalid_input', `${param}.type ${JSON.stringify(type)} is not a supported input item type.`, `${param}.type`);
  }
}

function decodeMessage(raw: JsonObject, param: string, out: DecodedInput, push: (item: Item) => void): void {
  const role = raw.role;
  if (role !== 'user' && role !== 'assistant' && role !== 'system' && role !== 'developer') {
    throw badRequest('invalid_input', `${param}.role must be one of user, assistant, system, developer.`, `${param}.role`);
  }
  const content = dropEmptyText(decodeContent(raw.content, role, `${param}.content`));
  if (role === 'system' || role === 'developer') {
    const inline: SystemPart['inline'] = out.items.length > 0 ? { beforeItem: out.items.length, role } : undefined;
    for (const part of content) {
      if (part.type !== 'text') continue;
      const sp: SystemPart = part.cacheControl ? { text: part.text, cacheControl: part.cacheControl } : { text: part.text };
      if (inline) sp.inline = inline;
      out.system.push(sp);
    }
    return;
  }
  if (content.length === 0) return;
  const phase = role === 'assistant' ? optString(raw, 'phase', `${param}.phase`, 'invalid_input') : undefined;
  push(phase ? { type: 'message', role, content, phase } : { type: 'message', role, content });
}

/** A function_call (its JSON in `arguments`) or a custom_tool_call (its text in `input`). */
function decodeCall(raw: JsonObject, param: string, argumentsKey: 'arguments' | 'input'): FunctionCallItem {
  const call: FunctionCallItem = {
    type: 'function_call',
    callId: callIdOf(raw, param),
    name: reqString(raw, 'name', `${param}.name`, 'invalid_tool_call'),
    arguments: reqString(raw, argumentsKey, `${param}.${argumentsKey}`, 'invalid_tool_call'),
  };
  const namespace = optString(raw, 'namespace', `${param}.namespace`, 'invalid_tool_call');
  if (namespace !== undefined && namespace !== '') call.namespace = namespace;
  return call;
}

function callIdOf(raw: JsonObject, param: string): string {
  const callId = reqString(raw, 'call_id', `${param}.call_id`, 'invalid_tool_call');
  if (callId.length === 0) throw badRequest('invalid_tool_call', `${param}.call_id must not be empty.`, `${param}.call_id`);
  return callId;
}

function toolOutput(output: unknown, param: string): string | ContentPart[] {
  if (typeof output === 'string') return output;
  if (Array.isArray(output)) return decodeContent(output, 'tool_output', param);
  throw badRequest('invalid_tool_call', `${param} must be a string or an array of input_text/input_image/input_file parts.`, param);
}

/** Empty text parts mean nothing and some targets reject them (Anthropic). */
function dropEmptyText(parts: ContentPart[]): ContentPart[] {
  return parts.filter((p) => !(p.type === 'text' && p.text.length === 0));
}
