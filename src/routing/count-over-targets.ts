/**
 * The target walk both token-count endpoints share (Messages count_tokens, Responses
 * input_tokens): the first target that can count answers; a refused target is skipped; a target
 * cooling down after a failed generation is asked last (cooling-last.ts); an upstream failure
 * falls back as generation does, and is an error in the client's shape that never counts against
 * a provider.
 */
import type { DialectCodec } from '../protocols/codec.js';
import { ProtocolError } from '../protocols/errors.js';
import type { HubRequest } from '../protocols/hub.js';
import type { Exchange } from './exchange.js';
import { coolingLast } from './cooling-last.js';
import { shouldFallback } from './fallback.js';
import { redactSecret } from './redact.js';
import { ClientGone } from './request-body.js';
import { answeredByHeaders, sendJson } from './respond.js';
import { CountRefused } from '../providers/count-tokens.js';
import type { ResolvedProvider } from '../providers/types.js';
import { resolveTargets } from './targets.js';
import { shortenToolNames } from './tool-names.js';
import { failureOfAnswer, parseErrorBody, retryAdviceHeaders } from './upstream-errors.js';
import { AdvisedError } from './advised-error.js';

export interface CountWalk {
  model: string;
  /** a refusal of this request by this provider, beyond the target's own */
  refusal?: (p: ResolvedProvider) => ProtocolError | undefined;
  /** `retrying`: the count failed with `err` and is asked once more of the same target (logged as an attempt of its own) */
  count: (p: ResolvedProvider, model: string, retrying: (err: unknown) => void) => Promise<number>;
  answer: (n: number) => string;
}

export async function countOverTargets(x: Exchange, walk: CountWalk): Promise<void> {
  const { config, record, services, route } = x;
  const resolved = resolveTargets(config, route.group, walk.model, (slug) => services.resolveProvider(slug));
  // a target that just failed a generation is asked last here too: hung, it would cost every count
  // its timeout (Claude Code counts often); a count's own failure cools nothing, as it is another endpoint
  const targets = route.group !== undefined && config.settings.groupCooldowns ? coolingLast(x, resolved) : resolved;
  let failure: ProtocolError | undefined;
  for (const target of targets) {
    const p = target.provider;
    const refusal = target.refusal ?? (p ? walk.refusal?.(p) : undefined);
    if (!p || refusal) {
      record.skipped(target.label, refusal!.code, refusal!.message);
      failure ??= refusal;
      continue;
    }
    const model = p.adapter.normaliseModelId(target.model);
    let started = performance.now();
    // a client that leaves meanwhile is logged against this target (engine.ts finishes the record)
    record.begin(target.label, started);
    const retrying = (err: unknown): void => {
      const refused = asCountError(err, p.slug, p.credential);
      record.attempt({ target: target.label, status: refused.status, latencyMs: Math.round(performance.now() - started), errorCode: refused.code });
      started = performance.now();
      record.begin(target.label, started);
    };
    try {
      const n = await walk.count(p, model, retrying);
      record.attempt({ target: target.label, status: 200, latencyMs: Math.round(performance.now() - started) });
      sendJson(x.res, 200, walk.answer(n), answeredByHeaders(p.slug, model));
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

/** The provider's error answer to a count, read as its answer to a generation would be. */
function refusedCount(err: CountRefused, slug: string, credential: string | undefined): ProtocolError {
  const body = Buffer.from(err.body);
  const f = failureOfAnswer(slug, err.upstreamStatus, err.headers, body, parseErrorBody(body), credential);
  const message = f.message.startsWith(`${slug}: `) ? `${slug}: counting tokens failed: ${f.message.slice(slug.length + 2)}` : f.message;
  return new AdvisedError(f.status, f.code, message, retryAdviceHeaders(f));
}

/**
 * The decoded request a target counts: its own dialect's targets the client's names; a target
 * with a 64-char tool-name limit the names it would really receive (decoded again, once, on demand).
 */
export function countedHub(codec: DialectCodec, hub: HubRequest, fresh: () => Record<string, unknown>): (sameDialect: boolean) => HubRequest {
  let safeNames: HubRequest | undefined;
  return (sameDialect) => {
    if (sameDialect) return hub;
    if (!safeNames) {
      safeNames = codec.decodeRequest(fresh());
      shortenToolNames(safeNames);
    }
    return safeNames;
  };
}

export function asCountError(err: unknown, slug: string, credential: string | undefined): ProtocolError {
  if (err instanceof CountRefused) return refusedCount(err, slug, credential);
  if (err instanceof ProtocolError) {
    return new ProtocolError(err.status, err.code, redactSecret(err.message, credential), err.param);
  }
  const code = (err as { code?: unknown } | null)?.code;
  const message = redactSecret(`${slug}: token counting failed: ${(err as Error)?.message ?? String(err)}`, credential);
  if (code === 'upstream_timeout') return new ProtocolError(504, 'upstream_timeout', message);
  if (code === 'upstream_unreachable' || code === 'upstream_reset') return new ProtocolError(502, code, message);
  throw err;
}
