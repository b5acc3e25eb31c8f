/** URLs of Chat-speaking upstreams: the base is what `/chat/completions` and `/models` are appended to. */
import { isRootUrl, joinUrl, trimBase } from './base-url.js';
import type { UpstreamOperation } from './types.js';

export function normaliseChatBase(url: string): string {
  return trimBase(url);
}

/** Local servers: a bare root (`http://127.0.0.1:11434`) means its OpenAI-compatible `/v1`. */
export function normaliseLocalBase(url: string): string {
  const base = trimBase(url);
  return isRootUrl(base) ? joinUrl(base, '/v1') : base;
}

export function chatUrl(baseUrl: string, op: UpstreamOperation): string {
  const base = trimBase(baseUrl);
  switch (op) {
    case 'generate':
      return joinUrl(base, '/chat/completions');
    case 'models':
      return joinUrl(base, '/models');
    case 'transcriptions':
      return joinUrl(base, '/audio/transcriptions');
    case 'count_tokens':
      throw new Error('Chat upstreams have no token counting endpoint (count locally)');
  }
}
