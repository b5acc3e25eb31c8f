/**
 * What `svc-proxy doctor` found: one line per check, marked, with what to do where something is
 * wrong. A failure is something a tool will run into; a warning works now but is not as meant.
 */
export type Mark = 'ok' | 'warn' | 'fail' | 'info';

export interface Finding {
  /** What was checked: "daemon", "provider anthropic", "shell ANTHROPIC_BASE_URL" … */
  check: string;
  mark: Mark;
  text: string;
  /** The command or setting that puts it right. */
  fix?: string;
}

const SYMBOL: Record<Mark, string> = { ok: '✓', warn: '!', fail: '✗', info: '-' };

export function renderFindings(findings: readonly Finding[]): string {
  const lines = findings.map((f) => `${SYMBOL[f.mark]} ${f.check}: ${f.text}${f.fix ? `\n    → ${f.fix}` : ''}`);
  const failed = findings.filter((f) => f.mark === 'fail').length;
  const warned = findings.filter((f) => f.mark === 'warn').length;
  const verdict = failed > 0 ? `${failed} problem${failed === 1 ? '' : 's'} found` : warned > 0 ? 'No problem found' : 'Everything checked is fine';
  return [...lines, '', `${verdict}${warned > 0 ? `; ${warned} warning${warned === 1 ? '' : 's'}` : ''}.`].join('\n');
}

/** Exit 1 when a tool would run into something. */
export function exitCodeOf(findings: readonly Finding[]): number {
  return findings.some((f) => f.mark === 'fail') ? 1 : 0;
}
