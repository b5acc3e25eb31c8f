/**
 * POST protocol-a/v1/responses/input_tokens (the OpenAI SDK's `responses.inputTokens.count`) →
 * `{"object":"response.input_tokens","input_tokens":N}` for any model: the body is read as a
 * Responses request — a previous_response_id or item_reference svc-proxy keeps becomes the
 * conversation it names, as for generation (kept-turn.ts) — the model resolved like one (groups:
 * the first target that can count it), and the provider module counts (count-tokens.ts). A target
 * that could not take the request (an id only OpenAI keeps, a conversation, hosted tools) is
 * skipped as policy.ts says.
 */
import { countedHub, countOverTargets } from './count-over-targets.js';
import { countTimeouts } from './count-timeouts.js';
import type { Exchange } from './exchange.js';
import { KeptTurn } from './kept-turn.js';
import { checkStatefulResponses, policyRefusal, readFeatures } from './policy.js';
import { checkDeclaredLength, checkJsonContentType, parseJsonRequest, readBody } from './request-body.js';

export async function handleInputTokens(x: Exchange): Promise<void> {
  const { req, config, record, services } = x;
  const limit = config.settings.bodyLimitBytes;
  checkDeclaredLength(req, limit);
  checkJsonContentType(req);
  const raw = await readBody(req, limit, x);
  let parsed = parseJsonRequest(raw);
  record.entry.modelAsked = parsed.model;
  checkStatefulResponses(parsed.body);
  // counted as it would be sent: the kept conversation in front of the input (nothing is kept)
  const resolved = new KeptTurn(x.responses, record.entry.keyId ?? '').resolve(parsed.body, raw);
  if (resolved) parsed = parseJsonRequest(resolved);
  const body = parsed.body;
  const features = readFeatures(body, 'responses');
  const codec = services.codecs.responses;
  const hubFor = countedHub(codec, codec.decodeRequest(body), parsed.fresh);
  const limits = countTimeouts(x.config);
  await countOverTargets(x, {
    model: parsed.model,
    refusal: (p) => policyRefusal(features, p.adapter, p.slug, 'responses'),
    count: (p, model) =>
      services.countTokens(p, model, { hub: hubFor(p.adapter.dialect === 'responses'), raw: body, from: 'responses', headers: req.headers, timeouts: limits }, x.abort.signal),
    answer: (n) => JSON.stringify({ object: 'response.input_tokens', input_tokens: n }),
  });
}
