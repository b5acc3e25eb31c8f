/**
 * The Anthropic Messages dialect: protocol B clients, and Messages-speaking upstreams
 * (anthropic, custom endpoints of format b).
 */
import type { DialectCodec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { createStreamDecoder } from './stream-decode.js';
import { createStreamEncoder } from './stream-encode.js';

export const messagesCodec: DialectCodec = {
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  createStreamDecoder,
  createStreamEncoder,
};

export { PLACEHOLDER_TOOL_NAME } from './tools-encode.js';
export { restoreNativeThinking, rewriteAssistantBlocks } from './passthrough-reasoning.js';
