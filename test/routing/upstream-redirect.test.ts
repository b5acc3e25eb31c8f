/**
 * An upstream that answers a generation or a count with a redirect (a gateway sending to its
 * sign-in page, a base URL that moved): svc-proxy follows none, and a 3xx means nothing to an SDK
 * client. Whatever its body (JSON in an error's shape or not, HTML, none) and whether the request
 * streamed, the client gets a 502 `upstream_redirect` naming the provider and where it pointed —
 * that URL's origin only, never its credentials or query.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { describe, expect, it } from 'vitest';
import type { Reply } from '../fixtures/mock-upstream/index.js';
import { useHarness } from './harness.js';

const t = useHarness();
const LOCATION = 'https://sso-user:sso-pass@login.corp.example/sso?token=t0ken-abc';

const replies: Array<[string, Extract<Reply, { kind: 'json' | 'raw' }>]> = [
  ['302, Location, a JSON error', { kind: 'json', status: 302, body: { error: { message: 'Moved', type: 'redirect' } }, headers: { location: LOCATION } }],
  ['301, Location, JSON that is no error', { kind: 'json', status: 301, body: { moved_to: 'elsewhere' }, headers: { location: LOCATION } }],
  ['307, no Location, a JSON error', { kind: 'json', status: 307, body: { type: 'error', error: { type: 'api_error', message: 'go elsewhere' } } }],
  ['302, Location, an HTML page', { kind: 'raw', status: 302, contentType: 'text/html', body: '<html><title>Sign in</title></html>', headers: { location: LOCATION } }],
  ['308, relative Location, no body', { kind: 'raw', status: 308, body: '', headers: { location: '/v2/messages' } }],
];

function expectRedirectError(err: unknown, slug: string, withLocation: boolean): void {
  expect(err).toMatchObject({ status: 502 });
  const text = JSON.stringify((err as { error?: unknown }).error);
  expect(text).toContain('upstream_redirect');
  const message = (err as Error).message;
  expect(message).toContain(`${slug}: `);
  expect(message).toMatch(/redirect \(HTTP 30\d/);
  if (withLocation) expect(message).toContain('to https://login.corp.example');
  // nor its headers: the redirect's Location is read (exposedHeaders), never passed on
  const headers = JSON.stringify(Object.fromEntries((err as { headers: Headers }).headers));
  expect(headers).toContain('content-type');
  for (const secret of ['sso-pass', 'sso-user', 't0ken-abc', '/sso']) {
    expect(message).not.toContain(secret);
    expect(headers).not.toContain(secret);
  }
}

describe('an upstream 3xx reaches the client as a 502 upstream_redirect naming the provider', () => {
  it.each(replies)('%s: Messages passthrough, whole and streamed', async (_name, reply) => {
    const withLocation = 'headers' in reply && reply.headers?.location === LOCATION;
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    for (const stream of [false, true]) {
      t.h.reset();
      t.h.mocks.anthropic.next(reply);
      const err = await (async () => {
        if (!stream) return client.messages.create({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] });
        for await (const _ of client.messages.stream({ model: 'anthropic/claude-sonnet-4-5', max_tokens: 50, messages: [{ role: 'user', content: 'hi' }] })) void _;
        return undefined;
      })().catch((e: unknown) => e);
      expect(err, `stream ${stream}`).toBeInstanceOf(Anthropic.APIError);
      expectRedirectError(err, 'anthropic', withLocation);
      const [log] = await t.h.waitForLogs(1);
      expect(log).toMatchObject({ status: 502, errorCode: 'upstream_redirect' });
      expect(log!.attempts.map((a) => [a.status, a.errorCode])).toEqual([[Number(reply.status), 'upstream_redirect']]);
    }
  });

  it.each(replies)('%s: a Chat client converted to Responses, whole and streamed', async (_name, reply) => {
    const withLocation = 'headers' in reply && reply.headers?.location === LOCATION;
    const client = new OpenAI({ baseURL: t.h.a, apiKey: 'k', maxRetries: 0 });
    for (const stream of [false, true]) {
      t.h.reset();
      t.h.mocks.openai.next(reply);
      const err = await (async () => {
        if (!stream) return client.chat.completions.create({ model: 'openai/gpt-5.4', messages: [{ role: 'user', content: 'hi' }] });
        for await (const _ of await client.chat.completions.create({ model: 'openai/gpt-5.4', stream: true, messages: [{ role: 'user', content: 'hi' }] })) void _;
        return undefined;
      })().catch((e: unknown) => e);
      expect(err, `stream ${stream}`).toBeInstanceOf(OpenAI.APIError);
      expect(err).toMatchObject({ code: 'upstream_redirect' });
      expectRedirectError(err, 'openai', withLocation);
    }
  });

  it('count_tokens too', async () => {
    t.h.reset();
    t.h.mocks.anthropic.on(/count_tokens/, replies[0]![1]);
    const client = new Anthropic({ baseURL: t.h.b, apiKey: 'k', maxRetries: 0 });
    const err = await client.messages.countTokens({ model: 'anthropic/claude-sonnet-4-5', messages: [{ role: 'user', content: 'hi' }] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Anthropic.APIError);
    expectRedirectError(err, 'anthropic', true);
  });
});
