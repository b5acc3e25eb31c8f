/**
 * A function of a string, run once per distinct string and its answer remembered. For what runs on
 * every request over the few strings a laptop's tools send (model ids): a request that comes alone
 * runs cold, and there a few regular expressions cost ~10 µs where one Map lookup costs a fraction
 * of that (bench/FINDINGS.md, paced). Answers are shared: callers do not change them. Bounded:
 * strings longer than `maxLength` are answered each time and never kept, and past `maxEntries`
 * strings the memory starts over. A call that throws is not remembered.
 */
export function memoByString<T extends boolean | object>(fn: (s: string) => T, maxEntries = 512, maxLength = 256): (s: string) => T {
  const known = new Map<string, T>();
  return (s) => {
    let answer = known.get(s);
    if (answer === undefined) {
      answer = fn(s);
      if (s.length > maxLength) return answer;
      if (known.size >= maxEntries) known.clear();
      known.set(s, answer);
    }
    return answer;
  };
}
