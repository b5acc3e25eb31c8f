import type { RequestLogEntry } from '../../src/log/entry.js';

let n = 0;

/** A plausible log entry; override any field. */
export function makeEntry(over: Partial<RequestLogEntry> = {}): RequestLogEntry {
  n++;
  return {
    id: `req_${n.toString().padStart(6, '0')}`,
    time: new Date().toISOString(),
    keyId: 'key_1',
    keyName: 'laptop',
    base: 'provider',
    endpoint: 'chat',
    dialect: 'chat',
    modelAsked: 'openai/gpt-5',
    attempts: [{ target: 'openai/gpt-5', status: 200, latencyMs: 120 }],
    provider: 'openai',
    model: 'gpt-5',
    status: 200,
    latencyMs: 123,
    streamed: false,
    fallback: false,
    usage: { input: 10, output: 5 },
    ...over,
  };
}
