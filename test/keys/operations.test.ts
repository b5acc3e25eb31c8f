import { readFile } from 'node:fs/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { OperationError } from '../../src/config/errors.js';
import { statePaths } from '../../src/config/paths.js';
import { ConfigStore } from '../../src/config/store.js';
import { hashServiceKey } from '../../src/keys/format.js';
import { createKey, listKeys, revokeKey, writeLastUsed } from '../../src/keys/operations.js';
import { KeyVerifier } from '../../src/keys/verifier.js';
import { removeTempDirs, tempStateDir } from '../daemon/harness.js';

afterEach(removeTempDirs);

async function store() {
  const paths = statePaths(await tempStateDir());
  return { paths, store: await ConfigStore.open(paths) };
}

describe('key operations', () => {
  it('stores only the hash and the prefix; the key itself is returned once', async () => {
    const { paths, store: s } = await store();
    const created = await createKey(s, 'laptop-claude');
    expect(created.key).toMatch(/^sk-svc-proxy-/);
    const text = await readFile(paths.config, 'utf8');
    expect(text).not.toContain(created.key);
    expect(text).toContain(hashServiceKey(created.key));
    const [info] = listKeys(s.current());
    expect(info).toEqual({
      id: created.id,
      name: 'laptop-claude',
      prefix: created.prefix,
      created: created.created,
      lastUsed: null,
      state: 'active',
      revoked: null,
    });
    expect(JSON.stringify(listKeys(s.current()))).not.toContain(created.key);
  });

  it('validates names and refuses a second active key with the same name', async () => {
    const { store: s } = await store();
    await expect(createKey(s, '')).rejects.toMatchObject({ status: 400, code: 'invalid_key_name' });
    await expect(createKey(s, 'x'.repeat(65))).rejects.toMatchObject({ code: 'invalid_key_name' });
    await expect(createKey(s, 'bad\u0007name')).rejects.toMatchObject({ code: 'invalid_key_name' });
    // half of an emoji (a field that cut a surrogate pair): not text, and says so
    for (const half of ['laptop\ud83d', 'x\udc4dy']) {
      await expect(createKey(s, half)).rejects.toMatchObject({ status: 400, code: 'invalid_key_name', message: expect.stringMatching(/half of a character/) });
    }
    expect((await createKey(s, 'laptop 👍🏽')).name).toBe('laptop 👍🏽');
    // shaped like an id, which key revoke would read as another key's
    const other = await createKey(s, 'real');
    await expect(createKey(s, other.id)).rejects.toMatchObject({ code: 'invalid_key_name' });
    expect((await createKey(s, 'key_short')).name).toBe('key_short');
    await createKey(s, 'dup');
    await expect(createKey(s, 'dup')).rejects.toMatchObject({ status: 409, code: 'key_name_taken' });
  });

  it('revokes by id or by name, says when a key was already revoked, and 404s unknown keys', async () => {
    const { store: s } = await store();
    const a = await createKey(s, 'a');
    const b = await createKey(s, 'b');
    expect(await revokeKey(s, a.id)).toMatchObject({ id: a.id, alreadyRevoked: false });
    expect(await revokeKey(s, 'b')).toMatchObject({ id: b.id, alreadyRevoked: false });
    expect(await revokeKey(s, 'b')).toMatchObject({ id: b.id, alreadyRevoked: true });
    await expect(revokeKey(s, 'nope')).rejects.toMatchObject({ status: 404, code: 'key_not_found' });
    await expect(revokeKey(s, '  ')).rejects.toBeInstanceOf(OperationError);
    expect(listKeys(s.current()).map((k) => k.state)).toEqual(['revoked', 'revoked']);
  });

  it('lets a revoked name be reused; revoking the name then hits the active key', async () => {
    const { store: s } = await store();
    const old = await createKey(s, 'laptop');
    await revokeKey(s, 'laptop');
    const fresh = await createKey(s, 'laptop');
    const result = await revokeKey(s, 'laptop');
    expect(result.id).toBe(fresh.id);
    expect(result.id).not.toBe(old.id);
  });

  it('a revoke written to the store reaches a verifier listening for changes before it resolves', async () => {
    const { store: s } = await store();
    const created = await createKey(s, 'live');
    const verifier = new KeyVerifier(s.current().keys);
    s.onChange((c) => verifier.load(c.keys));
    expect(verifier.verify(created.key)).toBeDefined();
    await revokeKey(s, 'live');
    expect(verifier.verify(created.key)).toBeUndefined();
  });

  it('writes last-used batches without moving times backwards', async () => {
    const { store: s } = await store();
    const k = await createKey(s, 'k');
    await writeLastUsed(s, new Map([[k.id, Date.parse('2026-05-01T00:00:00Z')]]));
    await writeLastUsed(s, new Map([[k.id, Date.parse('2026-04-01T00:00:00Z')]]));
    expect(s.current().keys[0]?.lastUsed).toBe('2026-05-01T00:00:00.000Z');
    expect(listKeys(s.current(), () => Date.parse('2026-06-01T00:00:00Z'))[0]?.lastUsed).toBe('2026-06-01T00:00:00.000Z');
  });
});
