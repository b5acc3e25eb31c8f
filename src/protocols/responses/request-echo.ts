/**
 * The request parameters a Response object states again. OpenAI's response says what it was asked
 * with (`instructions`, `tools`, `tool_choice`, `temperature`, `metadata` …), and clients read them
 * back — most of all from a stored response (`GET /responses/{id}`). A converted answer has no
 * upstream to echo them, so they come from the client's own request, as it sent them. Only values
 * of the wire's types are taken: the request was decoded (and validated) before any answer exists.
 */
import type { Response } from 'openai/resources/responses/responses';
import { isObject, type JsonObject } from './json.js';

/** The echoed members, in the Response object's own shape. */
export type ResponseEcho = Partial<
  Pick<
    Response,
    | 'instructions'
    | 'max_output_tokens'
    | 'metadata'
    | 'parallel_tool_calls'
    | 'prompt_cache_key'
    | 'prompt_cache_retention'
    | 'reasoning'
    | 'safety_identifier'
    | 'temperature'
    | 'text'
    | 'tool_choice'
    | 'tools'
    | 'top_logprobs'
    | 'top_p'
    | 'truncation'
    | 'user'
  >
>;

const STRINGS = ['instructions', 'prompt_cache_key', 'safety_identifier', 'user'] as const;
const NUMBERS = ['max_output_tokens', 'temperature', 'top_logprobs', 'top_p'] as const;

export function requestEcho(body: JsonObject): ResponseEcho {
  const echo: Record<string, unknown> = {};
  for (const key of STRINGS) if (typeof body[key] === 'string') echo[key] = body[key];
  for (const key of NUMBERS) if (typeof body[key] === 'number') echo[key] = body[key];
  if (typeof body.parallel_tool_calls === 'boolean') echo.parallel_tool_calls = body.parallel_tool_calls;
  if (body.truncation === 'auto' || body.truncation === 'disabled') echo.truncation = body.truncation;
  if (body.prompt_cache_retention === 'in_memory' || body.prompt_cache_retention === '24h') echo.prompt_cache_retention = body.prompt_cache_retention;
  if (isObject(body.metadata)) echo.metadata = body.metadata;
  if (Array.isArray(body.tools)) echo.tools = body.tools;
  if (typeof body.tool_choice === 'string' || isObject(body.tool_choice)) echo.tool_choice = body.tool_choice;
  if (isObject(body.reasoning)) {
    const { effort, summary } = body.reasoning;
    echo.reasoning = { effort: typeof effort === 'string' ? effort : null, summary: typeof summary === 'string' ? summary : null };
  }
  if (isObject(body.text)) {
    // OpenAI states both, the defaults included
    const { format, verbosity } = body.text;
    echo.text = { format: isObject(format) ? format : { type: 'text' }, verbosity: typeof verbosity === 'string' ? verbosity : 'medium' };
  }
  return echo as ResponseEcho;
}
