/**
 * JSON schema fitted to Anthropic structured output (`output_config.format`).
 *
 * Anthropic's structured output accepts a subset of JSON schema: objects must close with
 * `additionalProperties: false`; numeric/string length constraints, most formats and
 * `minItems` above 1 are rejected. Like the official SDK helper, we keep what is accepted and move
 * the rest into `description` so the model still sees the intent. Never throws.
 */
import type { JsonSchema } from '../hub.js';
import { isObject } from './json.js';

const STRING_FORMATS: ReadonlySet<string> = new Set(['date-time', 'time', 'date', 'duration', 'email', 'hostname', 'uri', 'ipv4', 'ipv6', 'uuid']);
const DROPPED: ReadonlySet<string> = new Set(['$schema', '$id', 'additionalProperties']);

export function fitOutputSchema(schema: JsonSchema): JsonSchema {
  return fit(schema);
}

function fit(node: unknown): JsonSchema {
  if (!isObject(node)) return {};
  const out: JsonSchema = {};
  const leftover: string[] = [];
  const isObjectType = node.type === 'object' || (node.type === undefined && isObject(node.properties));
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
        out.properties = isObject(value) ? mapValues(value, fit) : {};
        break;
      case '$defs':
      case 'definitions':
        out[key] = isObject(value) ? mapValues(value, fit) : {};
        break;
      case 'items':
        out.items = Array.isArray(value) ? value.map(fit) : fit(value);
        break;
      case 'anyOf':
      case 'oneOf':
        // oneOf cannot be enforced by the grammar; anyOf is the accepted spelling.
        out.anyOf = Array.isArray(value) ? value.map(fit) : [];
        break;
      case 'allOf':
        out.allOf = Array.isArray(value) ? value.map(fit) : [];
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

/** fromEntries defines own properties, so a property literally named "__proto__" survives. */
function mapValues(obj: Record<string, unknown>, f: (v: unknown) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(Object.entries(obj).map(([k, v]) => [k, f(v)]));
}
