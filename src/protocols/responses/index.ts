/**
 * The OpenAI Responses dialect: client requests in, OpenAI upstream requests out, and answers
 * (whole or streamed) both ways.
 */
import type { DialectCodec } from '../codec.js';
import { decodeRequest } from './request-decode.js';
import { encodeRequest } from './request-encode.js';
import { decodeResponse } from './response-decode.js';
import { encodeResponse } from './response-encode.js';
import { createStreamDecoder } from './stream-decode.js';
import { createStreamEncoder } from './stream-encode.js';

export const responsesCodec: DialectCodec = {
  decodeRequest,
  encodeRequest,
  decodeResponse,
  encodeResponse,
  createStreamDecoder,
  createStreamEncoder,
};

export { restoreNativeReasoning } from './passthrough-reasoning.js';
