/**
 * Hub response → the full Responses `response` object a client expects from `POST /responses`.
 * The request's parameters are stated again from ResponseContext.echo (request-echo.ts); those
 * the request left out get OpenAI's defaults.
 */
import type { ResponseContext } from '../codec.js';
import type { HubResponse, OutputItem } from '../hub.js';
import { chooseSuffix, itemId } from './ids.js';
import { answerCallIds } from '../call-id-reuse.js';
import type { ResponseEcho } from './request-echo.js';
import { customToolCallItem, functionCallItem, messageItem, messageParts, outputText, webSearchCallItem } from './output-items.js';
import { wireReasoningItem } from './reasoning.js';
import { statusFor } from './status.js';
import { usageToWire } from './usage.js';

export function encodeResponse(res: HubResponse, ctx: ResponseContext): Record<string, unknown> {
  const suffix = chooseSuffix(ctx.idSuffix, res.id, ctx.idTaken);
  const hasRefusalPart = res.output.some((item) => item.type === 'message' && item.content.some((p) => p.type === 'refusal'));
  const terminal = statusFor(res.stopReason, hasRefusalPart);
  // an answer cut at max_output_tokens was cut in its last item: OpenAI marks that item incomplete
  const cut = terminal.incomplete_details?.reason === 'max_output_tokens' ? res.output.length - 1 : -1;
  const callId = answerCallIds(ctx.callIdTaken);
  const output = res.output.map((item, i) => encodeOutputItem(item, suffix, i, i === cut ? 'incomplete' : 'completed', callId));
  return responseObject({
    id: `resp_${suffix}`,
    createdAt: ctx.created ?? res.created ?? Math.floor(Date.now() / 1000),
    model: ctx.model,
    status: terminal.status,
    incompleteDetails: terminal.incomplete_details,
    output,
    usage: usageToWire(res.usage),
    error: null,
    ...requestFields(ctx),
  });
}

/** What a response says of its request: the echoed parameters, `store`, the previous_response_id it went on from. */
export function requestFields(ctx: ResponseContext): Pick<ResponseShape, 'store' | 'previousResponseId' | 'echo'> {
  const out: Pick<ResponseShape, 'store' | 'previousResponseId' | 'echo'> = {};
  if (ctx.kept) out.store = true;
  if (ctx.previousResponseId !== undefined) out.previousResponseId = ctx.previousResponseId;
  if (ctx.echo !== undefined) out.echo = ctx.echo;
  return out;
}

function encodeOutputItem(item: OutputItem, suffix: string, index: number, status: 'completed' | 'incomplete', clientCallId: (id: string) => string): object {
  switch (item.type) {
    case 'reasoning':
      return wireReasoningItem(item.origin, item.text, itemId('rs', suffix, index));
    case 'message':
      return messageItem(itemId('msg', suffix, index), messageParts(item.content), status, item.phase);
    case 'function_call': {
      const callId = clientCallId(item.callId);
      return item.freeform
        ? customToolCallItem(itemId('ctc', suffix, index), callId, item.name, item.arguments, status, item.namespace)
        : functionCallItem(itemId('fc', suffix, index), callId, item.name, item.arguments, status, item.namespace);
    }
    case 'web_search':
      return webSearchCallItem(item.id, item);
  }
}

export interface ResponseShape {
  id: string;
  createdAt: number;
  model: string;
  status: 'in_progress' | 'completed' | 'incomplete' | 'failed';
  incompleteDetails: { reason: string } | null;
  output: ReadonlyArray<object>;
  usage: object | null;
  error: { code: string; message: string } | null;
  /** The answer is kept for a later previous_response_id (ResponseContext.kept). */
  store?: boolean;
  previousResponseId?: string;
  /** The request's parameters, as it sent them. */
  echo?: ResponseEcho;
}

/** The response object, shared with the stream encoder (created / completed / failed events). */
export function responseObject(shape: ResponseShape): Record<string, unknown> {
  const echo = shape.echo ?? {};
  const response: Record<string, unknown> = {
    id: shape.id,
    object: 'response',
    created_at: shape.createdAt,
    status: shape.status,
    background: false,
    error: shape.error,
    incomplete_details: shape.incompleteDetails,
    instructions: echo.instructions ?? null,
    max_output_tokens: echo.max_output_tokens ?? null,
    metadata: echo.metadata ?? {},
    model: shape.model,
    output: shape.output,
    output_text: outputText(shape.output as ReadonlyArray<{ type: string }>),
    parallel_tool_calls: echo.parallel_tool_calls ?? true,
    previous_response_id: shape.previousResponseId ?? null,
    reasoning: echo.reasoning ?? { effort: null, summary: null },
    store: shape.store ?? false,
    temperature: echo.temperature ?? null,
    text: echo.text ?? { format: { type: 'text' } },
    tool_choice: echo.tool_choice ?? 'auto',
    tools: echo.tools ?? [],
    top_p: echo.top_p ?? null,
    truncation: echo.truncation ?? 'disabled',
    usage: shape.usage,
  };
  // stated only when asked, as OpenAI leaves them out or null otherwise
  for (const key of OPTIONAL_ECHO) if (echo[key] !== undefined) response[key] = echo[key];
  return response;
}

const OPTIONAL_ECHO = ['prompt_cache_key', 'prompt_cache_retention', 'safety_identifier', 'top_logprobs', 'user'] as const;
