/**
 * Responses `tools` and `tool_choice` → hub. Flat function tools become hub function tools;
 * a `namespace` tool (Codex's `multi_agent_v1`) becomes one hub function tool per function in
 * it, each carrying the namespace (routing folds it into the target-facing name). A `custom`
 * tool (free text, optionally held to a grammar: Codex's `apply_patch`) becomes a hub function
 * tool marked `freeform`, which routing turns into a function taking one string. Web search
 * becomes the hub's (web-search.ts: targets that search on their own take it); other
 * OpenAI-hosted tools are kept raw (routing passes them only to openai and rejects them elsewhere).
 */
import type { FreeformFormat, FunctionTool, Tool, ToolChoice } from '../hub.js';
import { badRequest } from '../errors.js';
import { isObject, optBoolean, optString, reqString } from './json.js';
import { decodeWebSearchTool, isWebSearchToolType } from './web-search.js';

export function decodeTools(value: unknown): Tool[] {
  if (value === undefined || value === null) return [];
  if (!Array.isArray(value)) throw badRequest('invalid_request', 'tools must be an array.', 'tools');
  return value.flatMap((tool, i) => decodeTool(tool, `tools[${i}]`));
}

function decodeTool(tool: unknown, param: string): Tool[] {
  if (!isObject(tool)) throw badRequest('invalid_request', `${param} must be an object.`, param);
  const type = tool.type;
  if (typeof type !== 'string') throw badRequest('invalid_request', `${param}.type is required.`, `${param}.type`);
  if (type === 'custom') return [decodeCustom(tool, param)];
  if (type === 'namespace') return decodeNamespace(tool, param);
  if (isWebSearchToolType(type)) return [decodeWebSearchTool(tool, param)];
  if (type !== 'function') return [{ type: 'hosted', raw: tool }];
  return [decodeFunction(tool, param)];
}

function decodeNamespace(tool: Record<string, unknown>, param: string): FunctionTool[] {
  const namespace = reqString(tool, 'name', `${param}.name`);
  if (namespace.length === 0) throw badRequest('invalid_request', `${param}.name must not be empty.`, `${param}.name`);
  const inner = tool.tools;
  if (!Array.isArray(inner)) throw badRequest('invalid_request', `${param}.tools must be an array.`, `${param}.tools`);
  return inner.map((fn, i) => {
    const at = `${param}.tools[${i}]`;
    if (!isObject(fn)) throw badRequest('invalid_request', `${at} must be an object.`, at);
    if (fn.type !== 'function' && fn.type !== 'custom') throw badRequest('invalid_request', `${at}.type must be "function" or "custom".`, `${at}.type`);
    // set on the tool, not spread onto a copy: on Node 20 such a copy gets a hidden class per call
    const decoded = fn.type === 'custom' ? decodeCustom(fn, at) : decodeFunction(fn, at);
    decoded.namespace = namespace;
    return decoded;
  });
}

/** Name and description, as function and custom tools both have them. */
function namedTool(tool: Record<string, unknown>, param: string): FunctionTool {
  const name = reqString(tool, 'name', `${param}.name`);
  if (name.length === 0) throw badRequest('invalid_request', `${param}.name must not be empty.`, `${param}.name`);
  const fn: FunctionTool = { type: 'function', name };
  const description = optString(tool, 'description', `${param}.description`);
  if (description !== undefined) fn.description = description;
  return fn;
}

function decodeCustom(tool: Record<string, unknown>, param: string): FunctionTool {
  const fn = namedTool(tool, param);
  fn.freeform = decodeFormat(tool.format, `${param}.format`);
  return fn;
}

/** A custom tool's `format`: absent means unconstrained text. */
function decodeFormat(format: unknown, param: string): FreeformFormat {
  if (format === undefined || format === null) return { type: 'text' };
  if (!isObject(format)) throw badRequest('invalid_request', `${param} must be an object.`, param);
  if (format.type === 'text') return { type: 'text' };
  if (format.type !== 'grammar') throw badRequest('invalid_request', `${param}.type must be "text" or "grammar".`, `${param}.type`);
  const syntax = format.syntax;
  if (syntax !== 'lark' && syntax !== 'regex') throw badRequest('invalid_request', `${param}.syntax must be "lark" or "regex".`, `${param}.syntax`);
  return { type: 'grammar', syntax, definition: reqString(format, 'definition', `${param}.definition`) };
}

function decodeFunction(tool: Record<string, unknown>, param: string): FunctionTool {
  const fn = namedTool(tool, param);
  const parameters = tool.parameters;
  if (parameters !== undefined && parameters !== null) {
    if (!isObject(parameters)) throw badRequest('invalid_request', `${param}.parameters must be a JSON schema object.`, `${param}.parameters`);
    fn.parameters = parameters;
  }
  const strict = optBoolean(tool, 'strict', `${param}.strict`);
  if (strict !== undefined) fn.strict = strict;
  return fn;
}

export function decodeToolChoice(value: unknown, tools: readonly Tool[] = []): ToolChoice | undefined {
  if (value === undefined || value === null) return undefined;
  // OpenAI refuses this with a 400; converted, the model would be free to answer in text instead
  if (value === 'required' && tools.length === 0) throw badRequest('invalid_tool_choice', 'tool_choice "required" needs tools to choose from: the request has none.', 'tool_choice');
  if (value === 'auto' || value === 'none' || value === 'required') return { type: value };
  if (!isObject(value)) {
    throw badRequest('invalid_request', 'tool_choice must be "auto", "none", "required" or a tool choice object.', 'tool_choice');
  }
  switch (value.type) {
    // a custom tool is a function tool in the hub (marked freeform), so it is chosen like one
    case 'function':
    case 'custom': {
      const choice: ToolChoice = { type: 'function', name: reqString(value, 'name', 'tool_choice.name') };
      const namespace = optString(value, 'namespace', 'tool_choice.namespace');
      if (namespace !== undefined && namespace !== '') choice.namespace = namespace;
      return choice;
    }
    case 'allowed_tools': {
      const mode = value.mode;
      if (mode !== 'auto' && mode !== 'required') throw badRequest('invalid_request', 'tool_choice.mode must be "auto" or "required".', 'tool_choice.mode');
      if (!Array.isArray(value.tools)) throw badRequest('invalid_request', 'tool_choice.tools must be an array.', 'tool_choice.tools');
      const names: string[] = [];
      value.tools.forEach((t, i) => {
        if (!isObject(t)) throw badRequest('invalid_request', `tool_choice.tools[${i}] must be an object.`, `tool_choice.tools[${i}]`);
        // Hosted entries only matter to openai, where the request is not converted; web search is
        // the hub's tool of that name
        if (t.type === 'function' || t.type === 'custom') names.push(reqString(t, 'name', `tool_choice.tools[${i}].name`));
        else if (isWebSearchToolType(t.type)) names.push('web_search');
      });
      return { type: 'allowed_tools', mode, names };
    }
    default:
      // forcing the declared web search: the hub names its web search tool like a function
      if (isWebSearchToolType(value.type) && tools.some((t) => t.type === 'web_search')) return { type: 'function', name: 'web_search' };
      if (typeof value.type === 'string') {
        throw badRequest(
          'unsupported_feature',
          `tool_choice ${JSON.stringify(value.type)} forces an OpenAI-hosted tool, which only openai models offer.`,
          'tool_choice',
        );
      }
      throw badRequest('invalid_request', 'tool_choice.type is required.', 'tool_choice.type');
  }
}
