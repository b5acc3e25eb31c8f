/**
 * POST protocol-a/v1/responses/input_tokens (the OpenAI SDK's `responses.inputTokens.count`) →
 * `{"object":"response.input_tokens","input_tokens":N}` for any model: the body is read as a
 * Responses request — a previous_response_id or item_reference svc-proxy keeps becomes the
 * conversation it names, as for generation (kept-turn.ts) — the model resolved like one (groups:
 * the first target that can count it), and the provider module counts (count-tokens.ts). A target
 * that could not take the request (an id only OpenAI keeps, a conversation, hosted tools) is
 * skipped as policy.ts says.
 */
import type { HubRequest } from '../protocols/hub.js';
import { ProtocolError } from '../protocols/errors.js';
import { asCountError } from './count-tokens-endpoint.js';
import type { Exchange } from './exchange.js';
import { shouldFallback } from './fallback.js';
import { KeptTurn } from './kept-turn.js';
import { checkStatefulResponses, policyRefusal, readFeatures } from './policy.js';
import { checkDeclaredLength, checkJsonContentType, ClientGone, parseJsonRequest, readBody } from './request-body.js';
import { answeredByHeaders, sendJson } from './respond.js';
import { resolveTargets } from './targets.js';
import { shortenToolNames } from './tool-names.js';

export async function handleInputTokens(x: Exchange): Promise<void> {
  const { req, config, record, services, route } = x;
  const limit = config.settings.bodyLimitBytes;
  checkDeclaredLength(req, limit);
  checkJsonContentType(req);
  const raw = await readBody(req, limit);
  let parsed = parseJsonRequest(raw);
  record.entry.modelAsked = parsed.model;
  checkStatefulResponses(parsed.body);
  // counted as it would be sent: the kept conversation in front of the input (nothing is kept)
  const resolved = new KeptTurn(x.responses, record.entry.keyId ?? '').resolve(parsed.body, raw);
  if (resolved) parsed = parseJsonRequest(resolved);
  const body = parsed.body;
  const features = readFeatures(body, 'responses');
  const codec = services.codecs.responses;
  const hub = codec.decodeRequest(body);
  // targets with a 64-char tool-name limit count the names they would really receive
  let safeNames: HubRequest | undefined;
  const hubFor = (responsesTarget: boolean): HubRequest => {
    if (responsesTarget) return hub;
    if (!safeNames) {
      safeNames = codec.decodeRequest(parsed.fresh());
      shortenToolNames(safeNames);
    }
    return safeNames;
  };

  const targets = resolveTargets(config, route.group, parsed.model, (slug) => services.resolveProvider(slug));
  let failure: ProtocolError | undefined;
  for (const target of targets) {
    const p = target.provider;
    const refusal = target.refusal ?? (p ? policyRefusal(features, p.adapter, p.slug, 'responses') : undefined);
    if (!p || refusal) {
      record.skipped(target.label, refusal!.code, refusal!.message);
      failure ??= refusal;
      continue;
    }
    const model = p.adapter.normaliseModelId(target.model);
    const started = performance.now();
    try {
      const n = await services.countTokens(p, model, { hub: hubFor(p.adapter.dialect === 'responses'), raw: body, from: 'responses', headers: req.headers }, x.abort.signal);
      record.attempt({ target: target.label, status: 200, latencyMs: Math.round(performance.now() - started) });
      sendJson(x.res, 200, JSON.stringify({ object: 'response.input_tokens', input_tokens: n }), answeredByHeaders(p.slug, model));
      record.firstByte();
      record.answeredBy(p.slug, model);
      record.finish(x.deps.log, 200);
      return;
    } catch (err) {
      if (x.abort.aborted) throw new ClientGone();
      failure = asCountError(err, p.slug, p.credential);
      record.attempt({ target: target.label, status: failure.status, latencyMs: Math.round(performance.now() - started), errorCode: failure.code });
      // a count the request itself spoiled (a 400) would fail on the next target too
      if (!shouldFallback({ upstreamStatus: failure.status, contextLength: failure.code === 'context_length_exceeded' })) break;
    }
  }
  throw failure!;
}
