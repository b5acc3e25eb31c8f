import { describe, expect, it } from 'vitest';
import { copyMembers, setMember } from '../../src/protocols/own-members.js';

describe('copyMembers / setMember', () => {
  it('copies every own member in order, "__proto__" as a member, and leaves the prototype alone', () => {
    const source = JSON.parse('{"a":1,"__proto__":{"polluted":true},"b":[2]}') as Record<string, unknown>;
    const copy = copyMembers(source);
    expect(copy).not.toBe(source);
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype);
    expect((copy as { polluted?: boolean }).polluted).toBeUndefined();
    expect(JSON.stringify(copy)).toBe('{"a":1,"__proto__":{"polluted":true},"b":[2]}');
    expect(copy.b).toBe(source.b);
  });

  it('setMember defines "__proto__" as a member and assigns any other key', () => {
    const obj: Record<string, unknown> = {};
    setMember(obj, '__proto__', { x: 1 });
    setMember(obj, 'k', 2);
    expect(Object.getPrototypeOf(obj)).toBe(Object.prototype);
    expect(JSON.stringify(obj)).toBe('{"__proto__":{"x":1},"k":2}');
  });
});
