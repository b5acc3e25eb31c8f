import { mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadIssuers, saveIssuersPeriodically } from '../../src/daemon/issuers-file.js';
import { ProofIssuers } from '../../src/routing/proof-issuers.js';

let dir: string;
let path: string;
let warnings: string[];
const warn = (m: string): void => void warnings.push(m);

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'svcp-issuers-'));
  path = join(dir, 'proof-issuers.json');
  warnings = [];
});
afterEach(() => rm(dir, { recursive: true, force: true }));

describe('proof issuers across a restart', () => {
  it('what was recorded is known again after a save and a load; the file is private', async () => {
    const issuers = await loadIssuers(path, warn);
    const saver = saveIssuersPeriodically(issuers, path, 60_000, warn);
    issuers.record('sig-glm', 'cb');
    issuers.record('sig-kimi', 'kimi');
    await saver.save();
    saver.stop();
    expect((await stat(path)).mode & 0o777).toBe(0o600);

    const again = await loadIssuers(path, warn);
    expect(again.foreignTo('sig-glm', 'anthropic')).toBe(true);
    expect(again.foreignTo('sig-glm', 'cb')).toBe(false);
    expect(again.foreignTo('sig-kimi', 'cb')).toBe(true);
    expect(again.foreignTo('never-seen', 'cb')).toBe(false);
    expect(await readFile(path, 'utf8')).not.toContain('sig-glm');
    expect(warnings).toEqual([]);
  });

  it('writes nothing until something changes, and nothing twice', async () => {
    const issuers = await loadIssuers(path, warn);
    const saver = saveIssuersPeriodically(issuers, path, 60_000, warn);
    await saver.save();
    await expect(stat(path)).rejects.toMatchObject({ code: 'ENOENT' });
    issuers.record('sig', 'cb');
    await saver.save();
    const first = (await stat(path)).mtimeMs;
    await rm(path);
    await saver.save();
    await expect(stat(path), 'unchanged since the last write').rejects.toMatchObject({ code: 'ENOENT' });
    saver.stop();
    expect(first).toBeGreaterThan(0);
  });

  it('a file that cannot be read is reported and the daemon starts without it; bad entries are skipped', async () => {
    await writeFile(path, '{not json');
    expect((await loadIssuers(path, warn)).size).toBe(0);
    expect(warnings[0]).toMatch(/could not read .*proof-issuers\.json/);

    const good = new ProofIssuers();
    good.record('sig', 'cb');
    await writeFile(path, JSON.stringify({ format: 1, entries: [...good.entries(), ['short', 'x'], [good.entries()[0]![0], ''], 'junk'] }));
    const loaded = await loadIssuers(path, warn);
    expect(loaded.size).toBe(1);
    expect(loaded.foreignTo('sig', 'anthropic')).toBe(true);

    await writeFile(path, JSON.stringify({ format: 2, entries: [] }));
    warnings = [];
    expect((await loadIssuers(path, warn)).size).toBe(0);
    expect(warnings).toHaveLength(1);
  });

  it('a write that fails is reported once, and the next one that works writes', async () => {
    const issuers = new ProofIssuers();
    const blocked = join(dir, 'missing-dir', 'proof-issuers.json');
    const saver = saveIssuersPeriodically(issuers, blocked, 60_000, warn);
    issuers.record('a', 'cb');
    await saver.save();
    issuers.record('b', 'cb');
    await saver.save();
    saver.stop();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/could not save/);
  });

  it('restored entries are older than those recorded since, and the bound still holds', () => {
    const saved = new ProofIssuers(3);
    for (const s of ['s1', 's2', 's3']) saved.record(s, 'old');
    const issuers = new ProofIssuers(3);
    issuers.record('fresh', 'new');
    issuers.restore(saved.entries());
    expect(issuers.size).toBe(3);
    expect(issuers.foreignTo('fresh', 'x'), 'recorded since start: kept').toBe(true);
    expect(issuers.foreignTo('s1', 'x'), 'the oldest saved one went').toBe(false);
    expect(issuers.foreignTo('s3', 'x')).toBe(true);
  });
});
