/**
 * The fields of a log entry that a client writes as it likes — the model id it asks for, the path
 * it calls, a group's name in that path — and those derived from them (attempt targets, skip
 * reasons, the answering model). A key pasted there must not be kept: it is masked as bodies are.
 */
import type { RequestLogEntry } from './entry.js';
import { redactString } from './redact-body.js';

export function maskClientFields(e: RequestLogEntry): void {
  e.base = redactString(e.base);
  if (e.path !== undefined) e.path = redactString(e.path);
  if (e.modelAsked !== undefined) e.modelAsked = redactString(e.modelAsked);
  if (e.model !== undefined) e.model = redactString(e.model);
  for (const a of e.attempts) {
    a.target = redactString(a.target);
    if (a.skipped !== undefined) a.skipped = redactString(a.skipped);
  }
}
