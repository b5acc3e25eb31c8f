import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/config/migrations.js';
import { CONFIG_VERSION } from '../../src/config/schema.js';

describe('migrate', () => {
  it('leaves a current file alone', () => {
    const raw = { version: CONFIG_VERSION, settings: { port: 1 } };
    expect(migrate(raw)).toEqual({ raw, migrated: false });
  });

  it('treats a file without a version as version 1', () => {
    const { raw, migrated } = migrate({ port: 4000 });
    expect(migrated).toBe(true);
    expect(raw).toMatchObject({ version: CONFIG_VERSION, settings: { port: 4000 } });
    expect(raw).not.toHaveProperty('port');
  });

  it('rejects nonsense versions and future versions', () => {
    expect(() => migrate({ version: 'two' })).toThrow(/positive integer/);
    expect(() => migrate({ version: 0 })).toThrow(/positive integer/);
    expect(() => migrate({ version: CONFIG_VERSION + 3 })).toThrow(/newer svc-proxy/);
  });
});
