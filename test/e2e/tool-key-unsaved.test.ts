/**
 * `svc-proxy env <tool>` beside a running daemon, where a key it made could not be saved in
 * tool-keys.json: it finds that out first and makes no key; the save error is what the command
 * reports. (Without a daemon the same is in test/cli/env.test.ts; a save that fails after the
 * check passed, revoked again, is in test/cli/tool-key-save-fallback.test.ts.)
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';

let d: TestDaemon;
beforeAll(async () => {
  d = await startDaemon();
}, 60_000);
afterAll(() => stopDaemon(d));

describe('a tool key that cannot be saved, with a daemon running', () => {
  it('is not made, and the save error is reported, exit 1', async () => {
    await mkdir(join(d.home, 'tool-keys.json'));
    const res = await d.cli(['env', 'codex'], { allowFail: true });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/^svc-proxy: Cannot save the key in .*tool-keys\.json: it is a folder, not a file\. Move that folder away/m);
    expect(res.stderr).not.toContain('created key');
    const keys = JSON.parse((await d.cli(['key', 'list', '--json'])).stdout) as Array<{ name: string; state: string }>;
    expect(keys.map((k) => [k.name, k.state])).toEqual([['e2e', 'active']]);
    expect((await fetch(`${d.origin}/health`)).status).toBe(200);
  });
});
