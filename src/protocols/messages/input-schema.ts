/**
 * A tool's JSON schema fitted to Anthropic's `input_schema`: an object schema with no `oneOf`,
 * `anyOf` or `allOf` at the root. Anthropic refuses a root combinator ("input_schema does not
 * support oneOf, allOf, or anyOf at the top level", Kilo-Org/kilocode#12905); OpenAI takes one,
 * so MCP tools built from unions reach us with it and would break every request.
 *
 * The root is flattened into one object: `allOf` branches all hold, so their properties and
 * `required` add up; of `anyOf`/`oneOf` variants one holds, so their properties are united and
 * only names every variant requires stay required, while a short note in `description` says
 * which argument sets the variants ask for. A name defined differently in several branches gets
 * a nested `allOf`/`anyOf` (accepted below the root). Local `$ref`s naming a variant are read from
 * `$defs`/`definitions`; everything nested stays as it is. Pure; never throws.
 */
import type { Tool as MessagesTool } from '@anthropic-ai/sdk/resources/messages/messages';
import type { JsonSchema } from '../hub.js';
import { copyMembers, setMember } from '../own-members.js';
import { isObject, type JsonObject } from './json.js';

const COMBINATORS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Deep enough for real unions of unions; a cut-off keeps hostile nesting cheap. */
const MAX_DEPTH = 8;

/** What a (sub)schema asks of the arguments object, flattened. */
interface Shape {
  properties: Map<string, unknown[]>;
  required: Set<string>;
  notes: string[];
}

/**
 * The schema as it is, `type` made "object" in its place or added last. A spread copy that only
 * overwrites `type` is the fast copy; one that gains it gets a hidden class of its own per tool of
 * every request on Node 20, so a schema that left `type` out is copied key by key.
 */
function asObjectSchema(params: JsonObject): MessagesTool.InputSchema {
  if ('type' in params) return { ...params, type: 'object' };
  const out = copyMembers(params);
  out.type = 'object';
  return out as MessagesTool.InputSchema;
}

export function fitInputSchema(params: JsonSchema | undefined): MessagesTool.InputSchema {
  if (!isObject(params)) return { type: 'object', properties: {} };
  if (!COMBINATORS.some((k) => k in params)) return asObjectSchema(params);

  const shape = flatten(params, params, 0);
  const out: MessagesTool.InputSchema = { type: 'object' };
  for (const [key, value] of Object.entries(params)) {
    if (!(COMBINATORS as readonly string[]).includes(key) && key !== 'properties' && key !== 'required') setMember(out, key, value);
  }
  out.type = 'object';
  out.properties = Object.fromEntries([...shape.properties].map(([name, defs]) => [name, defs.length === 1 ? defs[0] : { allOf: defs }]));
  if (shape.required.size > 0) out.required = [...shape.required];
  if (shape.notes.length > 0) {
    const note = shape.notes.join(' ');
    out.description = typeof params.description === 'string' && params.description !== '' ? `${params.description}\n\n${note}` : note;
  }
  return out;
}

/** The node's own properties AND every root combinator it carries. */
function flatten(node: JsonObject, root: JsonObject, depth: number): Shape {
  const shape: Shape = { properties: new Map(), required: new Set(), notes: [] };
  if (isObject(node.properties)) {
    for (const [name, def] of Object.entries(node.properties)) addDefinition(shape, name, def);
  }
  if (Array.isArray(node.required)) for (const name of node.required) if (typeof name === 'string') shape.required.add(name);
  if (depth >= MAX_DEPTH) return shape;

  if (Array.isArray(node.allOf)) {
    for (const branch of node.allOf) {
      const b = resolve(branch, root);
      if (b) mergeAll(shape, flatten(b, root, depth + 1));
    }
  }
  for (const kind of ['anyOf', 'oneOf'] as const) {
    const list = node[kind];
    if (!Array.isArray(list)) continue;
    const variants = list.flatMap((v) => {
      const b = resolve(v, root);
      return b && isObjectLike(b) ? [{ schema: b, shape: flatten(b, root, depth + 1) }] : [];
    });
    if (variants.length > 0) mergeAll(shape, unite(variants.map((v) => v.shape)));
    if (variants.length > 1) shape.notes.push(describeVariants(kind, variants));
  }
  return shape;
}

/** Every one of the shapes holds: properties and requirements add up. */
function mergeAll(into: Shape, from: Shape): void {
  for (const [name, defs] of from.properties) for (const def of defs) addDefinition(into, name, def);
  for (const name of from.required) into.required.add(name);
  into.notes.push(...from.notes);
}

/** One of the shapes holds: any of its properties may appear; only common requirements remain. */
function unite(shapes: Shape[]): Shape {
  const out: Shape = { properties: new Map(), required: new Set(shapes[0]!.required), notes: [] };
  for (const s of shapes) {
    for (const name of out.required) if (!s.required.has(name)) out.required.delete(name);
    for (const [name, defs] of s.properties) {
      const def = defs.length === 1 ? defs[0] : { allOf: defs };
      const seen = out.properties.get(name);
      if (!seen) out.properties.set(name, [def]);
      else if (!seen.some((d) => sameJson(d, def))) seen.push(def);
    }
    out.notes.push(...s.notes);
  }
  // Several definitions of one name across variants: the value matches one of them.
  for (const [name, defs] of out.properties) if (defs.length > 1) out.properties.set(name, [{ anyOf: defs }]);
  return out;
}

function addDefinition(shape: Shape, name: string, def: unknown): void {
  const defs = shape.properties.get(name);
  if (!defs) shape.properties.set(name, [def]);
  else if (!defs.some((d) => sameJson(d, def))) defs.push(def);
}

/** "Give exactly one of: {id} | {full_path}": the argument sets each variant requires. */
function describeVariants(kind: 'anyOf' | 'oneOf', variants: Array<{ schema: JsonObject; shape: Shape }>): string {
  const forms = variants.map(({ schema, shape }) => {
    const names = shape.required.size > 0 ? [...shape.required] : [...shape.properties.keys()];
    const label = brief(typeof schema.title === 'string' ? schema.title : typeof schema.description === 'string' ? schema.description : '');
    const set = names.length > 0 ? `{${names.join(', ')}}` : '{}';
    return label ? `${set} (${label})` : set;
  });
  return `Arguments take ${kind === 'oneOf' ? 'exactly one' : 'at least one'} of these forms: ${forms.join(' | ')}.`;
}

/** A variant's own words, cut short: the note is a hint, not a copy of every description. */
function brief(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 80 ? `${line.slice(0, 79)}…` : line;
}

/** A branch, or the `$defs`/`definitions` entry a local `$ref` branch names. */
function resolve(branch: unknown, root: JsonObject): JsonObject | undefined {
  if (!isObject(branch)) return undefined;
  if (typeof branch.$ref !== 'string') return branch;
  const m = /^#\/(\$defs|definitions)\/([^/]+)$/.exec(branch.$ref);
  const defs = m ? root[m[1]!] : undefined;
  const name = m ? decodePointer(m[2]!) : '';
  const target = m && isObject(defs) && Object.hasOwn(defs, name) ? defs[name] : undefined;
  return isObject(target) ? target : branch;
}

function decodePointer(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}

/** A variant that could describe an arguments object (not e.g. a bare string or null). */
function isObjectLike(s: JsonObject): boolean {
  if (s.type === undefined) return true;
  return s.type === 'object' || (Array.isArray(s.type) && s.type.includes('object'));
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
