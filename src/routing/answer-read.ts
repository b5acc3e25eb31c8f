/**
 * An upstream's 2xx answer read whole, rather than relayed as a stream: its bytes (bounded), parsed
 * as one JSON object, or an event stream folded into one answer; else the failure it is. ClientGone
 * when the client left while it was read.
 */
import type { HubResponse } from '../protocols/hub.js';
import { ProtocolError } from '../protocols/errors.js';
import { MessageContentAccumulator } from '../protocols/messages/content-accumulate.js';
import { answerFromEventStream } from '../protocols/stream-answer.js';
import { parseKeepingStrings, VERBATIM_MIN_BYTES, VerbatimStrings } from '../protocols/verbatim-strings.js';
import { readAll } from '../providers/read-all.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { Exchange } from './exchange.js';
import { ClientGone } from './request-body.js';
import type { UpstreamAnswer, UpstreamResponse } from './services.js';
import type { Built } from './target-body.js';
import { answerReadFailure, MAX_ANSWER_BYTES } from './upstream-body.js';
import { describeErrorJson, failureOfAnswer, invalidResponse, isErrorBody, streamEventFailure, type ParsedError, type UpstreamFailure } from './upstream-errors.js';
import { upstreamHeader } from './upstream-header.js';

type Obj = Record<string, unknown>;

/** An upstream's answer: a stream (to a streamed request), or read whole. */
export type Answered = UpstreamResponse | UpstreamAnswer;

export function isEventStream(headers: UpstreamResponse['headers']): boolean {
  return (upstreamHeader(headers, 'content-type') ?? '').toLowerCase().includes('text/event-stream');
}

/**
 * An upstream error answer (or a 2xx that is not a usable body) as our failure. `parsed` is the
 * body's error as already read (undefined: not JSON, or no error shape).
 */
export function failureOf(p: ResolvedProvider, up: Answered, buf: Buffer, parsed: ParsedError | undefined): UpstreamFailure {
  // a 2xx keeps no date among its headers; its error's absolute reset times are read on the upstream's clock too
  const headers = up.headers.date === undefined && up.receivedDate !== undefined ? { ...up.headers, date: up.receivedDate } : up.headers;
  return failureOfAnswer(p.slug, up.status, headers, buf, parsed, p.credential);
}

/** A whole Messages answer's content blocks, as the upstream wrote them. */
export function contentOf(json: Obj): unknown[] {
  return Array.isArray(json.content) ? json.content : [];
}

/** A whole answer's bytes (bounded), or why they could not be read. */
async function readBody(x: Exchange, p: ResolvedProvider, up: Answered): Promise<Buffer | UpstreamFailure> {
  if (up.kind === 'whole') {
    if (up.bytes !== undefined) return up.bytes;
    if (x.abort.aborted) throw new ClientGone();
    return answerReadFailure(p.slug, up.bodyError, p.credential);
  }
  // a streamed request answered whole: its answer is a stream already, read to its end here
  try {
    return await readAll(up.body, MAX_ANSWER_BYTES);
  } catch (err) {
    if (x.abort.aborted) throw new ClientGone();
    return answerReadFailure(p.slug, err, p.credential);
  }
}

/**
 * A whole 2xx answer's body, read and parsed: a JSON object, or why it is none (`what` names it
 * in the messages). Long strings (the answer's text) are read as ropes and kept with their bytes:
 * a large answer is neither one string over V8's large-object threshold nor serialised again for
 * the client.
 */
export async function readAnswer(x: Exchange, p: ResolvedProvider, up: Answered, what: string): Promise<{ buf: Buffer; json: Obj; kept: VerbatimStrings | undefined } | UpstreamFailure> {
  const buf = await readBody(x, p, up);
  if (!Buffer.isBuffer(buf)) return buf;
  const kept = buf.length >= VERBATIM_MIN_BYTES ? new VerbatimStrings() : undefined;
  let json: unknown;
  try {
    json = kept ? parseKeepingStrings(buf, kept) : JSON.parse(buf.toString('utf8'));
  } catch {
    json = undefined;
  }
  if (json === undefined) {
    // answers come here with a 2xx: garbage in one is the upstream's failure, like a 502
    const failure = failureOf(p, up, buf, undefined);
    return { ...failure, message: failure.message.replace(`${p.slug}: `, `${p.slug}: ${what} is not JSON: `) };
  }
  // the parse above is the only one: the error is described from it
  if (isErrorBody(json)) return failureOf(p, up, buf, describeErrorJson(json));
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return invalidResponse(p.slug, `${what} is not a JSON object`);
  return { buf, json: json as Obj, kept };
}

/**
 * A whole answer that came as an event stream, read to its end (bounded as a whole answer is) and
 * folded into one: the answer, or why there is none (an error event, a stream cut short).
 */
export async function readStreamedAnswer(x: Exchange, p: ResolvedProvider, up: Answered, built: Built): Promise<{ streamed: HubResponse; content?: unknown[] } | UpstreamFailure> {
  const buf = await readBody(x, p, up);
  if (!Buffer.isBuffer(buf)) return buf;
  const decoder = x.services.codecs[p.adapter.dialect].createStreamDecoder(p.adapter.decodeOptions?.(built.upstreamModel));
  // a turn that may pause keeps its blocks as the upstream wrote them, to be sent back verbatim
  const content = built.mayPause ? new MessageContentAccumulator() : undefined;
  let folded;
  try {
    folded = answerFromEventStream(buf, decoder, built.upstreamModel, { errorField: p.adapter.dialect === 'chat' }, content && ((ev) => content.push(ev)));
  } catch (err) {
    return invalidResponse(p.slug, `the answer came as an event stream that could not be read (${err instanceof Error ? err.message : String(err)})`);
  }
  if ('error' in folded) {
    // classified as the same words in an HTTP error body would be (a prompt too long is the request's)
    return streamEventFailure(p.slug, folded.error, p.credential);
  }
  return content ? { streamed: folded, content: content.blocks() } : { streamed: folded };
}

/** A continuation's answer, whole or streamed (as the first part was): decoded, and its blocks as the upstream wrote them. */
export async function readPart(x: Exchange, p: ResolvedProvider, built: Built, up: Answered): Promise<{ part: HubResponse; content: unknown[] } | UpstreamFailure> {
  if (isEventStream(up.headers)) {
    const streamed = await readStreamedAnswer(x, p, up, built);
    return 'streamed' in streamed ? { part: streamed.streamed, content: streamed.content ?? [] } : streamed;
  }
  const read = await readAnswer(x, p, up, 'the continuation of a paused turn');
  if (!('json' in read)) return read;
  try {
    return { part: x.services.codecs.messages.decodeResponse(read.json, p.adapter.decodeOptions?.(built.upstreamModel)), content: contentOf(read.json) };
  } catch (err) {
    if (!(err instanceof ProtocolError)) throw err;
    return invalidResponse(p.slug, `the continuation of a paused turn is not a Messages answer: ${err.message}`);
  }
}
