/** The reconnect loop against real in-process daemons: lost, retried, found again (new port and token). */
import { afterAll, describe, expect, it } from 'vitest';
import { AdminClient } from '../../src/cli/admin-client.js';
import { DaemonLink, type LinkState } from '../../src/tui/daemon-link.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';
import { startInProcess } from '../daemon/in-process.js';
import { statePaths } from '../../src/config/paths.js';

afterAll(removeTempDirs);

function until(link: DaemonLink, check: (s: LinkState) => boolean, ms = 5_000): Promise<LinkState> {
  return new Promise((resolve, reject) => {
    if (check(link.state)) return resolve(link.state);
    const timer = setTimeout(() => reject(new Error(`link state stayed ${JSON.stringify(link.state)}`)), ms);
    const off = link.subscribe((s) => {
      if (check(s)) {
        clearTimeout(timer);
        off();
        resolve(s);
      }
    });
  });
}

describe('DaemonLink', () => {
  it('waits for a daemon, connects, notices a lost one through a failed call, and reconnects', async () => {
    const dir = await tempStateDir();
    const link = new DaemonLink({ open: () => AdminClient.connect(statePaths(dir), null), retryMs: 50 });
    link.start();
    const lost = await until(link, (s) => s.status === 'lost');
    expect(lost).toMatchObject({ reason: 'no daemon is running' });

    const first = await startInProcess({ stateDir: dir });
    const connected = await until(link, (s) => s.status === 'connected');
    const backend = connected.status === 'connected' ? connected.backend : undefined;
    expect(backend?.origin).toBe(first.origin);
    expect((await backend!.management.listKeys()).length).toBe(0);

    await first.daemon.stop('test');
    // A failed call is what tells the link (the log feed does too, in the app).
    await expect(backend!.status()).rejects.toThrow(/cannot reach the daemon/);
    expect(link.state.status).toBe('lost');
    // A loss reported for a backend that is no longer current changes nothing.
    link.lost(backend!, 'stale');

    const second = await startInProcess({ stateDir: dir });
    const again = await until(link, (s) => s.status === 'connected');
    expect(again.status === 'connected' && again.backend.origin).toBe(second.origin);
    expect(again.status === 'connected' && again.backend).not.toBe(backend);
    link.stop();
    await second.daemon.stop('test');
  });
});
