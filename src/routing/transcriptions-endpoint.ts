/**
 * POST protocol-a/v1/audio/transcriptions: only custom endpoints of format a take it. The upload
 * is forwarded as a stream with its `model` field rewritten (multipart-model.ts); the upstream's
 * answer (JSON or text, per `response_format`) comes back as it is. The upload can be sent only
 * once, so a group uses its first target that accepts transcriptions and does not fall back.
 * Its bytes are drawn from the budget of bodies held at once (body-budget.ts) as they arrive,
 * like any body's, and given back when the request is done.
 */
import type { OutgoingHttpHeaders } from 'node:http';
import { Readable } from 'node:stream';
import { ProtocolError, badRequest } from '../protocols/errors.js';
import { declaredOverBudget, drawBody, overloaded } from './body-budget.js';
import { timeouts, type Exchange } from './exchange.js';
import { maskEchoedBytes } from './echoed-secrets.js';
import { MultipartError, MultipartModelRewriter, multipartBoundary } from './multipart-model.js';
import { streamSecret } from './redact.js';
import { checkDeclaredLength, ClientGone, tooLarge } from './request-body.js';
import { answeredByHeaders, sendBody, sendError } from './respond.js';
import type { UpstreamAnswer } from './services.js';
import { resolveTargets, type Target } from './targets.js';
import { answerReadFailure, WHOLE_LIMITS } from './upstream-body.js';
import { failureOfAnswer, parseErrorBody, retryAdviceHeaders, transportFailure } from './upstream-errors.js';
import { upstreamHeader } from './upstream-header.js';

export async function handleTranscriptions(x: Exchange): Promise<void> {
  const { req, config, record, services, route } = x;
  const limit = config.settings.bodyLimitBytes;
  checkDeclaredLength(req, limit);
  if (declaredOverBudget(req, x.bodyBudget)) throw overloaded(x.bodyBudget.limit);
  const contentType = req.headers['content-type'];
  const boundary = multipartBoundary(contentType);
  if (!boundary) {
    throw new ProtocolError(415, 'invalid_content_type', 'Send the audio as multipart/form-data (a "file" part and a "model" field), as the OpenAI SDK does.');
  }
  // the upload is relayed as a stream with its model field rewritten, so it must arrive as it is
  const encoding = req.headers['content-encoding']?.trim().toLowerCase();
  if (encoding && encoding !== 'identity') {
    throw new ProtocolError(415, 'unsupported_content_encoding', `Send the audio upload uncompressed (it came with Content-Encoding "${encoding.slice(0, 40)}"); audio formats are compressed already.`);
  }

  // Phase 1: read until the model field's value is known (everything so far is held).
  const rewriter = new MultipartModelRewriter(boundary);
  const chunks = req[Symbol.asyncIterator]() as AsyncIterator<Buffer>;
  const next = async (): Promise<IteratorResult<Buffer>> => {
    try {
      return await chunks.next();
    } catch {
      throw new ClientGone();
    }
  };
  let received = 0;
  /** Count bytes that arrived; the refusal when they pass the size limit or the budget of bodies held at once. */
  const admit = (bytes: number): ProtocolError | undefined => {
    received += bytes;
    if (received > limit) return tooLarge(limit);
    return drawBody(x, bytes) ? undefined : overloaded(x.bodyBudget.limit);
  };
  for (;;) {
    const { value, done } = await next();
    if (done) throw badRequest('invalid_model', 'The upload has no "model" field.', 'model');
    const refused = admit(value.length);
    if (refused) throw refused;
    let found: boolean;
    try {
      found = rewriter.push(value);
    } catch (err) {
      if (!(err instanceof MultipartError)) throw err;
      throw badRequest(/model/.test(err.message) ? 'invalid_model' : 'invalid_request', err.message, /model/.test(err.message) ? 'model' : undefined);
    }
    if (found) break;
  }
  const asked = rewriter.model!;
  record.entry.modelAsked = asked;

  const targets = resolveTargets(config, route.group, asked, (slug) => services.resolveProvider(slug));
  let chosen: Target | undefined;
  let firstRefusal: ProtocolError | undefined;
  for (const t of targets) {
    const refusal =
      t.refusal ??
      (t.provider && !t.provider.adapter.accepts.transcriptions
        ? badRequest('unsupported_modality', `${t.provider.slug} does not offer audio transcriptions; only custom endpoints of format a do (svc-proxy endpoint add <slug> --url <url> --format a).`, 'model')
        : undefined);
    if (refusal) {
      record.skipped(t.label, refusal.code, refusal.message);
      firstRefusal ??= refusal;
      continue;
    }
    chosen = t;
    break;
  }
  if (!chosen) throw firstRefusal!;
  const p = chosen.provider!;
  const model = p.adapter.normaliseModelId(chosen.model);

  // Phase 2: the held bytes with the model replaced, then the rest of the upload as it arrives.
  const head = rewriter.release(model);
  let uploadRefused: ProtocolError | undefined;
  // the upstream may answer before the upload ends; what arrives after the request is done (its
  // bytes given back) is neither counted nor sent
  let settled = false;
  async function* upload(): AsyncGenerator<Buffer> {
    yield* head;
    for (;;) {
      const { value, done } = await next();
      if (done || settled) return;
      uploadRefused = admit(value.length);
      if (uploadRefused) throw uploadRefused;
      yield value;
    }
  }
  const headers: Record<string, string> = { ...p.adapter.headers(p.credential, req.headers, 'chat'), 'content-type': contentType! };
  const declared = req.headers['content-length'];
  if (declared !== undefined && /^\d+$/.test(declared)) headers['content-length'] = String(Number(declared) + rewriter.lengthDelta(model));

  const started = performance.now();
  // a request ended meanwhile (the client left, a revoke, the drain deadline) logs this attempt with its code
  record.begin(chosen.label, started);
  const note = (status: number, errorCode?: string): void =>
    record.attempt(errorCode ? { target: chosen.label, status, latencyMs: Math.round(performance.now() - started), errorCode } : { target: chosen.label, status, latencyMs: Math.round(performance.now() - started) });
  const answeredBy: OutgoingHttpHeaders = answeredByHeaders(p.slug, model);

  try {
    let up: UpstreamAnswer;
    try {
      up = await services.upstreamAnswer({
        url: p.adapter.url(p.baseUrl, 'transcriptions', model),
        method: 'POST',
        headers,
        body: Readable.from(upload(), { objectMode: false }),
        signal: x.abort.upstreamSignal,
        ...timeouts(config),
      }, WHOLE_LIMITS);
    } catch (err) {
      if (uploadRefused) throw uploadRefused;
      if (x.abort.aborted) throw new ClientGone();
      const code = (err as { code?: unknown } | null)?.code;
      const failure = transportFailure(p.slug, typeof code === 'string' ? code : 'upstream_unreachable', (err as Error)?.message ?? String(err), p.credential);
      note(0, failure.code);
      sendError(x.res, 'a', failure, answeredBy);
      record.finish(x.deps.log, failure.status, failure.code);
      return;
    }

    if (up.status < 200 || up.status >= 300) {
      const buf = up.bytes ?? Buffer.alloc(0);
      const failure = failureOfAnswer(p.slug, up.status, up.headers, buf, parseErrorBody(buf), p.credential);
      note(up.status, failure.code);
      sendError(x.res, 'a', failure, retryAdviceHeaders(failure, { ...answeredBy }));
      record.finish(x.deps.log, failure.status, failure.code);
      return;
    }

    const answer = up.bytes;
    if (answer === undefined) {
      if (x.abort.aborted) throw new ClientGone();
      const failure = answerReadFailure(p.slug, up.bodyError, p.credential);
      note(up.status, failure.code);
      sendError(x.res, 'a', failure, answeredBy);
      record.finish(x.deps.log, failure.status, failure.code);
      return;
    }
    sendBody(x.res, 200, upstreamHeader(up.headers, 'content-type') ?? 'application/json', maskEchoedBytes(answer, streamSecret(p.credential)), answeredBy);
    note(up.status);
    record.firstByte();
    record.answeredBy(p.slug, model);
    record.finish(x.deps.log, 200);
  } finally {
    settled = true;
  }
}
