/**
 * A request whose headers are over node's limit (`http.maxHeaderSize`, 16 KB by default): node's
 * parser stops, and it is answered as parser-refusal.ts says, a 431 with this code.
 */
import { maxHeaderSize } from 'node:http';

export const HEADERS_TOO_LARGE = 'request_headers_too_large';

export function headersTooLargeMessage(): string {
  return `The request's headers are larger than svc-proxy takes (${Math.round(maxHeaderSize / 1024)} KB in all). A tool configured to send large custom headers (ANTHROPIC_CUSTOM_HEADERS, a long cookie) should send smaller ones.`;
}
