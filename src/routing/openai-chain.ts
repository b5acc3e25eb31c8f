/**
 * A previous_response_id OpenAI issued, named on a model that is not OpenAI's: the conversation it
 * names is read back from OpenAI — the items it was made from (its chain included), paged oldest
 * first, then its output — so the request can go on from it on any model. Reasoning comes with its
 * encrypted content, for a turn that later goes back to OpenAI.
 */
import { badRequest, ProtocolError } from '../protocols/errors.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { Exchange } from './exchange.js';
import { callOpenAI } from './openai-call.js';
import { invalidResponse, retryAdviceHeaders, type UpstreamFailure } from './upstream-errors.js';
import { AdvisedError } from './advised-error.js';

/** Pages of 100 items read at most: a conversation longer than this is refused, not cut. */
export const MAX_CONVERSATION_PAGES = 50;
const WITH_REASONING = 'include[]=reasoning.encrypted_content';

type Obj = Record<string, unknown>;

function refusal(id: string, failure: UpstreamFailure): ProtocolError {
  if (failure.upstreamStatus === 404) {
    return badRequest('previous_response_not_found', `previous_response_id names a response neither svc-proxy nor OpenAI keeps: ${failure.message}`, 'previous_response_id');
  }
  // a rate limit on the read says when to come back, as a generation's would
  return new AdvisedError(failure.status, failure.code, `Reading the conversation of previous_response_id ${id.slice(0, 200)} from OpenAI failed: ${failure.message}`, retryAdviceHeaders(failure));
}

async function readJson(x: Exchange, p: ResolvedProvider, id: string, sub: string, query: string): Promise<Obj> {
  const call = await callOpenAI(x, p, 'GET', `/responses/${encodeURIComponent(id)}${sub}`, query);
  if (!call.ok) throw refusal(id, call.failure);
  let json: unknown;
  try {
    json = JSON.parse(call.body.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) throw refusal(id, invalidResponse(p.slug, `the stored response ${id.slice(0, 200)} is not a JSON object`));
  return json as Obj;
}

/**
 * OpenAI's response ids are letters, digits, `_` and `-` (resp_…). Anything else would not stay one
 * path segment: `..` or `.` is resolved away by the URL parser, and the daemon would read another
 * OpenAI path with its credential (`/v1/input_items`, `/v1/`).
 */
const OPENAI_ID = /^[A-Za-z0-9_-]{1,200}$/;

/** The whole conversation up to and including the response `id` at OpenAI, oldest first. */
export async function readOpenAIConversation(x: Exchange, openai: ResolvedProvider, id: string): Promise<unknown[]> {
  if (!OPENAI_ID.test(id)) {
    throw badRequest('previous_response_not_found', `previous_response_id ${JSON.stringify(id.slice(0, 200))} is not a response id (resp_…: letters, digits, _ and -); neither svc-proxy nor OpenAI keeps it.`, 'previous_response_id');
  }
  const items: unknown[] = [];
  let after: string | undefined;
  for (let page = 0; ; page++) {
    if (page === MAX_CONVERSATION_PAGES) {
      throw badRequest('invalid_request', `The conversation of previous_response_id ${id.slice(0, 200)} at OpenAI is longer than ${MAX_CONVERSATION_PAGES * 100} items; send it in input.`, 'previous_response_id');
    }
    const cursor = after === undefined ? '' : `&after=${encodeURIComponent(after)}`;
    const list = await readJson(x, openai, id, '/input_items', `?order=asc&limit=100&${WITH_REASONING}${cursor}`);
    const data = Array.isArray(list.data) ? list.data : [];
    items.push(...data);
    const last = typeof list.last_id === 'string' ? list.last_id : undefined;
    if (list.has_more !== true || last === undefined || data.length === 0) break;
    after = last;
  }
  const answer = await readJson(x, openai, id, '', `?${WITH_REASONING}`);
  return [...items, ...(Array.isArray(answer.output) ? answer.output : [])];
}
