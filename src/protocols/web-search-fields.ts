/**
 * The two fields OpenAI's and Anthropic's web search tools share in substance: a list of domains
 * and the user's approximate location (city, region, country, timezone). Both clients' decoders
 * read them here, with the same checks.
 */
import type { WebSearchTool } from './hub.js';
import { badRequest } from './errors.js';

type Location = NonNullable<WebSearchTool['userLocation']>;

const LOCATION_KEYS = ['city', 'region', 'country', 'timezone'] as const;

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** A list of domains: absent, null or empty reads as none. */
export function decodeDomains(v: unknown, path: string): string[] | undefined {
  if (v === undefined || v === null) return undefined;
  if (!Array.isArray(v) || !v.every((d) => typeof d === 'string')) throw badRequest('invalid_request', `${path} must be an array of strings.`, path);
  return v.length > 0 ? (v as string[]) : undefined;
}

/** The approximate location's named fields; the `type` tag and null or empty fields are left out. */
export function decodeLocation(v: unknown, path: string): Location | undefined {
  if (v === undefined || v === null) return undefined;
  if (!isObject(v)) throw badRequest('invalid_request', `${path} must be an object.`, path);
  const loc: Location = {};
  for (const key of LOCATION_KEYS) {
    const field = v[key];
    if (field === undefined || field === null || field === '') continue;
    if (typeof field !== 'string') throw badRequest('invalid_request', `${path}.${key} must be a string.`, `${path}.${key}`);
    loc[key] = field;
  }
  return Object.keys(loc).length > 0 ? loc : undefined;
}
