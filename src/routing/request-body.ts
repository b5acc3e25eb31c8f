/**
 * Reading and checking a client's request body: size limit first (Content-Length, then counted
 * bytes — reading stops at the limit), the bytes drawn from the budget of all bodies held at once
 * (body-budget.ts), a compressed body decoded (content-encoding.ts), JSON content type, JSON that
 * is an object, a string model.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { ProtocolError, badRequest } from '../protocols/errors.js';
import { declaredOverBudget, drawBody, overloaded, type BodyClaim } from './body-budget.js';
import { decodeContent } from './content-encoding.js';
import { scanTopLevelMembers, type TopLevelMember } from '../protocols/json-members.js';
import { lazyJsonBody } from '../protocols/lazy-json.js';
import { SPLICE_MIN_BYTES } from './json-splice.js';

/** The client went away before its body arrived; nobody is left to answer. */
export class ClientGone extends Error {
  constructor() {
    super('client disconnected');
    this.name = 'ClientGone';
  }
}

export function tooLarge(limit: number): ProtocolError {
  return new ProtocolError(413, 'request_too_large', `Request body is larger than the limit of ${limit} bytes (settings.bodyLimitBytes).`);
}

/** After an early 413, how long and how much of a body still arriving is discarded (see closeAfterAnswer). */
const LINGER_MS = 1_000;
const LINGER_BYTES = 4 * 1024 * 1024;

/**
 * Close the connection once the early answer (413) is out, but not abruptly: a socket closed while
 * the client is still sending is reset, and the reset makes the client lose the answer it has not
 * read yet (it sees ECONNRESET instead of request_too_large). So our side is shut after the
 * answer, and what the client still sends is dropped unread for at most LINGER_MS / LINGER_BYTES
 * (lingering close, as web servers do); then the socket goes.
 */
export function closeAfterAnswer(req: IncomingMessage, res: ServerResponse): void {
  res.setHeader('connection', 'close');
  if (req.complete) return;
  const socket = req.socket;
  let dropped = 0;
  req.on('data', (chunk: Buffer) => {
    dropped += chunk.length;
    if (dropped > LINGER_BYTES) socket.destroy();
  });
  req.resume();
  // node ends a `connection: close` socket with destroySoon() once the answer is written
  socket.destroySoon = function lingeringClose(this: Socket): void {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
  };
}

/** 413 from the declared length alone, before reading anything. */
export function checkDeclaredLength(req: IncomingMessage, limit: number): void {
  const declared = req.headers['content-length'];
  if (declared !== undefined && Number(declared) > limit) throw tooLarge(limit);
}

/**
 * Read the body, counting bytes against `limit` and drawing them from the claim's budget (the
 * engine gives them back when the request is done). Callers run checkDeclaredLength first (before
 * their other header checks, so a 413 wins), hence it is not repeated here.
 */
export function readBody(req: IncomingMessage, limit: number, claim: BodyClaim): Promise<Buffer> {
  const encoding = req.headers['content-encoding'];
  const raw = readRawBody(req, limit, claim);
  return encoding === undefined ? raw : raw.then((body) => decodeContent(body, encoding, limit).then((decoded) => heldInstead(claim, body, decoded)));
}

/**
 * The decoded body is what stays held (the compressed one is dropped); it is bounded by `limit`
 * already, so it is counted, not refused: the client was let in on what it sent.
 */
function heldInstead(claim: BodyClaim, raw: Buffer, decoded: Buffer): Buffer {
  const grown = decoded.length - raw.length;
  claim.bodyBudget.held += grown;
  claim.bodyBytes += grown;
  return decoded;
}

function readRawBody(req: IncomingMessage, limit: number, claim: BodyClaim): Promise<Buffer> {
  const budget = claim.bodyBudget;
  if (declaredOverBudget(req, budget)) return Promise.reject(overloaded(budget.limit));
  return new Promise<Buffer>((resolve, reject) => {
    let first: Buffer | undefined;
    let chunks: Buffer[] | undefined;
    let size = 0;
    const cleanup = (): void => {
      req.removeListener('data', onData);
      req.removeListener('end', onEnd);
      req.removeListener('error', onError);
      req.removeListener('close', onClose);
    };
    const onData = (chunk: Buffer): void => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.pause();
        reject(tooLarge(limit));
        return;
      }
      if (!drawBody(claim, chunk.length)) {
        cleanup();
        req.pause();
        reject(overloaded(budget.limit));
        return;
      }
      if (!first) first = chunk;
      else (chunks ??= [first]).push(chunk);
    };
    const onEnd = (): void => {
      cleanup();
      resolve(chunks ? Buffer.concat(chunks, size) : (first ?? Buffer.alloc(0)));
    };
    const onError = (): void => {
      cleanup();
      reject(new ClientGone());
    };
    const onClose = (): void => {
      if (req.complete) return;
      cleanup();
      reject(new ClientGone());
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/** JSON endpoints take `application/json` (or any `+json` type); anything else is 415. */
export function checkJsonContentType(req: IncomingMessage): void {
  const ct = req.headers['content-type'];
  if (ct !== undefined) {
    const semi = ct.indexOf(';');
    const type = (semi === -1 ? ct : ct.slice(0, semi)).trim().toLowerCase();
    if (type === 'application/json' || type.endsWith('+json')) return;
  }
  throw new ProtocolError(
    415,
    'invalid_content_type',
    `Send the request body as JSON with "Content-Type: application/json"${ct ? ` (got "${ct.slice(0, 100)}")` : ' (no Content-Type header was sent)'}.`,
  );
}

export interface JsonRequest {
  body: Record<string, unknown>;
  model: string;
  stream: boolean;
  /** A new copy of the body as the client sent it (`body` may be edited in place). */
  fresh(): Record<string, unknown>;
  /** The top-level members' spans, when the body is read lazily (for a splice to reuse). */
  members?: TopLevelMember[];
}

/**
 * The request body as an object. A large one (the bodies a splice pays for) is read lazily:
 * its small top-level members at once, its bulky ones (the conversation) only when something
 * reads them (protocols/lazy-json.ts). Anything else is parsed whole.
 */
export function parseJsonRequest(raw: Buffer): JsonRequest {
  const members = raw.length >= SPLICE_MIN_BYTES ? scanTopLevelMembers(raw) : undefined;
  if (members) return { ...withModel(lazyJsonBody(raw, members), () => lazyJsonBody(raw, members)), members };
  const text = raw.toString('utf8');
  const body = parseWhole(text);
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw badRequest('invalid_request', `The request body must be a JSON object, not ${body === null ? 'null' : Array.isArray(body) ? 'an array' : typeof body}.`);
  }
  return withModel(body as Record<string, unknown>, () => parseWhole(text) as Record<string, unknown>);
}

function parseWhole(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch (err) {
    throw badRequest('invalid_json', `The request body is not valid JSON: ${(err as Error).message}`);
  }
}

function withModel(body: Record<string, unknown>, fresh: () => Record<string, unknown>): JsonRequest {
  const model = body.model;
  if (typeof model !== 'string' || model.length === 0) {
    throw badRequest('invalid_model', model === undefined ? 'The request has no "model" field.' : '"model" must be a non-empty string.', 'model');
  }
  return { body, model, stream: body.stream === true, fresh };
}
