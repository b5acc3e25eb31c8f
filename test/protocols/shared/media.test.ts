/** The media module every codec shares, and that the three decoders read the same bytes the same way. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { chatCodec } from '../../../src/protocols/chat/index.js';
import type { ContentPart, MessageItem } from '../../../src/protocols/hub.js';
import {
  extensionFor,
  fileMediaType,
  imageMediaType,
  isBase64,
  isDataUrl,
  isHttpUrl,
  mediaTypeOfName,
  parseDataUrl,
  sniffMediaType,
  toDataUrl,
} from '../../../src/protocols/media.js';
import { messagesCodec } from '../../../src/protocols/messages/index.js';
import { responsesCodec } from '../../../src/protocols/responses/index.js';

const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==';
const JPEG = '/9j/4AAQSkZJRgABAQAAAQABAAD/2wBDAAEBAQ==';
const GIF = 'R0lGODlhAQABAAAAACw=';
const WEBP = 'UklGRhIAAABXRUJQVlA4';
const WAV = 'UklGRiQAAABXQVZF';
const PDF = 'JVBERi0xLjQK';

describe('parseDataUrl', () => {
  it.each([
    ['data:image/png;base64,' + PNG, { mediaType: 'image/png', data: PNG }],
    ['DATA:Image/PNG;BASE64,' + PNG, { mediaType: 'image/png', data: PNG }],
    ['data:application/pdf;name=a.pdf;base64,' + PDF, { mediaType: 'application/pdf', data: PDF }],
    ['data:;base64,' + PNG, { mediaType: '', data: PNG }],
    ['data:image/png;base64, ' + PNG + ' ', { mediaType: 'image/png', data: PNG }],
    ['data:image/png;base64,ab-_', { mediaType: 'image/png', data: 'ab-_' }],
  ])('%s', (url, expected) => {
    expect(parseDataUrl(url)).toEqual(expected);
  });

  it.each([
    ['not a data URL', 'https://example.com/a.png'],
    ['no base64 parameter', 'data:image/png,abc'],
    ['no comma', 'data:image/png;base64'],
    ['empty payload', 'data:image/png;base64,'],
    ['payload not base64', 'data:image/png;base64,<script>'],
    ['media type without a slash', 'data:png;base64,' + PNG],
    ['padding in the middle', 'data:image/png;base64,ab=c'],
  ])('%s → undefined', (_why, url) => {
    expect(parseDataUrl(url)).toBeUndefined();
  });

  it('reads back what toDataUrl writes', () => {
    const mediaType = fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'text/plain', 'audio/wav');
    fc.assert(
      fc.property(mediaType, fc.uint8Array({ minLength: 1, maxLength: 64 }), (type, bytes) => {
        const data = Buffer.from(bytes).toString('base64');
        expect(isBase64(data)).toBe(true);
        expect(parseDataUrl(toDataUrl(type, data))).toEqual({ mediaType: type, data });
      }),
    );
  });
});

describe('small predicates', () => {
  it('isDataUrl claims anything starting with data:, any case', () => {
    expect(isDataUrl('data:')).toBe(true);
    expect(isDataUrl('Data:x')).toBe(true);
    expect(isDataUrl('dat')).toBe(false);
  });

  it('isHttpUrl takes absolute http(s) URLs without whitespace only', () => {
    expect(isHttpUrl('https://example.com/a.png')).toBe(true);
    expect(isHttpUrl('HTTP://example.com')).toBe(true);
    expect(isHttpUrl('ftp://example.com/a.png')).toBe(false);
    expect(isHttpUrl('https://example.com/a b.png')).toBe(false);
    expect(isHttpUrl('https://')).toBe(false);
  });

  it('isBase64 takes standard and URL-safe alphabets with trailing padding only', () => {
    expect(isBase64('QUJD')).toBe(true);
    expect(isBase64('QU-_')).toBe(true);
    expect(isBase64('QQ==')).toBe(true);
    expect(isBase64('Q=Q=')).toBe(false);
    expect(isBase64('')).toBe(false);
    expect(isBase64('@@')).toBe(false);
  });
});

describe('what a file holds', () => {
  it('by name: known extensions, any case, last dot wins', () => {
    expect(mediaTypeOfName('report.PDF')).toBe('application/pdf');
    expect(mediaTypeOfName('photo.final.jpg')).toBe('image/jpeg');
    expect(mediaTypeOfName('notes.txt')).toBe('text/plain');
    expect(mediaTypeOfName('archive.zip')).toBeUndefined();
    expect(mediaTypeOfName('README')).toBeUndefined();
    expect(mediaTypeOfName(undefined)).toBeUndefined();
  });

  it('by bytes: the formats clients inline, and nothing for others (a WAV is not a WebP)', () => {
    expect(sniffMediaType(PNG)).toBe('image/png');
    expect(sniffMediaType(JPEG)).toBe('image/jpeg');
    expect(sniffMediaType(GIF)).toBe('image/gif');
    expect(sniffMediaType(WEBP)).toBe('image/webp');
    expect(sniffMediaType(PDF)).toBe('application/pdf');
    expect(sniffMediaType(WAV)).toBeUndefined();
    expect(sniffMediaType('QUJD')).toBeUndefined();
  });

  it('unlabelled data: name first, then bytes, then the usual default', () => {
    expect(fileMediaType('a.txt', PDF)).toBe('text/plain');
    expect(fileMediaType(undefined, PNG)).toBe('image/png');
    expect(fileMediaType('blob', 'QUJD')).toBe('application/pdf');
    expect(imageMediaType(GIF)).toBe('image/gif');
    expect(imageMediaType('QUJD')).toBe('image/png');
  });

  it('extension for a media type: the table first (text/plain → txt), else the subtype made safe', () => {
    expect(extensionFor('text/plain')).toBe('txt');
    expect(extensionFor('image/jpeg')).toBe('jpg');
    expect(extensionFor('Application/PDF')).toBe('pdf');
    expect(extensionFor('application/vnd.ms-excel')).toBe('vndmsexcel');
    expect(extensionFor('application/ld+json')).toBe('ld');
    expect(extensionFor('weird')).toBe('bin');
  });
});

describe('the three decoders read the same inline image the same way', () => {
  const firstPart = (items: unknown[]): ContentPart => (items.find((i) => (i as MessageItem).type === 'message') as MessageItem).content[0]!;
  const viaChat = (url: string) => firstPart(chatCodec.decodeRequest({ model: 'a/b', messages: [{ role: 'user', content: [{ type: 'image_url', image_url: { url } }] }] }).items);
  const viaResponses = (url: string) => firstPart(responsesCodec.decodeRequest({ model: 'a/b', input: [{ role: 'user', content: [{ type: 'input_image', image_url: url, detail: 'auto' }] }] }).items);
  const viaMessages = (url: string) => firstPart(messagesCodec.decodeRequest({ model: 'a/b', max_tokens: 10, messages: [{ role: 'user', content: [{ type: 'image', source: { type: 'url', url } }] }] }).items);

  it.each([
    ['labelled', 'data:image/jpeg;base64,' + JPEG, { kind: 'base64', mediaType: 'image/jpeg', data: JPEG }],
    ['unlabelled (type from the bytes)', 'data:;base64,' + GIF, { kind: 'base64', mediaType: 'image/gif', data: GIF }],
    ['an http URL', 'https://example.com/a.png', { kind: 'url', url: 'https://example.com/a.png' }],
  ])('%s', (_name, url, source) => {
    for (const decode of [viaChat, viaResponses, viaMessages]) expect(decode(url)).toMatchObject({ type: 'image', source });
  });

  it('a broken data URL is a 400 invalid_image in every dialect', () => {
    for (const decode of [viaChat, viaResponses, viaMessages]) {
      expect(() => decode('data:image/png;base64,@@@')).toThrow(expect.objectContaining({ status: 400, code: 'invalid_image' }));
    }
  });
});
