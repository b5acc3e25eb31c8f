/**
 * The Providers table at 40 columns says where each credential lives, or what is wrong with it, in
 * a word (`KEY`: keychain, file, env var, unusable, none, -), beside the name, whether it is
 * connected and its models; at 60 and 80 columns the whole credential shows as before. A real
 * in-process daemon: a key in its environment, one wrapped in quotes, one stored, an endpoint
 * without a key.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { NO_KEYCHAIN_ENV, removeTempDirs, testKeychainService } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';
import { lines, startTui } from './harness.js';

afterAll(removeTempDirs);

let daemon: InProcessDaemon | undefined;

// the key stored in the test process's keychain where there is one (a service of its own), else in the file
async function daemonWithCredentials(): Promise<InProcessDaemon> {
  daemon ??= await (async () => {
    const d = await startInProcess({
      env: { ...NO_KEYCHAIN_ENV, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService(), OPENAI_API_KEY: 'sk-openai-narrow-env-1234', ANTHROPIC_API_KEY: '"sk-ant-quoted-narrow-9999"' },
    });
    expect((await d.admin('PUT', '/admin/providers/gemini/credential', { credential: 'gemini-narrow-stored-5678', insecureStorage: true })).status).toBe(200);
    expect((await d.admin('POST', '/admin/endpoints', { slug: 'corp', url: 'http://127.0.0.1:9/v1', format: 'a' })).status).toBe(201);
    return d;
  })();
  return daemon;
}

async function tableAt(columns: number): Promise<string[]> {
  const h = await startTui({ daemon: await daemonWithCredentials(), initialScreen: 'providers', size: { columns, rows: 24 } });
  try {
    const frame = await h.waitFor((f) => lines(f).some((l) => l.startsWith('corp ')), `the providers at ${columns}`);
    for (const l of lines(frame)) expect(l.length, `${columns}: ${l}`).toBeLessThanOrEqual(columns);
    const all = lines(frame).map((l) => l.trimEnd());
    const from = all.findIndex((l) => l.startsWith('NAME'));
    return all.slice(from, from + 6);
  } finally {
    await h.close();
  }
}

describe('the Providers table by width', () => {
  afterAll(async () => {
    await daemon?.daemon.stop('test over');
  });

  it('at 40 columns: the name, connected, where the key lives or what is wrong in a word, the models', async () => {
    const t = await tableAt(40);
    const what = t.join('\n');
    expect(t[0], what).toMatch(/^NAME +CONNECTED +KEY +MODELS$/);
    expect(t[1], what).toMatch(/^anthropic +no +unusable +-$/);
    expect(t[2], what).toMatch(/^openai +yes +env var +\S+$/);
    expect(t[3], what).toMatch(/^openrouter +no +- +-$/);
    expect(t[4], what).toMatch(/^gemini +yes +(keychain|file) +\S+$/);
    expect(t[5], what).toMatch(/^corp +yes +none +\S+$/);
  });

  it('at 60 and 80 columns: the whole credential, its last four included', async () => {
    const at60 = await tableAt(60);
    let what = at60.join('\n');
    // the stored key's wording is 6 cells shorter in the keychain than in the file: LAST ERROR fits then
    expect(at60[0], what).toMatch(/^NAME +CONNECTED +CREDENTIAL +MODELS( +LAST ERROR)?$/);
    expect(at60[1], what).toMatch(/^anthropic +no +env var unusable +-( +-)?$/);
    expect(at60[2], what).toMatch(/^openai +yes +env var …1234 +\S+( +-)?$/);
    expect(at60[4], what).toMatch(/^gemini +yes +(keychain …5678|file \(insecure\) …5678) +\S+( +-)?$/);
    expect(at60[5], what).toMatch(/^corp +yes +none needed +\S+( +-)?$/);

    const at80 = await tableAt(80);
    what = at80.join('\n');
    // a credential this long leaves the base URL no room even cut (it is in the lines below)
    expect(at80[0], what).toMatch(/^NAME +KIND +CONNECTED +CREDENTIAL +MODELS +LAST ERROR$/);
    expect(at80[1], what).toMatch(/^anthropic +built-in +no +env var unusable +- +-$/);
    expect(at80[4], what).toMatch(/^gemini +built-in +yes +(keychain …5678|file \(insecure\) …5678) +\S+ +-$/);
  });
});
