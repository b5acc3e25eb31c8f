/**
 * Seeds for the fuzz tests: the repo's real request, answer and stream fixtures per dialect (each
 * codec's own and the conversion pairs'), and the mutations applied to them.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import type { Dialect } from '../../src/protocols/hub.js';
import { awkwardJson, jsonPaths, mutateAt, type JsonPath, type Mutation } from '../protocols/shared/helpers.js';

export const DIALECTS: readonly Dialect[] = ['chat', 'responses', 'messages'];

export const PROTOCOLS = join(import.meta.dirname, '..', 'protocols');

// ---------------------------------------------------------------- seeds: the repo's real fixtures

function jsonFiles(dir: string): Array<Record<string, unknown>> {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.json'));
  } catch {
    return [];
  }
  return names.map((n) => JSON.parse(readFileSync(join(dir, n), 'utf8')) as Record<string, unknown>);
}

function sseFiles(dir: string, suffix: string): string[] {
  try {
    return readdirSync(dir)
      .filter((n) => n.endsWith(suffix))
      .map((n) => readFileSync(join(dir, n), 'utf8'));
  } catch {
    return [];
  }
}

const PAIRS = DIALECTS.flatMap((c) => DIALECTS.filter((u) => u !== c).map((u) => ({ client: c, upstream: u, dir: join(PROTOCOLS, 'pairs', 'fixtures', `${c}-to-${u}`) })));

export const requests: Record<Dialect, unknown[]> = {
  chat: jsonFiles(join(PROTOCOLS, 'chat', 'fixtures', 'request-decode')).map((f) => f.input),
  responses: jsonFiles(join(PROTOCOLS, 'responses', 'fixtures', 'request-decode')).map((f) => f.request ?? f.input),
  messages: jsonFiles(join(PROTOCOLS, 'messages', 'fixtures', 'request-decode')).map((f) => f.input),
};
export const responses: Record<Dialect, unknown[]> = {
  chat: jsonFiles(join(PROTOCOLS, 'chat', 'fixtures', 'response-decode')).map((f) => f.input),
  responses: jsonFiles(join(PROTOCOLS, 'responses', 'fixtures', 'response-decode')).map((f) => f.body ?? f.input),
  messages: jsonFiles(join(PROTOCOLS, 'messages', 'fixtures', 'response-decode')).map((f) => f.input),
};
export const streams: Record<Dialect, string[]> = {
  chat: sseFiles(join(PROTOCOLS, 'chat', 'fixtures', 'streams'), '.sse'),
  responses: sseFiles(join(PROTOCOLS, 'responses', 'fixtures', 'stream-decode'), '.sse'),
  messages: sseFiles(join(PROTOCOLS, 'messages', 'fixtures', 'streams'), '.sse'),
};
for (const p of PAIRS) {
  requests[p.client].push(...jsonFiles(join(p.dir, 'request')).map((f) => f.input));
  responses[p.upstream].push(...jsonFiles(join(p.dir, 'response')).map((f) => f.input));
  streams[p.upstream].push(...sseFiles(join(p.dir, 'stream'), '.upstream.sse'));
}
for (const d of DIALECTS) for (const list of [requests[d], responses[d], streams[d]]) for (let i = list.length - 1; i >= 0; i--) if (list[i] === undefined) list.splice(i, 1);

// ---------------------------------------------------------------- mutations

/** The shared protocol-test mutations (replace, delete, wrap, stringify), plus duplicating an array element. */
export type Op = Mutation['op'] | 'duplicate';
export type Path = JsonPath;
export const paths = jsonPaths;

export function mutate(root: unknown, path: Path, op: Op, replacement: unknown): unknown {
  if (op !== 'duplicate') return mutateAt(root, path, op === 'replace' ? { op, value: replacement } : { op });
  if (path.length === 0) return root;
  const copy = structuredClone(root) as Record<string | number, unknown>;
  let parent = copy;
  for (const key of path.slice(0, -1)) parent = parent[key] as Record<string | number, unknown>;
  const last = path[path.length - 1]!;
  if (Array.isArray(parent)) parent.splice(last as number, 0, structuredClone(parent[last]));
  return copy;
}

/** The shared awkward values, plus inherited property names and lone surrogates. */
export const oddValue = fc.oneof(awkwardJson, fc.constantFrom(2 ** 53, 'constructor', 'toString', '\u0000', '\ud800', { type: 'function' }));

/** One to three mutations of one of the samples. */
export const mutatedFrom = (samples: readonly unknown[]) =>
  fc
    .record({
      sample: fc.constantFrom(...samples),
      edits: fc.array(fc.record({ pick: fc.nat(), op: fc.constantFrom<Op>('replace', 'delete', 'wrap', 'stringify', 'duplicate'), value: oddValue }), { minLength: 1, maxLength: 3 }),
    })
    .map(({ sample, edits }) =>
      edits.reduce<unknown>((v, e) => {
        const all = paths(v);
        return mutate(v, all[e.pick % all.length]!, e.op, e.value);
      }, sample),
    );
