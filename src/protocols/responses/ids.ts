/**
 * Ids a Responses client sees: `resp_…` for the response, `msg_…`, `fc_…`, `ctc_…`, `rs_…` for items.
 * The suffix is reused from the upstream id so that one request keeps one id across the log,
 * the upstream and the client.
 */
import { randomBytes } from 'node:crypto';

const KNOWN_PREFIX = /^(?:resp|msg|chatcmpl|gen|rs|fc|ctc|call|toolu)[-_]+/;

/** `msg_01AB` → `01AB`, `chatcmpl-xyz` → `xyz`, `gen-123` → `123`; other ids keep their safe characters. */
export function suffixOf(id: string | undefined): string | undefined {
  if (!id) return undefined;
  const cleaned = id.replace(KNOWN_PREFIX, '').replace(/[^A-Za-z0-9_-]/g, '');
  return cleaned.length > 0 ? cleaned : undefined;
}

export function randomSuffix(): string {
  return randomBytes(12).toString('hex');
}

/**
 * Picks the suffix: the one the caller injected (tests, routing), else the upstream's, else a fresh
 * one. The upstream's is not reused when the response id it makes is `taken` (an answer kept under
 * it): some servers number their answers from a small range (Ollama: chatcmpl-0 … chatcmpl-998), and
 * a second answer under the same id would replace the first, so a chain naming it would go on from
 * another conversation.
 */
export function chooseSuffix(injected: string | undefined, upstreamId: string | undefined, taken?: (responseId: string) => boolean): string {
  if (injected !== undefined) return injected;
  const upstream = suffixOf(upstreamId);
  return upstream !== undefined && !taken?.(`resp_${upstream}`) ? upstream : randomSuffix();
}

export type ItemKind = 'msg' | 'fc' | 'ctc' | 'rs';

/** Item ids are unique within a response because they carry the item's output position. */
export function itemId(kind: ItemKind, suffix: string, outputIndex: number): string {
  return `${kind}_${suffix}_${outputIndex}`;
}
