/** A Chat client's tools, tool_choice and response_format → hub, validated. */
import type { FunctionTool, ResponseFormat, ToolChoice } from '../hub.js';
import { badRequest } from '../errors.js';
import { expectArray, expectNonEmptyString, expectRecord, isRecord, jsonType, optBoolean, optString, type Json } from './guards.js';

const TOOLS = 'invalid_tools';
const CHOICE = 'invalid_tool_choice';

function functionTool(fn: Json, path: string): FunctionTool {
  const tool: FunctionTool = { type: 'function', name: expectNonEmptyString(fn.name, TOOLS, `${path}.name`) };
  const description = optString(fn.description, TOOLS, `${path}.description`);
  if (description !== undefined) tool.description = description;
  if (fn.parameters !== undefined && fn.parameters !== null) tool.parameters = expectRecord(fn.parameters, TOOLS, `${path}.parameters`);
  const strict = optBoolean(fn.strict, TOOLS, `${path}.strict`);
  if (strict !== undefined) tool.strict = strict;
  return tool;
}

function customToolError(path: string): Error {
  return badRequest('unsupported_feature', `${path}: custom (free-form) tools cannot be converted for this model; use function tools.`, path);
}

/** `tools` (or the deprecated `functions`). Unknown tool types are an error, never skipped. */
export function decodeTools(body: Json): FunctionTool[] {
  const tools: FunctionTool[] = [];
  if (body.tools !== undefined && body.tools !== null) {
    expectArray(body.tools, TOOLS, 'tools').forEach((raw, i) => {
      const path = `tools[${i}]`;
      const t = expectRecord(raw, TOOLS, path);
      if (t.type === 'function') tools.push(functionTool(expectRecord(t.function, TOOLS, `${path}.function`), `${path}.function`));
      else if (t.type === 'custom') throw customToolError(path);
      else {
        const shown = typeof t.type === 'string' ? `"${t.type.slice(0, 40)}"` : jsonType(t.type);
        throw badRequest(TOOLS, `${path}.type ${shown} is not supported (use "function").`, `${path}.type`);
      }
    });
  } else if (body.functions !== undefined && body.functions !== null) {
    expectArray(body.functions, TOOLS, 'functions').forEach((raw, i) => {
      tools.push(functionTool(expectRecord(raw, TOOLS, `functions[${i}]`), `functions[${i}]`));
    });
  }
  const seen = new Set<string>();
  for (const t of tools) {
    if (seen.has(t.name)) throw badRequest(TOOLS, `Tool name "${t.name}" is defined twice.`, 'tools');
    seen.add(t.name);
  }
  return tools;
}

/** Name of a function reference: {type:'function', function:{name}} or the flat {type:'function', name}. */
function functionRef(ref: Json, path: string): string {
  if (isRecord(ref.function)) return expectNonEmptyString(ref.function.name, CHOICE, `${path}.function.name`);
  return expectNonEmptyString(ref.name, CHOICE, `${path}.function.name`);
}

function requireKnown(name: string, tools: ReadonlyArray<FunctionTool>, param: string): void {
  if (!tools.some((t) => t.name === name)) throw badRequest(CHOICE, `${param} names "${name}", which is not in tools.`, param);
}

function readChoice(raw: unknown, param: string, tools: ReadonlyArray<FunctionTool>): ToolChoice {
  if (raw === 'auto' || raw === 'none' || raw === 'required') return { type: raw };
  if (!isRecord(raw)) throw badRequest(CHOICE, `${param} must be "auto", "none", "required" or an object.`, param);
  switch (raw.type) {
    case 'function': {
      const name = functionRef(raw, param);
      requireKnown(name, tools, param);
      return { type: 'function', name };
    }
    case 'allowed_tools': {
      const at = expectRecord(raw.allowed_tools, CHOICE, `${param}.allowed_tools`);
      const mode = at.mode;
      if (mode !== 'auto' && mode !== 'required') throw badRequest(CHOICE, `${param}.allowed_tools.mode must be "auto" or "required".`, `${param}.allowed_tools.mode`);
      const names = expectArray(at.tools, CHOICE, `${param}.allowed_tools.tools`).map((t, i) => {
        const path = `${param}.allowed_tools.tools[${i}]`;
        const ref = expectRecord(t, CHOICE, path);
        if (ref.type === 'custom') throw customToolError(path);
        const name = functionRef(ref, path);
        requireKnown(name, tools, path);
        return name;
      });
      return { type: 'allowed_tools', mode, names };
    }
    case 'custom':
      throw customToolError(param);
    default:
      throw badRequest(CHOICE, `${param}.type must be "function" or "allowed_tools".`, `${param}.type`);
  }
}

/** `tool_choice` (or the deprecated `function_call`): every form. */
export function decodeToolChoice(body: Json, tools: ReadonlyArray<FunctionTool>): ToolChoice | undefined {
  if (body.tool_choice !== undefined && body.tool_choice !== null) return readChoice(body.tool_choice, 'tool_choice', tools);
  const legacy = body.function_call;
  if (legacy === undefined || legacy === null) return undefined;
  if (legacy === 'auto' || legacy === 'none') return { type: legacy };
  if (isRecord(legacy)) {
    const name = expectNonEmptyString(legacy.name, CHOICE, 'function_call.name');
    requireKnown(name, tools, 'function_call');
    return { type: 'function', name };
  }
  throw badRequest(CHOICE, 'function_call must be "auto", "none" or {"name": …}.', 'function_call');
}

const FORMAT = 'invalid_response_format';

export function decodeResponseFormat(raw: unknown): ResponseFormat | undefined {
  if (raw === undefined || raw === null) return undefined;
  const rf = expectRecord(raw, FORMAT, 'response_format');
  switch (rf.type) {
    case 'text':
      return { type: 'text' };
    case 'json_object':
      return { type: 'json_object' };
    case 'json_schema': {
      const js = expectRecord(rf.json_schema, FORMAT, 'response_format.json_schema');
      const name = optString(js.name, FORMAT, 'response_format.json_schema.name');
      const schema = js.schema === undefined || js.schema === null ? {} : expectRecord(js.schema, FORMAT, 'response_format.json_schema.schema');
      const format: ResponseFormat = { type: 'json_schema', name: name || 'response', schema };
      const strict = optBoolean(js.strict, FORMAT, 'response_format.json_schema.strict');
      if (strict !== undefined) format.strict = strict;
      const description = optString(js.description, FORMAT, 'response_format.json_schema.description');
      if (description !== undefined) format.description = description;
      return format;
    }
    default:
      throw badRequest(FORMAT, 'response_format.type must be "text", "json_object" or "json_schema".', 'response_format.type');
  }
}
