/**
 * What a passthrough stream is scanned for, to remember for the client's next turn: only upstreams
 * that put thought signatures on tool calls for them, OpenRouter for its signed reasoning_details,
 * and custom Messages endpoints for their thinking signatures (who issued each); nothing otherwise.
 * A Chat answer's proof is kept under the id each call has in the hub next turn (`taken`:
 * chat-call-ids.ts), as rememberChatAnswer keeps a whole answer's.
 */
import type { Dialect } from '../protocols/hub.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { Exchange } from './exchange.js';
import { remembersSignatures } from './proof-issuers.js';
import { reasoningDetailsScan } from './reasoning-details-scan.js';
import { answerCallIds } from '../protocols/call-id-reuse.js';
import { thinkingSignatureScan, thoughtSignatureScan, type SignatureScan } from './stream-tap.js';

export function passthroughScan(
  x: Pick<Exchange, 'cache' | 'issuers'>,
  dialect: Dialect,
  p: ResolvedProvider,
  upstreamModel: string,
  taken?: (id: string) => boolean,
): SignatureScan | undefined {
  const { cache, issuers } = x;
  const slug = p.slug;
  if (dialect === 'chat' && p.adapter.encodeOptions(upstreamModel).thoughtSignatures === true) {
    const hubId = answerCallNames(taken);
    return thoughtSignatureScan((callId, signature) => cache.set(hubId(callId), { slug, thoughtSignature: signature }));
  }
  if (dialect === 'chat' && p.adapter.kind === 'openrouter') {
    return reasoningDetailsScan((callIds, reasoningDetails) => {
      const hubId = answerCallNames(taken);
      for (const callId of callIds) cache.set(hubId(callId), { slug, reasoningDetails });
    });
  }
  if (remembersSignatures(p.adapter)) return thinkingSignatureScan((signature) => issuers.record(signature, slug));
  return undefined;
}

/**
 * The hub ids of a streamed answer's calls (answerCallIds), made at the first call with proof. A
 * call seen more than once (a stream may repeat its id on later deltas) keeps the one name: ids
 * are unique within a turn, so a repeat here is the same call, not a new one.
 */
function answerCallNames(taken: ((id: string) => boolean) | undefined): (id: string) => string {
  let hubId: ((id: string) => string) | undefined;
  const named = new Map<string, string>();
  return (id) => {
    let name = named.get(id);
    if (name === undefined) named.set(id, (name = (hubId ??= answerCallIds(taken))(id)));
    return name;
  };
}
