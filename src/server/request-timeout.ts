/**
 * A request that did not arrive in full within node's limits (`server.headersTimeout`, 60 s for its
 * headers; `server.requestTimeout`, 300 s for all of it): node gives up on it as its parser refuses
 * one, and it is answered as parser-refusal.ts says, a 408 with this code (the official SDKs retry
 * a 408, as they do not a 400).
 */
export const REQUEST_TIMEOUT = 'request_timeout';

export function requestTimeoutMessage(headersMs: number, requestMs: number): string {
  return `The request did not reach svc-proxy in full in time (its headers within ${Math.round(headersMs / 1000)} s, all of it within ${Math.round(requestMs / 1000)} s), so it was not read. Retry it.`;
}
