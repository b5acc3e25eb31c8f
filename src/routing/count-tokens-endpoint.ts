/**
 * POST protocol-b …/messages/count_tokens → `{"input_tokens": N}`. The body is decoded with the
 * Messages codec, the model resolved like a Messages request (groups: first target that can
 * count), and the provider module counts (upstream count endpoints or a local tokenizer). A
 * failure is an error in protocol B's shape; it never counts against a provider.
 */
import { countedHub, countOverTargets } from './count-over-targets.js';
import { countTimeouts } from './count-timeouts.js';
import type { Exchange } from './exchange.js';
import { needsNativeProof, restoreNativeProof } from './passthrough-envelopes.js';
import { dropForeignThinking } from './proof-issuers.js';
import { dropUnprovenManualThinking, dropUnprovenThinking } from './reasoning-continuity.js';
import { checkDeclaredLength, checkJsonContentType, parseJsonRequest, readBody } from './request-body.js';
import { rewrittenOnRefusal } from './tool-use-id-rewrites.js';
import { CountRefused } from '../providers/count-tokens.js';

export async function handleCountTokens(x: Exchange): Promise<void> {
  const { req, config, record, services } = x;
  const limit = config.settings.bodyLimitBytes;
  checkDeclaredLength(req, limit);
  checkJsonContentType(req);
  const raw = await readBody(req, limit, x);
  const parsed = parseJsonRequest(raw);
  record.entry.modelAsked = parsed.model;
  const codec = services.codecs.messages;
  // Targets with a 64-char tool-name limit count the names they would really receive.
  const hubFor = countedHub(codec, codec.decodeRequest(parsed.body), parsed.fresh);

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

  const limits = countTimeouts(x.config);
  await countOverTargets(x, {
    model: parsed.model,
    count: async (p, model, retrying) => {
      const ask = (raw: Record<string, unknown>): Promise<number> =>
        services.countTokens(
          p,
          model,
          // the list's controls, as a generation's: thinking the model refuses is fitted, not sent (a 400)
          { hub: hubFor(p.adapter.dialect === 'messages'), raw, from: 'messages', headers: req.headers, stated: services.statedControls?.(p.slug, model), timeouts: limits },
          x.abort.signal,
        );
      const raw = rawFor(p.slug);
      try {
        return await ask(raw);
      } catch (err) {
        // tool_use ids Anthropic refuses (a session begun on Kimi) go once more as a generation's retry sends them
        const again = p.adapter.dialect === 'messages' && err instanceof CountRefused ? rewrittenOnRefusal(err.body, raw) : undefined;
        if (!again) throw err;
        retrying(err);
        return await ask(again);
      }
    },
    answer: (n) => JSON.stringify({ input_tokens: n }),
  });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function thinkingOn(body: Record<string, unknown>): boolean {
  const t = body.thinking;
  return isObject(t) && (t.type === 'enabled' || t.type === 'adaptive');
}
