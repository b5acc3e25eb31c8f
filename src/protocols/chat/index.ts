/** The Chat Completions dialect: client requests in, answers out, and Chat-speaking upstreams. */
import type { DialectCodec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { ChatStreamDecoder } from './stream-decode.js';
import { ChatStreamEncoder } from './stream-encode.js';

export const chatCodec: DialectCodec = {
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  createStreamDecoder: (opts) => new ChatStreamDecoder(opts),
  createStreamEncoder: (ctx) => new ChatStreamEncoder(ctx),
};

export { wantsStreamUsage, wantsLegacyFunctionCall, parseEffort } from './request-decode.js';
export { TOOL_ERROR_PREFIX } from '../tool-error.js';
