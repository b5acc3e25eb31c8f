/**
 * Every field of one log entry as lines for the detail pane, attempts one per line, bodies (when
 * the daemon logs them) pretty-printed. The entry never holds a key or a credential, so nothing
 * here needs hiding.
 */
import { formatMs } from '../../cli/log-format.js';
import { attemptsAreUnlisted, type RequestLogEntry } from '../../log/entry.js';
import { statusText } from './columns.js';
import { printable } from '../../util/printable.js';
import { textWidth } from '../../util/text-width.js';
import { wrapLines } from '../wrap-lines.js';

export interface DetailLine {
  label?: string;
  text: string;
  /** Colour the text as this HTTP status. */
  status?: number;
  /** The error that ended it: a 200 stream cut part-way is coloured as an error. */
  errorCode?: string;
  heading?: boolean;
}

function localTime(iso: string): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const p = (n: number, w = 2) => String(n).padStart(w, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}:${p(d.getSeconds())}.${p(d.getMilliseconds(), 3)}`;
}

function yesNo(b: boolean): string {
  return b ? 'yes' : 'no';
}

function count(n: number | undefined): string {
  return n === undefined ? '-' : String(n);
}

function bodyLines(title: string, body: unknown): DetailLine[] {
  if (body === undefined) return [];
  const text = typeof body === 'string' ? body : JSON.stringify(body, null, 2);
  return [{ heading: true, text: title }, ...text.split('\n').map((l) => ({ text: `  ${l}` }))];
}

/** A model list's attempts are the providers it was answered without (list-failures.ts), not tries. */
function attemptsHeading(e: RequestLogEntry): DetailLine[] {
  const list = attemptsAreUnlisted(e);
  const heading: DetailLine = { heading: true, text: `${list ? 'Providers not listed' : 'Attempts'} (${e.attempts.length})` };
  if (e.attempts.length > 0) return [heading];
  return [heading, { text: list ? '  none' : '  none (refused before any upstream was tried)' }];
}

/**
 * An attempt's line, `text` after `head`, at `width`: what does not fit goes on lines of its own
 * under the target (`indent`), each a line of the pane, so its scroll counts them. A skipped
 * attempt's reason is a sentence ("failed moments ago (…): tried after the other targets for …"),
 * cut at the screen's edge it lost its end.
 */
function hangingLines(head: string, text: string, indent: string, width: number): string[] {
  if (textWidth(`${head} ${text}`) <= width) return [`${head} ${text}`];
  const words = text.split(' ');
  let first = head;
  while (words.length > 0 && textWidth(`${first} ${words[0]}`) <= width) first += ` ${words.shift()}`;
  const rest = words.join(' ');
  return rest ? [first, ...wrapLines(rest, Math.max(1, width - indent.length), Number.MAX_SAFE_INTEGER).map((l) => indent + l)] : [first];
}

/** `width`: the pane's, for the lines that wrap (a skipped attempt's reason); without it none do. */
export function detailLines(e: RequestLogEntry, width = Infinity): DetailLine[] {
  const lines: DetailLine[] = [
    { heading: true, text: `Request ${e.id}` },
    { label: 'time', text: `${localTime(e.time)} (${e.time})` },
    { label: 'key', text: e.keyName ? `${e.keyName}${e.keyId ? ` (${e.keyId})` : ''}` : (e.keyId ?? '-') },
    { label: 'base', text: e.base.startsWith('group:') ? `group ${e.base.slice(6)}` : e.base },
    { label: 'endpoint', text: e.path !== undefined ? `${e.endpoint} (path ${e.path})` : `${e.endpoint} (inbound dialect ${e.dialect})` },
    { label: 'model asked', text: e.modelAsked ?? '-' },
    { label: 'answered by', text: e.provider ? `${e.provider} / ${e.model ?? '?'}` : '-' },
    { label: 'status', text: statusText(e.status) + (e.status === 0 ? ' (no answer)' : ''), status: e.status, ...(e.errorCode ? { errorCode: e.errorCode } : {}) },
    { label: 'latency', text: formatMs(e.latencyMs) },
    { label: 'TTFB', text: formatMs(e.ttfbMs) },
    { label: 'streamed', text: yesNo(e.streamed) },
    { label: 'fallback', text: e.fallback ? `yes (${e.attempts.length} attempts)` : 'no' },
    {
      label: 'tokens',
      text: e.usage ? `in ${count(e.usage.input)} · out ${count(e.usage.output)} · cached ${count(e.usage.cached)} · reasoning ${count(e.usage.reasoning)}` : '-',
    },
    { label: 'effort', text: e.effortAsked || e.effortSent ? `asked ${e.effortAsked ?? '-'} → sent ${e.effortSent ?? '-'}` : '-' },
    { label: 'error', text: e.errorCode ?? '-' },
    ...attemptsHeading(e),
  ];
  e.attempts.forEach((a, i) => {
    const lead = `  ${i + 1}. `;
    if (a.skipped) {
      // printable first: what wraps is what is shown
      for (const text of hangingLines(printable(`${lead}${a.target}  skipped:`), printable(a.skipped), ' '.repeat(lead.length), width)) lines.push({ text });
      return;
    }
    const outcome = [statusText(a.status), formatMs(a.latencyMs), a.errorCode, a.continued && 'continued a paused turn'].filter(Boolean).join('  ');
    lines.push({ text: `${lead}${a.target}  ${outcome}`, status: a.status, ...(a.errorCode ? { errorCode: a.errorCode } : {}) });
  });
  lines.push(...bodyLines('Request body', e.requestBody), ...bodyLines('Response body', e.responseBody));
  // fields from clients and upstreams: shown, never obeyed by the terminal
  return lines.map((l) => ({ ...l, text: printable(l.text) }));
}
