/**
 * Function schemas OpenAI refuses even with `strict: false`, though Anthropic and MCP hosts take
 * them, each given the form that means the same to OpenAI:
 * - an object root without `properties` ("In context=(), object schema missing properties",
 *   evalstate/fast-agent#143, github/copilot-cli#1825) → `properties: {}`;
 * - an array without `items`, at any depth ("In context=('properties', 'paths'), array schema
 *   missing items", sigoden/aichat#1049) → `items: {}` (any item);
 * - `required: null` ("None is not of type 'array'", router-for-me/CLIProxyAPI#3310) → removed.
 * Copy on write: the client's schema objects are never edited (a group may send them elsewhere).
 */
type Schema = Record<string, unknown>;

/** Beyond this depth a schema is sent as it is (no real tool nests so deep; the stack stays small). */
const MAX_DEPTH = 64;
const SCHEMA_MAPS = ['properties', '$defs', 'definitions'] as const;
const SCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const;

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function isArraySchema(schema: Schema): boolean {
  return schema.type === 'array' || (Array.isArray(schema.type) && schema.type.includes('array'));
}

/** The schema as OpenAI accepts it for a function's `parameters`; the same object when nothing changes. */
export function fitFunctionSchema(schema: unknown): unknown {
  if (!isObject(schema)) return schema;
  const fitted = fit(schema, 0);
  if (fitted.type !== 'object' || isObject(fitted.properties)) return fitted;
  return { ...fitted, properties: {} };
}

function fit(schema: Schema, depth: number): Schema {
  if (depth > MAX_DEPTH) return schema;
  let out = schema;
  const set = (key: string, value: unknown): void => {
    if (out === schema) out = { ...schema };
    out[key] = value;
  };
  if (schema.required !== undefined && !Array.isArray(schema.required)) {
    out = { ...schema };
    delete out.required;
  }
  if (isArraySchema(schema) && schema.items === undefined) set('items', {});
  else if (isObject(schema.items)) {
    const items = fit(schema.items, depth + 1);
    if (items !== schema.items) set('items', items);
  }
  if (isObject(schema.additionalProperties)) {
    const extra = fit(schema.additionalProperties, depth + 1);
    if (extra !== schema.additionalProperties) set('additionalProperties', extra);
  }
  for (const key of SCHEMA_MAPS) {
    const map = schema[key];
    if (!isObject(map)) continue;
    const fitted = fitEach(Object.entries(map), depth);
    if (fitted) set(key, Object.fromEntries(fitted));
  }
  for (const key of SCHEMA_LISTS) {
    const list = schema[key];
    if (!Array.isArray(list)) continue;
    const fitted = fitEach(list.entries(), depth);
    if (fitted) set(key, fitted.map(([, v]) => v));
  }
  return out;
}

/** The members fitted, or undefined when none changed. */
function fitEach<K>(members: Iterable<[K, unknown]>, depth: number): Array<[K, unknown]> | undefined {
  let changed = false;
  const out: Array<[K, unknown]> = [];
  for (const [k, v] of members) {
    const fitted = isObject(v) ? fit(v, depth + 1) : v;
    if (fitted !== v) changed = true;
    out.push([k, fitted]);
  }
  return changed ? out : undefined;
}
