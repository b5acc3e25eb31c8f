/**
 * JSON schema fitted to Anthropic structured output (`output_config.format`).
 *
 * Anthropic's structured output accepts a subset of JSON schema: objects must close with
 * `additionalProperties: false`; numeric/string length constraints, most formats and
 * `minItems` above 1 are rejected. Like the official SDK helper, we keep what is accepted and move
 * the rest into `description` so the model still sees the intent: dropping such a bound only lets
 * more answers through.
 *
 * Closing an object is different: it forbids keys the client's schema allows, so decoding would
 * be constrained to a narrower schema than the one asked for (a map `{additionalProperties:
 * {type:"number"}}` could only ever be `{}`). A schema that needs that is reported unfit instead,
 * and the caller asks for the JSON in words (json-output.ts). Never throws.
 */
import type { JsonSchema } from '../hub.js';
import { isObject } from './json.js';

const STRING_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
/** Dropped without a trace: they name things or (when false) say what closing says anyway. */
const DROPPED: ReadonlySet<string> = new Set(['$schema', '$id', 'additionalProperties', 'unevaluatedProperties']);

/** The schema in Anthropic's subset, or undefined when fitting it would forbid answers it allows. */
export function fitOutputSchema(schema: JsonSchema): JsonSchema | undefined {
  const walk = { narrows: false };
  const out = fit(schema, walk);
  return walk.narrows ? undefined : out;
}

interface Walk {
  narrows: boolean;
}

function fit(node: unknown, walk: Walk): JsonSchema {
  if (!isObject(node)) return {};
  const out: JsonSchema = {};
  const leftover: string[] = [];
  const isObjectType = node.type === 'object' || (node.type === undefined && isObject(node.properties));
  if (isObjectType && closingNarrows(node)) walk.narrows = true;
  const sub = (v: unknown): JsonSchema => fit(v, walk);
  for (const [key, value] of Object.entries(node)) {
    switch (key) {
      case 'type':
      case 'description':
      case 'title':
      case 'required':
      case '$ref':
        out[key] = value;
        break;
      case 'enum':
      case 'const':
        out[key] = value;
        break;
      case 'properties':
        out.properties = isObject(value) ? mapValues(value, sub) : {};
        break;
      case '$defs':
      case 'definitions':
        out[key] = isObject(value) ? mapValues(value, sub) : {};
        break;
      case 'items':
        out.items = Array.isArray(value) ? value.map(sub) : sub(value);
        break;
      case 'anyOf':
      case 'oneOf':
        // oneOf cannot be enforced by the grammar; anyOf is the accepted spelling.
        out.anyOf = Array.isArray(value) ? value.map(sub) : [];
        break;
      case 'allOf':
        // Each closed branch would forbid the others' keys: only `{}` could satisfy them all.
        if (Array.isArray(value) && mergesObjects(value, isObject(node.properties))) walk.narrows = true;
        out.allOf = Array.isArray(value) ? value.map(sub) : [];
        break;
      case 'format':
        if (typeof value === 'string' && STRING_FORMATS.has(value)) out.format = value;
        else leftover.push(`${key}: ${JSON.stringify(value)}`);
        break;
      case 'minItems':
        if (value === 0 || value === 1) out.minItems = value;
        else leftover.push(`${key}: ${JSON.stringify(value)}`);
        break;
      default:
        if (!DROPPED.has(key)) leftover.push(`${key}: ${JSON.stringify(value)}`);
    }
  }
  if (isObjectType) {
    out.additionalProperties = false;
    if (out.properties === undefined) out.properties = {};
  }
  if (leftover.length > 0) {
    const hint = `{${leftover.join(', ')}}`;
    out.description = typeof out.description === 'string' && out.description !== '' ? `${out.description}\n\n${hint}` : hint;
  }
  return out;
}

/**
 * Would `additionalProperties: false` forbid keys this object allows? Yes for a map (extra keys
 * allowed as true or by a schema, or keys by pattern) and for an object that declares no
 * properties and does not close itself (any object at all).
 */
function closingNarrows(node: Record<string, unknown>): boolean {
  const extra = [node.additionalProperties, node.unevaluatedProperties];
  if (extra.some((v) => v !== undefined && v !== false)) return true;
  if (isObject(node.patternProperties) && Object.keys(node.patternProperties).length > 0) return true;
  const declares = isObject(node.properties) && Object.keys(node.properties).length > 0;
  return !declares && node.additionalProperties !== false && node.unevaluatedProperties !== false;
}

/** allOf combining two objects (a $ref may be one), or one with the node's own properties. */
function mergesObjects(branches: unknown[], ownProperties: boolean): boolean {
  const objects = branches.filter((b) => isObject(b) && (b.type === 'object' || isObject(b.properties) || typeof b.$ref === 'string'));
  return objects.length + (ownProperties ? 1 : 0) > 1;
}

/** fromEntries defines own properties, so a property literally named "__proto__" survives. */
function mapValues(obj: Record<string, unknown>, f: (v: unknown) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}
