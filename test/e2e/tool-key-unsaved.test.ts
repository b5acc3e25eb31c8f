/**
 * `svc-proxy env <tool>` beside a running daemon, where the key it makes cannot be saved in
 * tool-keys.json: the key is revoked again through the daemon's admin API, and the save error is
 * what the command reports. (Without a daemon the same is in test/cli/env.test.ts.)
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
  it('is revoked again by the daemon and the save error reported, exit 1', async () => {
    await mkdir(join(d.home, 'tool-keys.json'));
    const res = await d.cli(['env', 'codex'], { allowFail: true });
    expect(res.code).toBe(1);
    expect(res.stdout).toBe('');
    expect(res.stderr).toMatch(/created key "codex" \(key_\w+\) but could not save it in .*tool-keys\.json, so it is revoked again\. Why it could not be saved:\nsvc-proxy: Cannot save the key in .*tool-keys\.json: it is a folder, not a file\. Move that folder away/);
    const keys = JSON.parse((await d.cli(['key', 'list', '--json'])).stdout) as Array<{ name: string; state: string }>;
    expect(keys.map((k) => [k.name, k.state])).toEqual([
      ['e2e', 'active'],
      ['codex', 'revoked'],
    ]);
    expect((await fetch(`${d.origin}/health`)).status).toBe(200);
  });
});
