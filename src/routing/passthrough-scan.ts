/**
 * What a passthrough stream is scanned for, to remember for the client's next turn: only upstreams
 * that put thought signatures on tool calls for them, OpenRouter for its signed reasoning_details,
 * and custom Messages endpoints for their thinking signatures (who issued each); nothing otherwise.
 */
import type { Dialect } from '../protocols/hub.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { Exchange } from './exchange.js';
import { remembersSignatures } from './proof-issuers.js';
import { reasoningDetailsScan } from './reasoning-details-scan.js';
import { thinkingSignatureScan, thoughtSignatureScan, type SignatureScan } from './stream-tap.js';

export function passthroughScan(x: Pick<Exchange, 'cache' | 'issuers'>, dialect: Dialect, p: ResolvedProvider, upstreamModel: string): SignatureScan | undefined {
  const { cache, issuers } = x;
  const slug = p.slug;
  if (dialect === 'chat' && p.adapter.encodeOptions(upstreamModel).thoughtSignatures === true) {
    return thoughtSignatureScan((callId, signature) => cache.set(callId, { slug, thoughtSignature: signature }));
  }
  if (dialect === 'chat' && p.adapter.kind === 'openrouter') {
    return reasoningDetailsScan((callIds, reasoningDetails) => {
      for (const callId of callIds) cache.set(callId, { slug, reasoningDetails });
    });
  }
  if (remembersSignatures(p.adapter)) return thinkingSignatureScan((signature) => issuers.record(signature, slug));
  return undefined;
}
