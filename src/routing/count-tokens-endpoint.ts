/**
 * POST protocol-b …/messages/count_tokens → `{"input_tokens": N}`. The body is decoded with the
 * Messages codec, the model resolved like a Messages request (groups: first target that can
 * count), and the provider module counts (upstream count endpoints or a local tokenizer). A
 * failure is an error in protocol B's shape; it never counts against a provider.
 */
import { ProtocolError } from '../protocols/errors.js';
import type { HubRequest } from '../protocols/hub.js';
import type { Exchange } from './exchange.js';
import { shouldFallback } from './fallback.js';
import { needsNativeProof, restoreNativeProof } from './passthrough-envelopes.js';
import { dropForeignThinking } from './proof-issuers.js';
import { dropUnprovenManualThinking, dropUnprovenThinking } from './reasoning-continuity.js';
import { redactSecret } from './redact.js';
import { checkDeclaredLength, checkJsonContentType, ClientGone, parseJsonRequest, readBody } from './request-body.js';
import { answeredByHeaders, sendJson } from './respond.js';
import { resolveTargets } from './targets.js';
import { shortenToolNames } from './tool-names.js';

export async function handleCountTokens(x: Exchange): Promise<void> {
  const { req, config, record, services, route } = x;
  const limit = config.settings.bodyLimitBytes;
  checkDeclaredLength(req, limit);
  checkJsonContentType(req);
  const raw = await readBody(req, limit);
  const parsed = parseJsonRequest(raw);
  record.entry.modelAsked = parsed.model;
  const codec = services.codecs.messages;
  const hub = codec.decodeRequest(parsed.body);
  // Targets with a 64-char tool-name limit count the names they would really receive.
  let safeNames: HubRequest | undefined;
  const hubFor = (messagesTarget: boolean): HubRequest => {
    if (messagesTarget) return hub;
    if (!safeNames) {
      safeNames = codec.decodeRequest(parsed.fresh());
      shortenToolNames(safeNames);
    }
    return safeNames;
  };

  // the proof a Messages target sees is fitted as for generation: our envelopes put back in
  // Anthropic's form or removed, and no signature another provider issued (on a shallow copy:
  // both replace `messages` rather than edit it)
  const envelopes = needsNativeProof('messages', raw);
  const rawFor = (slug: string): Record<string, unknown> => {
    const thinking = thinkingOn(parsed.body);
    if (!envelopes && x.issuers.size === 0 && !thinking) return parsed.body;
    const copy = { ...parsed.body };
    const restored = envelopes && restoreNativeProof('messages', copy);
    const dropped = x.issuers.size > 0 && dropForeignThinking(copy, x.issuers, slug);
    if (thinking) {
      // as a generation turns thinking off when the tool turn lost its proof (Anthropic would
      // refuse it), so does its count; the turns are copied, since that drops their thinking blocks
      if (Array.isArray(copy.messages)) copy.messages = copy.messages.map((m: unknown) => (isObject(m) ? { ...m } : m));
      if (restored || dropped ? dropUnprovenThinking(copy) : dropUnprovenManualThinking(copy)) return copy;
    }
    return restored || dropped ? copy : parsed.body;
  };

  const targets = resolveTargets(config, route.group, parsed.model, (slug) => services.resolveProvider(slug));
  let failure: ProtocolError | undefined;
  for (const target of targets) {
    const p = target.provider;
    if (!p || target.refusal) {
      const r = target.refusal!;
      record.skipped(target.label, r.code, r.message);
      failure ??= r;
      continue;
    }
    const model = p.adapter.normaliseModelId(target.model);
    const started = performance.now();
    try {
      const n = await services.countTokens(
        p,
        model,
        { hub: hubFor(p.adapter.dialect === 'messages'), raw: rawFor(p.slug), from: 'messages', headers: req.headers },
        x.abort.signal,
      );
      record.attempt({ target: target.label, status: 200, latencyMs: Math.round(performance.now() - started) });
      sendJson(x.res, 200, JSON.stringify({ input_tokens: n }), answeredByHeaders(p.slug, model));
      record.firstByte();
      record.answeredBy(p.slug, model);
      record.finish(x.deps.log, 200);
      return;
    } catch (err) {
      if (x.abort.aborted) throw new ClientGone();
      failure = asCountError(err, p.slug, p.credential);
      record.attempt({ target: target.label, status: failure.status, latencyMs: Math.round(performance.now() - started), errorCode: failure.code });
      // as generation does: a count the request itself spoiled (a 400) would fail on the next target too
      if (!shouldFallback({ upstreamStatus: failure.status, contextLength: failure.code === 'context_length_exceeded' })) break;
    }
  }
  throw failure!;
}

export function asCountError(err: unknown, slug: string, credential: string | undefined): ProtocolError {
  if (err instanceof ProtocolError) {
    return new ProtocolError(err.status, err.code, redactSecret(err.message, credential), err.param);
  }
  const code = (err as { code?: unknown } | null)?.code;
  const message = redactSecret(`${slug}: token counting failed: ${(err as Error)?.message ?? String(err)}`, credential);
  if (code === 'upstream_timeout') return new ProtocolError(504, 'upstream_timeout', message);
  if (code === 'upstream_unreachable' || code === 'upstream_reset') return new ProtocolError(502, code, message);
  throw err;
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function thinkingOn(body: Record<string, unknown>): boolean {
  const t = body.thinking;
  return isObject(t) && (t.type === 'enabled' || t.type === 'adaptive');
}
