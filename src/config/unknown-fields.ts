/** The fields of a hand-written config that the schema does not know (a typo such as `loqBodies`). */

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** Paths of fields in `raw` that the parsed config does not have (the schema dropped them). */
export function unknownFields(raw: unknown, parsed: unknown, path = ''): string[] {
  if (!isRecord(raw) || !isRecord(parsed)) {
    if (Array.isArray(raw) && Array.isArray(parsed)) return raw.flatMap((item, i) => unknownFields(item, parsed[i], `${path}[${i}]`));
    return [];
  }
  return Object.keys(raw).flatMap((key) => {
    const at = path ? `${path}.${key}` : key;
    return Object.hasOwn(parsed, key) ? unknownFields(raw[key], parsed[key], at) : [at];
  });
}
