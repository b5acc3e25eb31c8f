import { describe, expect, it } from 'vitest';
import { answerLine, fieldLine, fieldUnderList } from '../../src/tui/field-line.js';

const LABEL = ['Name (used as provider in model ids):', 'Name:'] as const;

describe('a field line', () => {
  it('keeps a third of the line (up to 12 cells) for what is typed', () => {
    expect(fieldLine(LABEL, 'corp', 48, 1)).toEqual({ label: 'Name:', value: 'corp' });
    expect(fieldLine(LABEL, 'corp', 60, 1)).toEqual({ label: LABEL[0], value: 'corp' });
  });
});

describe('an answer given', () => {
  it('takes the full label where it fits beside the whole answer', () => {
    expect(answerLine(LABEL, 'corp', 48)).toEqual({ label: LABEL[0], value: 'corp' });
    expect(answerLine(LABEL, 'corp', 42)).toEqual({ label: LABEL[0], value: 'corp' });
  });

  it('a shorter one where it does not', () => {
    expect(answerLine(LABEL, 'corp', 41)).toEqual({ label: 'Name:', value: 'corp' });
  });

  it('where no wording fits beside it whole, the answer gives up its start, the label a wording that leaves it room', () => {
    const url = 'https://gateway.example.com/openai/v1';
    expect(answerLine(LABEL, url, 30)).toEqual({ label: 'Name:', value: '…y.example.com/openai/v1' });
    expect(answerLine('Base URL:', url, 20)).toEqual({ label: 'Base URL:', value: '…openai/v1' });
  });
});

describe('a field under a list', () => {
  it('where the heading, the list header and a row leave it what it needs, has the rest up to its hint and reason', () => {
    expect(fieldUnderList(20, 0)).toEqual({ rows: 3, list: true, heading: true });
    expect(fieldUnderList(20, 2)).toEqual({ rows: 5, list: true, heading: true });
    expect(fieldUnderList(6, 2)).toEqual({ rows: 3, list: true, heading: true });
  });

  it('in fewer rows takes the list’s, then the heading’s, so its line, a line of the reason and the way out stay', () => {
    expect(fieldUnderList(5, 2)).toEqual({ rows: 4, list: false, heading: true });
    expect(fieldUnderList(4, 0)).toEqual({ rows: 3, list: false, heading: true });
    expect(fieldUnderList(3, 2)).toEqual({ rows: 3, list: false, heading: false });
  });

  it('over which only the heading and a row stay (no table header) keeps them a row longer', () => {
    expect(fieldUnderList(5, 1, 2)).toEqual({ rows: 3, list: true, heading: true });
    expect(fieldUnderList(4, 1, 2)).toEqual({ rows: 3, list: false, heading: true });
    expect(fieldUnderList(4, 0, 2)).toEqual({ rows: 2, list: true, heading: true });
  });
});
