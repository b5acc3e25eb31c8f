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
  it('is one line no wider than the terminal at every width, in every state', () => {
    for (let width = 20; width <= 100; width++) {
      for (const [state, opts] of [
        [connected, { foreground: true, notice: LOG_NOTICE }],
        [connected, { notice: 'No daemon was running: started it.' }],
        [{ status: 'lost', reason: 'gone' }, { notice: LOG_NOTICE }],
        [{ status: 'connecting' }, {}],
      ] as const) {
        const frame = frameAt(width, state, opts);
        expect(frame.split('\n'), `width ${width}`).toHaveLength(1);
        expect(textWidth(frame), `width ${width}: ${frame}`).toBeLessThanOrEqual(width);
      }
    }
  });

  it('says everything where there is room', () => {
    expect(frameAt(100, connected, { foreground: true, notice: 'daemon log: /x' })).toBe('● daemon 127.0.0.1:48123 (pid 123456) · foreground: q stops it  daemon log: /x');
  });

  it('at 60 columns drops the pid and the notice before any of the foreground hint', () => {
    expect(frameAt(60, connected, { foreground: true, notice: LOG_NOTICE }).trimEnd()).toBe('● daemon 127.0.0.1:48123 · foreground: q stops it');
    expect(frameAt(60, connected, { notice: 'No daemon was running: started it.' }).trimEnd()).toBe('● daemon 127.0.0.1:48123 (pid 123456)  No daemon was runnin…');
  });

  it('at 40 columns keeps the address and that q stops the daemon, in shorter words', () => {
    expect(frameAt(40, connected, { foreground: true, notice: LOG_NOTICE }).trimEnd()).toBe('● daemon 127.0.0.1:48123 · q stops it');
    expect(frameAt(40, { status: 'lost', reason: 'gone' }, { notice: LOG_NOTICE }).trimEnd()).toBe('● daemon stopped — reconnecting…');
  });

  it('cuts what still does not fit with an ellipsis, not mid-word without one', () => {
    expect(frameAt(20, connected, { foreground: true }).trimEnd()).toBe('● 127.0.0.1:48123 ·…');
    expect(frameAt(20, { status: 'connecting' }).trimEnd()).toBe('connecting…');
  });
});
