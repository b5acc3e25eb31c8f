/**
 * The fields of a log entry that a client writes as it likes — the model id it asks for, the path
 * it calls, a group's name in that path, a preflight's Origin — and those derived from them (attempt targets, skip
 * reasons, the answering model). A key pasted there must not be kept: it is masked as bodies are.
 * These are read on every request, so a field is first asked, in one scan, whether it holds
 * anything a key or a data URL starts with; almost none does.
 */
import type { RequestLogEntry } from './entry.js';
import { KEY_HINT_RE } from '../util/key-shapes.js';
import { redactString } from './redact-body.js';

function mask(s: string): string {
  return KEY_HINT_RE.test(s) || s.includes('base64,') ? redactString(s) : s;
}

export function maskClientFields(e: RequestLogEntry): void {
  e.base = mask(e.base);
  if (e.path !== undefined) e.path = mask(e.path);
  if (e.origin !== undefined) e.origin = mask(e.origin);
  if (e.modelAsked !== undefined) e.modelAsked = mask(e.modelAsked);
  if (e.model !== undefined) e.model = mask(e.model);
  for (const a of e.attempts) {
    a.target = mask(a.target);
    if (a.skipped !== undefined) a.skipped = mask(a.skipped);
  }
}
