/**
 * A logged body passes two redactors: the request path's (routing/redact.ts redactForLog, which
 * drops media by size) and the log's at its flush (log/redact-body.ts redactBody). A log reader
 * must see each inline payload in one form, with the size of the payload it stands for, whichever
 * of the two dropped it.
 */
import { describe, expect, it } from 'vitest';
import { redactBody } from '../../src/log/redact-body.js';
import { redactForLog } from '../../src/routing/redact.js';
import { PNG, inlineMediaBody } from './inline-media.js';

const LONG = PNG.repeat(3);
const body = inlineMediaBody(LONG);
const expected = inlineMediaBody(`[media redacted, ${LONG.length} chars]`);

describe('the media placeholder of a logged body', () => {
  it('is one form, the payload size kept, from the flush redactor alone', () => {
    expect(redactBody(body)).toEqual(expected);
  });

  it('is the same form from the request path redactor alone', () => {
    expect(redactForLog(body, undefined)).toEqual(expected);
  });

  it('is unchanged when the flush redactor meets what the request path left', () => {
    expect(redactBody(redactForLog(body, 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz'))).toEqual(expected);
  });

  it('keeps the data URL header and masks a credential in it on the request path', () => {
    const key = 'sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz';
    const url = `data:text/plain;note=${key},${'x'.repeat(100)}`;
    expect(redactForLog({ url }, key)).toEqual({ url: 'data:text/plain;note=[REDACTED],[media redacted, 100 chars]' });
  });
});
