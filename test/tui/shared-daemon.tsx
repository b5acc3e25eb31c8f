/** One in-process daemon for a whole test file, and TUIs on it at the sizes the tests ask; all closed for them. */
import { afterAll, afterEach, beforeAll } from 'vitest';
import { removeTempDirs } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';
import { startTui, type TuiHarness } from './harness.js';

export function tuiOnSharedDaemon(setup?: (d: InProcessDaemon) => Promise<void> | void): { open(columns: number, rows: number): Promise<TuiHarness> } {
  let d: InProcessDaemon;
  let h: TuiHarness | undefined;
  const close = async () => {
    await h?.close();
    h = undefined;
  };
  beforeAll(async () => {
    d = await startInProcess();
    await setup?.(d);
  });
  afterEach(close);
  afterAll(async () => {
    await d.daemon.stop('tests over');
    await removeTempDirs();
  });
  return {
    /** A TUI of `columns`×`rows` (the one opened before is closed first). */
    async open(columns, rows) {
      await close();
      h = await startTui({ daemon: d, size: { columns, rows } });
      return h;
    },
  };
}
