import { describe, expect, it } from 'vitest';
import { duplicateKeys } from '../../src/config/duplicate-keys.js';

describe('duplicateKeys', () => {
  it('names a key repeated in a nested object by its path', () => {
    expect(duplicateKeys('{"version":2,"settings":{"logBodies":false,"logBodies":true}}')).toEqual(['settings.logBodies']);
  });

  it('names repeats inside arrays with the index, and at the top level', () => {
    const json = '{"a":1,"groups":[{"name":"x"},{"name":"y","name":"z"}],"a":2}';
    expect(duplicateKeys(json)).toEqual(['groups[1].name', 'a']);
  });

  it('does not count the same key in sibling objects, nor keys inside strings with escapes', () => {
    const json = '{"p":{"k":1},"q":{"k":"a \\" ,\\"k\\": {"},"r":["k","k"],"\\u006b":1,"k":2}';
    expect(duplicateKeys(json)).toEqual(['k']);
  });
});
