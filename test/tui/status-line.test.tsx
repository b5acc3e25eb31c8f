import { describe, expect, it } from 'vitest';
import { StatusLine } from '../../src/tui/components/StatusLine.js';
import type { TuiBackend } from '../../src/tui/backend.js';
import type { LinkState } from '../../src/tui/daemon-link.js';
import { textWidth } from '../../src/util/text-width.js';
import { frameOf } from './frame-of.js';

// Only the two fields the status line reads.
const connected = { status: 'connected', backend: { origin: 'http://127.0.0.1:48123', pid: 123456 } as TuiBackend } as const satisfies LinkState;
const LOG_NOTICE = 'daemon log: /home/someone/.local/state/svc-proxy/daemon.log';

function frameAt(width: number, state: LinkState, opts: { notice?: string; foreground?: boolean } = {}): string {
  return frameOf(<StatusLine state={state} width={width} notice={opts.notice} foreground={opts.foreground} />);
}

describe('StatusLine', () => {
  it('has no line wider than the terminal at any width, in any state; the status is one line, a notice is there whole', () => {
    for (let width = 20; width <= 100; width++) {
      for (const [state, opts] of [
        [connected, { foreground: true, notice: LOG_NOTICE }],
        [connected, { notice: 'No daemon was running: started it.' }],
        [{ status: 'lost', reason: 'gone' }, { notice: LOG_NOTICE }],
        [{ status: 'connecting' }, {}],
      ] as const) {
        const lines = frameAt(width, state, opts).split('\n');
        for (const l of lines) expect(textWidth(l), `width ${width}: ${l}`).toBeLessThanOrEqual(width);
        const notice = 'notice' in opts ? opts.notice : undefined;
        if (!notice) expect(lines, `width ${width}`).toHaveLength(1);
        else expect(lines.join('').replace(/\s+/g, ''), `width ${width}`).toContain(notice.replace(/\s+/g, ''));
      }
    }
  });

  it('says everything where there is room', () => {
    expect(frameAt(100, connected, { foreground: true, notice: 'daemon log: /x' })).toBe('● daemon 127.0.0.1:48123 (pid 123456) · foreground: q stops it  daemon log: /x');
  });

  it('at 60 columns drops the pid before any of the foreground hint; a notice that does not fit beside goes whole on the next line', () => {
    const trimmed = (frame: string) => frame.split('\n').map((l) => l.trimEnd());
    expect(trimmed(frameAt(60, connected, { foreground: true, notice: LOG_NOTICE }))).toEqual(['● daemon 127.0.0.1:48123 · foreground: q stops it', LOG_NOTICE]);
    expect(trimmed(frameAt(60, connected, { notice: 'No daemon was running: started it.' }))).toEqual(['● daemon 127.0.0.1:48123 (pid 123456)', 'No daemon was running: started it.']);
  });

  it('at 40 columns keeps the address and that q stops the daemon, in shorter words; a long notice wraps', () => {
    const lines = frameAt(40, connected, { foreground: true, notice: LOG_NOTICE }).split('\n').map((l) => l.trimEnd());
    expect(lines).toEqual(['● daemon 127.0.0.1:48123 · q stops it', 'daemon log:', '/home/someone/.local/state/svc-proxy/dae', 'mon.log']);
    expect(frameAt(40, { status: 'lost', reason: 'gone' }, { notice: LOG_NOTICE }).split('\n')[0]!.trimEnd()).toBe('● daemon stopped — reconnecting…');
  });

  it('a notice past the lines it may take ends in …; with none to take it is left out', () => {
    const lines = frameOf(<StatusLine state={connected} width={20} notice={LOG_NOTICE} noticeLines={2} />).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[2]!.trimEnd().endsWith('…')).toBe(true);
    expect(frameOf(<StatusLine state={connected} width={20} notice={LOG_NOTICE} noticeLines={0} />).split('\n')).toHaveLength(1);
  });

  it('cuts what still does not fit with an ellipsis, not mid-word without one', () => {
    expect(frameAt(20, connected, { foreground: true }).trimEnd()).toBe('● 127.0.0.1:48123 ·…');
    expect(frameAt(20, { status: 'connecting' }).trimEnd()).toBe('connecting…');
  });
});
