import { defineConfig } from 'vitest/config';

/**
 * Test files that must each have a process of their own: end-to-end tests and memory tests start
 * daemons and measure them, and these change what every later file in the same process would see
 * (a mocked module, environment variables read at import).
 */
const OWN_PROCESS = [
  'test/e2e/**/*.test.ts',
  'test/daemon/heap-give-back.test.ts',
  'test/daemon/reduce-heap.test.ts',
  'test/server/admin/lazy-listener.test.ts', // vi.mock
  'test/hardening/constant-time.test.ts', // vi.mock of node:crypto
  'test/cli/config-check-one-read.test.ts', // vi.mock of node:fs/promises
  'test/cli/tool-key-save-fallback.test.ts', // vi.mock of the tool-keys.json check
  'test/daemon/state-file-watch-error.test.ts', // vi.mock of node:fs
  'test/tui/key-create-no-answer.test.tsx', // vi.mock of the create's 15 s wait (shared, an earlier file's import keeps the real one)
  'test/tui/providers-screen.test.tsx', // DBUS_SESSION_BUS_ADDRESS pointed nowhere
  'test/tui/providers-slow-connect.test.tsx', // DBUS_SESSION_BUS_ADDRESS pointed nowhere
  'test/tui/no-color.test.tsx', // FORCE_COLOR
  'test/tui/text-field-keys.test.tsx', // FORCE_COLOR
  // compare V8 hidden classes: files run before them in a shared process fill the transition trees
  'test/protocols/hidden-classes.test.ts',
  'test/protocols/hidden-classes-per-stream.test.ts',
  'test/routing/usage-hidden-class.test.ts',
  'test/routing/thought-signature-hidden-class.test.ts',
];

const ALL = ['test/**/*.test.ts', 'test/**/*.test.tsx'];

export default defineConfig({
  test: {
    pool: 'forks',
    // fails the run when a test left entries in the default keychain service (see the file)
    globalSetup: ['test/default-keychain-guard.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // e2e tests spawn real daemons; keep parallelism modest on a 2-core box. Three, not two: many
    // e2e and memory files spend much of their time waiting (for a daemon to go idle, for a tool to
    // start), and a third worker fills that time — 297 s → 266 s for the suite on the 2-core VM.
    maxWorkers: 3,
    projects: [
      {
        extends: true,
        // Unit files share a worker process one after another: importing the sources and vitest
        // again for each of ~160 files cost about a minute of the run (157 s → 97 s for them).
        test: { name: 'unit', include: ALL, exclude: OWN_PROCESS, isolate: false },
      },
      { extends: true, test: { name: 'isolated', include: OWN_PROCESS, isolate: true } },
    ],
  },
});
