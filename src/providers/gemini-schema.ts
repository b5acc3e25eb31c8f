/**
 * JSON Schema → the OpenAPI-3 subset Gemini accepts in function declarations and response
 * schemas. Gemini fails the whole request on any keyword outside that subset (PROTOCOLS.md §5.4),
 * so this keeps only known keywords rather than removing known-bad ones:
 * - `$ref` is inlined (local `#/…` pointers, `$defs`/`definitions`), recursion cut after a bound;
 * - `allOf` merged, `oneOf` read as `anyOf`, `const` read as a one-value `enum`;
 * - `type: [x, "null"]` and `null` members of `anyOf` become `nullable: true`;
 * - enums keep string values only (non-string values move into the description);
 * - `format` kept only where Gemini knows it; `required` limited to declared properties.
 * Pure and total: any input yields a schema, nothing throws.
 */
type Schema = Record<string, unknown>;

const KEPT = new Set([
  'type',
  'format',
  'title',
  'description',
  'nullable',
  'enum',
  'items',
  'minItems',
  'maxItems',
  'properties',
  'required',
  'minProperties',
  'maxProperties',
  'minLength',
  'maxLength',
  'pattern',
  'minimum',
  'maximum',
  'anyOf',
  'default',
  'example',
  'propertyOrdering',
]);

const FORMATS: Record<string, ReadonlySet<string>> = {
  string: new Set(['enum', 'date-time']),
  number: new Set(['float', 'double']),
  integer: new Set(['int32', 'int64']),
};

/** How many times one `$ref` may be expanded inside itself before recursion is cut. */
const MAX_REF_REPEAT = 2;
const MAX_DEPTH = 48;
const MAX_NODES = 5000;

interface Walk {
  root: unknown;
  nodes: number;
}

function isObject(v: unknown): v is Schema {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

export function sanitizeGeminiSchema(schema: unknown): Schema {
  const walk: Walk = { root: schema, nodes: 0 };
  return clean(schema, walk, [], 0);
}

/** Resolve a local JSON pointer (`#`, `#/$defs/X`, `#/properties/a/items`). */
function resolveRef(ref: string, root: unknown): unknown {
  if (ref === '#') return root;
  if (!ref.startsWith('#/')) return undefined;
  let node: unknown = root;
  for (const raw of ref.slice(2).split('/')) {
    const key = decodeURIComponent(raw).replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) node = node[Number(key)];
    else if (isObject(node)) node = node[key];
    else return undefined;
  }
  return node;
}

function cut(): Schema {
  return { type: 'object' };
}

function clean(input: unknown, walk: Walk, refs: string[], depth: number): Schema {
  if (!isObject(input)) return {};
  walk.nodes++;
  if (depth > MAX_DEPTH || walk.nodes > MAX_NODES) return cut();

  let node: Schema = input;
  if (typeof node.$ref === 'string') {
    const ref = node.$ref;
    if (refs.filter((r) => r === ref).length >= MAX_REF_REPEAT) return withNotes(cut(), node);
    const target = resolveRef(ref, walk.root);
    const inlined = isObject(target) ? clean(target, walk, [...refs, ref], depth + 1) : {};
    return withNotes(inlined, node);
  }

  // Nested allOf inside allOf members surfaces again after a merge; fold a bounded number of times.
  for (let i = 0; i < 8 && Array.isArray(node.allOf); i++) node = mergeAllOf(node, walk, refs, depth);

  const out: Schema = {};
  const anyOf = Array.isArray(node.anyOf) ? node.anyOf : Array.isArray(node.oneOf) ? node.oneOf : undefined;
  let nullable = node.nullable === true;

  // type: "x" | ["x", "null"] | ["x", "y"]
  let type: string | undefined;
  let typeUnion: string[] | undefined;
  if (typeof node.type === 'string') {
    if (node.type === 'null') nullable = true;
    else type = node.type;
  } else if (Array.isArray(node.type)) {
    const types = node.type.filter((t): t is string => typeof t === 'string');
    if (types.includes('null')) nullable = true;
    const real = [...new Set(types.filter((t) => t !== 'null'))];
    if (real.length === 1) type = real[0];
    else if (real.length > 1) typeUnion = real;
  }

  for (const [key, value] of Object.entries(node)) {
    if (!KEPT.has(key)) continue;
    switch (key) {
      case 'type':
      case 'nullable':
      case 'anyOf':
      case 'enum':
      case 'format':
      case 'required':
        break; // handled below
      case 'properties':
        if (isObject(value)) {
          const props: Schema = {};
          for (const [name, sub] of Object.entries(value)) props[name] = clean(sub, walk, refs, depth + 1);
          if (Object.keys(props).length > 0) out.properties = props;
        }
        break;
      case 'items': {
        const first = Array.isArray(value) ? value[0] : value;
        if (first !== undefined) out.items = clean(first, walk, refs, depth + 1);
        break;
      }
      case 'propertyOrdering':
        if (Array.isArray(value) && value.every((v) => typeof v === 'string')) out.propertyOrdering = value;
        break;
      case 'title':
      case 'description':
      case 'pattern':
        if (typeof value === 'string') out[key] = value;
        break;
      case 'default':
      case 'example':
        out[key] = value;
        break;
      default:
        if (typeof value === 'number' && Number.isFinite(value)) out[key] = value;
    }
  }

  if (type) out.type = type;

  // enum / const: Gemini enums are strings.
  const values = 'const' in node ? [node.const] : Array.isArray(node.enum) ? node.enum : undefined;
  if (values && values.length > 0) {
    if (values.every((v) => typeof v === 'string')) {
      out.enum = values;
      if (!out.type) out.type = 'string';
    } else {
      appendDescription(out, `Allowed values: ${values.map((v) => JSON.stringify(v)).join(', ')}`);
      if (!out.type) {
        const inferred = inferType(values);
        if (inferred) out.type = inferred;
      }
    }
  }

  if (typeof node.format === 'string' && typeof out.type === 'string' && Object.hasOwn(FORMATS, out.type) && FORMATS[out.type]!.has(node.format)) {
    out.format = node.format;
  }

  // Union members, with `null` members read as nullable.
  let members: Schema[] = [];
  if (anyOf) {
    for (const member of anyOf) {
      if (isObject(member) && (member.type === 'null' || (Array.isArray(member.type) && member.type.length === 1 && member.type[0] === 'null'))) {
        nullable = true;
        continue;
      }
      members.push(clean(member, walk, refs, depth + 1));
    }
  }
  if (typeUnion) members = [...members, ...typeUnion.map((t) => ({ type: t }))];
  if (members.length === 1 && !out.type && !out.properties && !out.items) {
    Object.assign(out, { ...members[0], ...out });
  } else if (members.length > 0) {
    out.anyOf = members;
  }

  if (Array.isArray(node.required) && isObject(out.properties)) {
    const props = out.properties;
    const required = [...new Set(node.required.filter((r): r is string => typeof r === 'string' && Object.hasOwn(props, r)))];
    if (required.length > 0) out.required = required;
  }

  if (nullable) out.nullable = true;
  return out;
}

/** allOf: fold members into one schema (properties and required united; first value wins otherwise). */
function mergeAllOf(node: Schema, walk: Walk, refs: string[], depth: number): Schema {
  const { allOf, ...rest } = node;
  const merged: Schema = { ...rest };
  for (const member of allOf as unknown[]) {
    const part = isObject(member) && typeof member.$ref === 'string' ? clean(member, walk, refs, depth + 1) : member;
    if (!isObject(part)) continue;
    for (const [key, value] of Object.entries(part)) {
      if (key === 'properties' && isObject(value)) {
        merged.properties = { ...(isObject(merged.properties) ? merged.properties : {}), ...value };
      } else if (key === 'required' && Array.isArray(value)) {
        merged.required = [...(Array.isArray(merged.required) ? merged.required : []), ...value];
      } else if (!(key in merged)) {
        merged[key] = value;
      }
    }
  }
  return merged;
}

/** Keep the description/title written next to a `$ref` (they describe this use of it). */
function withNotes(schema: Schema, refNode: Schema): Schema {
  const out = { ...schema };
  if (typeof refNode.description === 'string') out.description = refNode.description;
  if (typeof refNode.title === 'string' && out.title === undefined) out.title = refNode.title;
  if (refNode.nullable === true) out.nullable = true;
  return out;
}

function appendDescription(schema: Schema, note: string): void {
  schema.description = typeof schema.description === 'string' && schema.description ? `${schema.description} (${note})` : note;
}

function inferType(values: unknown[]): string | undefined {
  const kinds = new Set(values.filter((v) => v !== null).map((v) => (typeof v === 'number' ? (Number.isInteger(v) ? 'integer' : 'number') : typeof v)));
  if (kinds.size === 1) {
    const [kind] = kinds;
    return kind === 'boolean' || kind === 'integer' || kind === 'number' || kind === 'string' ? kind : undefined;
  }
  if (kinds.size === 2 && kinds.has('integer') && kinds.has('number')) return 'number';
  return undefined;
}
