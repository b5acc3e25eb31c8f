/** The error a model of a provider whose list failed is answered with (list-failures.ts). */
import { describe, expect, it } from 'vitest';
import { listFailureError } from '../../src/routing/list-failures.js';

const failure = (reason: string) => ({ provider: 'gw', reason, status: 502, code: 'upstream_unreachable', upstreamStatus: 0, latencyMs: 3 });

describe('listFailureError', () => {
  it('keeps the status and code, names the provider first, and masks its credential wherever the reason holds it', () => {
    const key = 'gw-secret-credential-77_Qx';
    const err = listFailureError(failure(`Could not connect to https://${key}.example (ENOTFOUND)`), 'gw/m', key);
    expect(err).toMatchObject({ status: 502, code: 'upstream_unreachable', param: 'model' });
    expect(err.message).toBe('gw: "gw/m" cannot be looked up, its model list could not be fetched: Could not connect to https://[REDACTED].example (ENOTFOUND).');
  });

  it('ends a reason without a full stop with one, and leaves a question as it is', () => {
    expect(listFailureError(failure('the provider answered 500'), 'gw/m', undefined).message).toMatch(/answered 500\.$/);
    expect(listFailureError(failure('Is the server running on http://127.0.0.1:9?'), 'gw/m', undefined).message).toMatch(/:9\?$/);
  });
});
