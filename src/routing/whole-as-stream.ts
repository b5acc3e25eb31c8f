/**
 * A whole answer sent as the stream the client asked for: the events its dialect's stream would
 * have carried, rendered by the client's stream encoder (which also keeps a Responses answer), in
 * one write. A stream the client was kept waiting on (early headers) goes on from there.
 */
import type { StreamEncoder } from '../protocols/codec.js';
import type { HubResponse } from '../protocols/hub.js';
import { responseEvents } from '../protocols/response-events.js';
import type { ResolvedProvider } from '../providers/types.js';
import type { Answered } from './answer-read.js';
import { takeOverEarlyStream } from './early-stream.js';
import { maskEchoedText } from './echoed-secrets.js';
import type { Exchange } from './exchange.js';
import { streamSecret } from './redact.js';
import { answerHeaders } from './respond.js';
import { SSE_HEADERS } from './stream-errors.js';
import { fromHubUsage } from './usage.js';

export function sendWholeAsStream(x: Exchange, encoder: StreamEncoder, p: ResolvedProvider, answered: string, hubRes: HubResponse, up: Answered): void {
  const { res, record } = x;
  let text = '';
  for (const event of responseEvents(hubRes)) text += encoder.encode(event);
  const openedEarly = takeOverEarlyStream(res);
  // answered already (a 503 at the drain deadline): nothing more may be written
  if (!res.headersSent || openedEarly) {
    if (!openedEarly) {
      res.writeHead(200, { ...SSE_HEADERS, ...answerHeaders(p.slug, answered, up.headers) });
    }
    if (!res.destroyed && !res.writableEnded) res.end(maskEchoedText(text, streamSecret(p.credential)));
  }
  record.firstByte();
  record.answeredBy(p.slug, answered);
  if (hubRes.usage) record.usage(fromHubUsage(hubRes.usage));
  record.finish(x.deps.log, 200);
}
