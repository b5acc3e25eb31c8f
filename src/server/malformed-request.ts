/**
 * A request node's HTTP parser refuses for its form (a header name with a space, a control
 * character in a value, two Content-Lengths): answered as parser-refusal.ts says, a 400 with this
 * code. The parser's own reason ("Invalid header value char") says which rule it broke; the
 * client's bytes are not repeated (they may hold its key).
 */
export const MALFORMED_REQUEST = 'malformed_request';

export function malformedRequestMessage(reason: string | undefined): string {
  const why = reason ? ` (${reason.slice(0, 100)})` : '';
  return `The request is not valid HTTP${why}, so svc-proxy cannot read it. A tool configured to send custom headers (ANTHROPIC_CUSTOM_HEADERS, defaultHeaders) should send names without spaces and values without control characters.`;
}
