/**
 * Keys that appear twice in one object of a hand-written config.json. JSON.parse keeps the last
 * one without a word, so `{"logBodies":false,"logBodies":true}` quietly means true. Only the text
 * of a hand edit is scanned (reload, config check), never the daemon's own writes.
 */

type Frame = { kind: 'object'; path: string; keys: Set<string>; key: string | undefined; expectKey: boolean } | { kind: 'array'; path: string; index: number };

/** Paths (`settings.logBodies`, `groups[0].name`) of keys repeated in `json`, which must be valid JSON. */
export function duplicateKeys(json: string): string[] {
  const found: string[] = [];
  const stack: Frame[] = [];
  const childPath = (): string => {
    const top = stack.at(-1);
    if (!top) return '';
    if (top.kind === 'array') return `${top.path}[${top.index}]`;
    return top.path ? `${top.path}.${top.key ?? ''}` : (top.key ?? '');
  };
  for (let i = 0; i < json.length; i++) {
    const c = json[i];
    if (c === '"') {
      let end = i + 1;
      while (json[end] !== '"') end += json[end] === '\\' ? 2 : 1;
      const top = stack.at(-1);
      if (top?.kind === 'object' && top.expectKey) {
        const key = JSON.parse(json.slice(i, end + 1)) as string;
        if (top.keys.has(key)) found.push(top.path ? `${top.path}.${key}` : key);
        top.keys.add(key);
        top.key = key;
        top.expectKey = false;
      }
      i = end;
    } else if (c === '{') stack.push({ kind: 'object', path: childPath(), keys: new Set(), key: undefined, expectKey: true });
    else if (c === '[') stack.push({ kind: 'array', path: childPath(), index: 0 });
    else if (c === '}' || c === ']') stack.pop();
    else if (c === ',') {
      const top = stack.at(-1);
      if (top?.kind === 'object') top.expectKey = true;
      else if (top?.kind === 'array') top.index++;
    }
  }
  return found;
}
