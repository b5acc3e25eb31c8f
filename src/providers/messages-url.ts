/** URLs of Messages-speaking upstreams: the base is what `/v1/messages` is appended to (a trailing `/v1` is tolerated). */
import { joinUrl, stripTrailingV1, trimBase } from './base-url.js';
import type { UpstreamOperation } from './types.js';

export function normaliseMessagesBase(url: string): string {
  return stripTrailingV1(trimBase(url));
}

export function messagesUrl(baseUrl: string, op: UpstreamOperation): string {
  const base = normaliseMessagesBase(baseUrl);
  switch (op) {
    case 'generate':
      return joinUrl(base, '/v1/messages');
    case 'count_tokens':
      return joinUrl(base, '/v1/messages/count_tokens');
    case 'models':
      return joinUrl(base, '/v1/models');
    case 'transcriptions':
      throw new Error('Messages upstreams have no transcriptions endpoint');
  }
}
