import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { statePaths } from '../../src/config/paths.js';
import { http, keychainAvailability, removeTempDirs, runCli, tempStateDir, testKeychainService } from '../daemon/harness.js';
import { startInProcess, type InProcessDaemon } from '../daemon/in-process.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { freePort } from '../fixtures/ports.js';

const keychainOk = (await keychainAvailability()).ok;
let home: string;
let env: Record<string, string>;
const cli = (args: string[], input?: string) => runCli(args, { env, input });

beforeEach(async () => {
  home = await tempStateDir();
  env = { SVC_PROXY_HOME: home, SVC_PROXY_KEYCHAIN_SERVICE: testKeychainService() };
});
afterAll(removeTempDirs);

describe('CLI basics and exit codes', () => {
  it('--version prints the package version', async () => {
    const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(await cli(['--version'])).toEqual({ code: 0, stdout: `${pkg.version}\n`, stderr: '' });
  });

  it('--help is 0; no command, unknown commands and options, missing arguments and bad values are 2', async () => {
    const help = await cli(['--help']);
    expect(help.code).toBe(0);
    for (const name of ['start', 'stop', 'status', 'key', 'provider', 'endpoint', 'local']) expect(help.stdout).toContain(name);
    expect((await cli([])).code).toBe(2);
    const unknown = await cli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command/);
    expect((await cli(['key', 'list', '--bogus'])).code).toBe(2);
    expect((await cli(['key', 'revoke'])).code).toBe(2);
    expect((await cli(['key', 'create'])).code).toBe(2);
    expect((await cli(['key'])).code).toBe(2);
    expect((await cli(['start', '--port', 'eighty'])).code).toBe(2);
    expect((await cli(['endpoint', 'add', 'x', '--url', 'http://x', '--format', 'c', '--no-credential'])).code).toBe(2);
    expect((await cli(['endpoint', 'add', 'x', '--format', 'a', '--no-credential'])).code).toBe(2);
    expect((await cli(['provider', 'set', 'openai'])).code).toBe(2);
    expect((await cli(['local', 'add', 'x', '--url', 'not-a-url'])).code).toBe(2);
  });

  it('stops quietly (exit 0, no stack trace) when the reader of its output goes away, as with `| head -1`', async () => {
    const { spawn } = await import('node:child_process');
    const bin = new URL('../../bin/svc-proxy.cjs', import.meta.url).pathname;
    const child = spawn(process.execPath, [bin, 'env', '--list'], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    // the read end is closed long before node has started and written: its first write meets EPIPE
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });

  it('an unknown provider and an empty --base-url are usage errors (2); endpoint add refuses a built-in or taken name before asking the key', async () => {
    for (const args of [['provider', 'connect', 'nope'], ['provider', 'disconnect', 'nope'], ['provider', 'set', 'nope', '--reset']]) {
      const res = await cli(args, '');
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain('Unknown provider "nope"');
    }
    const empty = await cli(['provider', 'set', 'openai', '--base-url', '']);
    expect(empty).toMatchObject({ code: 2, stderr: 'svc-proxy: --base-url needs a URL; --reset restores the default.\n' });
    // stdin stays open and silent: a prompt read first would wait 15 s for a key
    const { main } = await import('../../src/cli/main.js');
    const { PassThrough } = await import('node:stream');
    let stderr = '';
    const io = { stdout: { write: () => true }, stderr: { write: (t: string) => (stderr += t) }, stdin: new PassThrough(), env };
    const started = Date.now();
    // a built-in provider's name can never be a slug: a usage error, naming the reserved names
    expect(await main(['node', 'svc-proxy', 'endpoint', 'add', 'anthropic', '--url', 'http://127.0.0.1:9/v1', '--format', 'a'], io)).toBe(2);
    expect(stderr).toContain('"anthropic" is a built-in provider\'s name, which an endpoint or local server cannot take (reserved: anthropic, openai, openrouter, gemini); pick another name.');
    // a slug another upstream has is refused as things stand (1): it is free again once that one is removed
    expect((await cli(['local', 'add', 'mine', '--url', 'http://127.0.0.1:9/v1'])).code).toBe(0);
    stderr = '';
    expect(await main(['node', 'svc-proxy', 'endpoint', 'add', 'mine', '--url', 'http://127.0.0.1:9/v1', '--format', 'a'], io)).toBe(1);
    expect(stderr).toContain('A local server named "mine" already exists (svc-proxy local remove mine first).');
    expect(await main(['node', 'svc-proxy', 'endpoint', 'add', 'fine', '--url', 'localhost:9/v1', '--format', 'a'], io)).toBe(2);
    expect(stderr).toContain('has no scheme');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('a daemon that takes the connection and never answers is named, with what to do; status gives up after 5 s', async () => {
    const { createServer } = await import('node:net');
    const { AdminClient, STATUS_TIMEOUT_MS } = await import('../../src/cli/admin-client.js');
    const silent = createServer(() => {});
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const port = (silent.address() as { port: number }).port;
    const client = new AdminClient({ pid: 4242, host: '127.0.0.1', port, startedAt: '', version: '0', origin: `http://127.0.0.1:${port}` }, 'token');
    try {
      await expect(client.request('GET', '/admin/status', undefined, 200)).rejects.toThrow(`The daemon (pid 4242) does not answer (no answer from 127.0.0.1:${port} within 200 ms); if it stays so: svc-proxy restart`);
      // `status` waits for a status answer far less than for an operation's
      await expect(client.status()).rejects.toThrow(`no answer from 127.0.0.1:${port} within ${STATUS_TIMEOUT_MS} ms`);
    } finally {
      silent.close();
    }
  });

  it('disconnect through a daemon from before the group warning still works, without one', async () => {
    const { createServer } = await import('node:http');
    const { AdminClient } = await import('../../src/cli/admin-client.js');
    // answers as a daemon did before disconnect listed the groups
    const old = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.method === 'DELETE' && req.url === '/admin/providers/openai/credential' ? JSON.stringify({ name: 'openai', removedFrom: ['keychain'] }) : '{}');
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    const port = (old.address() as { port: number }).port;
    const client = new AdminClient({ pid: 4242, host: '127.0.0.1', port, startedAt: '', version: '0', origin: `http://127.0.0.1:${port}` }, 'token');
    try {
      expect(await client.disconnectProvider('openai')).toEqual({ name: 'openai', removedFrom: ['keychain'], stillUsedBy: [] });
    } finally {
      old.close();
    }
  });

  it('removing an endpoint or a local server through a daemon from before the group warning still works', async () => {
    const { createServer } = await import('node:http');
    const { AdminClient } = await import('../../src/cli/admin-client.js');
    // answers as a daemon did before removals listed the groups
    const old = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      if (req.method === 'DELETE' && req.url === '/admin/endpoints/corp') res.end(JSON.stringify({ slug: 'corp', removedCredentialFrom: [] }));
      else if (req.method === 'DELETE' && req.url === '/admin/locals/lm') res.end(JSON.stringify({ slug: 'lm' }));
      else res.end('{}');
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    const port = (old.address() as { port: number }).port;
    const client = new AdminClient({ pid: 4242, host: '127.0.0.1', port, startedAt: '', version: '0', origin: `http://127.0.0.1:${port}` }, 'token');
    try {
      expect(await client.removeEndpoint('corp')).toEqual({ slug: 'corp', removedCredentialFrom: [], stillUsedBy: [] });
      expect(await client.removeLocal('lm')).toEqual({ slug: 'lm', stillUsedBy: [] });
    } finally {
      old.close();
    }
  });

  it('the model catalog of a daemon from before the list-failure codes reads as reasons without a code', async () => {
    const { createServer } = await import('node:http');
    const { AdminClient } = await import('../../src/cli/admin-client.js');
    const { listFailureText } = await import('../../src/providers/model-list-failure.js');
    // answers as a daemon did when `failed` held each reason alone
    const old = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(req.url === '/admin/models?provider=gone' ? JSON.stringify({ models: [], counts: {}, failed: { gone: 'no answer within 3000 ms' } }) : '{}');
    });
    await new Promise<void>((r) => old.listen(0, '127.0.0.1', r));
    const port = (old.address() as { port: number }).port;
    const client = new AdminClient({ pid: 4242, host: '127.0.0.1', port, startedAt: '', version: '0', origin: `http://127.0.0.1:${port}` }, 'token');
    try {
      const answer = await client.models(['gone'], 5_000);
      expect(answer).toEqual({ models: [], counts: {}, failed: { gone: { reason: 'no answer within 3000 ms' } } });
      expect(listFailureText(answer.failed.gone!)).toBe('no answer within 3000 ms');
    } finally {
      old.close();
    }
  });

  it('a state dir that cannot be one is named with why and what to do, not an errno', async () => {
    const file = join(home, 'not-a-dir');
    await writeFile(file, 'x');
    for (const [dir, why] of [
      [file, 'a file (not a folder) is in the way'],
      [join(file, 'sub'), 'part of the path is a file, not a folder'],
    ] as const) {
      const res = await runCli(['key', 'create', '--name', 'x'], { env: { ...env, SVC_PROXY_HOME: dir } });
      expect(res.code).toBe(1);
      expect(res.stderr).toContain(`The state directory ${dir} cannot be used: ${why}. Set SVC_PROXY_HOME`);
    }
    const start = await runCli(['start', '--port', '0'], { env: { ...env, SVC_PROXY_HOME: file } });
    expect(start.code).toBe(1);
    expect(start.stderr).toContain('part of its path is a file, not a folder. Set SVC_PROXY_HOME');
  });

  it('`help <unknown>` says the command is unknown and exits 2, as `<unknown>` alone does, at every level', async () => {
    for (const [args, word] of [[['help', 'bogus'], 'bogus'], [['key', 'help', 'bogus'], 'bogus'], [['help', 'key', 'bogus'], 'bogus']] as const) {
      const res = await cli([...args]);
      expect(res.code).toBe(2);
      expect(res.stderr).toContain(`unknown command '${word}'`);
      expect(res.stdout).toBe('');
    }
    expect((await cli(['help', 'bogus'])).stderr).toBe((await cli(['bogus'])).stderr);
    // a known topic is still its help, exit 0
    for (const args of [['help', 'key'], ['key', 'help', 'create'], ['help', 'ui'], ['help']]) {
      const res = await cli(args);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain('Usage: svc-proxy');
    }
  });

  it('help for one command shows its options', async () => {
    const res = await cli(['help', 'endpoint']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('add');
    const sub = await cli(['endpoint', 'add', '--help']);
    expect(sub.stdout).toContain('--format');
  });

  it('help shows no empty defaults for repeatable options', async () => {
    for (const args of [['endpoint', 'add'], ['provider', 'set'], ['group', 'add']]) {
      const res = await cli([...args, '--help']);
      expect(res.code).toBe(0);
      expect(res.stdout).not.toMatch(/\(default: (\{\}|\[\])\)/);
    }
  });
});

describe('CLI without a daemon (edits config.json under its lock)', () => {
  it('stats on an empty log names the start of its window as its table does, not as an ISO string', async () => {
    const res = await cli(['stats', '--since', '1h']);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/^No requests since (\d{4}-\d\d-\d\d )?\d\d:\d\d:\d\d\.\n$/);
  });

  it('key create / list / revoke, text and --json', async () => {
    const created = await cli(['key', 'create', '--name', 'laptop-claude', '--json']);
    expect(created.code).toBe(0);
    const json = JSON.parse(created.stdout) as Record<string, string>;
    expect(Object.keys(json).sort()).toEqual(['created', 'id', 'key', 'name']);
    expect(json.key).toMatch(/^sk-svc-proxy-[0-9A-Za-z]{43}$/);

    const text = await cli(['key', 'create', 'second']);
    expect(text.stdout.trim()).toMatch(/^sk-svc-proxy-[0-9A-Za-z]{43}$/);
    expect(text.stderr).toMatch(/not shown again/);

    const list = await cli(['key', 'list']);
    expect(list.stdout).toMatch(/ID\s+NAME\s+PREFIX\s+CREATED\s+LAST USED\s+STATE/);
    expect(list.stdout).toContain('laptop-claude');
    expect(list.stdout).not.toContain(json.key);
    const listJson = JSON.parse((await cli(['key', 'list', '--json'])).stdout) as Array<Record<string, unknown>>;
    expect(listJson.map((k) => k.name)).toEqual(['laptop-claude', 'second']);
    expect(JSON.stringify(listJson)).not.toContain(json.key);

    expect((await cli(['key', 'revoke', 'laptop-claude'])).stdout).toMatch(/revoked/);
    const again = JSON.parse((await cli(['key', 'revoke', json.id as string, '--json'])).stdout);
    expect(again).toMatchObject({ alreadyRevoked: true });
    const missing = await cli(['key', 'revoke', 'nobody']);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/No key with id or name "nobody"/);
    expect((await cli(['key', 'create', '--name', 'second'])).code).toBe(1);
  });

  it('provider list / set / connect from stdin / disconnect', async () => {
    const list = JSON.parse((await cli(['provider', 'list', '--json'])).stdout) as Array<{ name: string; connected: boolean }>;
    expect(list.map((p) => p.name)).toEqual(['anthropic', 'openai', 'openrouter', 'gemini']);
    expect(list.every((p) => !p.connected)).toBe(true);

    const set = await cli(['provider', 'set', 'anthropic', '--base-url', 'http://127.0.0.1:9/']);
    expect(set.stdout).toContain('http://127.0.0.1:9');
    expect(JSON.parse(await readFile(join(home, 'config.json'), 'utf8')).providers.anthropic.baseUrl).toBe('http://127.0.0.1:9');
    expect((await cli(['provider', 'set', 'anthropic', '--reset', '--json'])).stdout).toContain('"overridden": false');

    const empty = await cli(['provider', 'connect', 'openai'], '');
    expect(empty.code).toBe(1);
    expect(empty.stderr).toMatch(/No key given/);
    expect((await cli(['provider', 'connect', 'mistral'], 'x')).code).toBe(2); // an invalid argument, as README's exit codes say

    const connected = await cli(['provider', 'connect', 'openai', '--insecure-storage', '--json'], 'sk-openai-from-stdin-7777\n');
    expect(connected.code).toBe(0);
    expect(connected.stdout).not.toContain('sk-openai-from-stdin-7777');
    expect(JSON.parse(connected.stdout)).toMatchObject({ name: 'openai', storedIn: keychainOk ? 'keychain' : 'file', last4: '7777' });
    const table = (await cli(['provider', 'list'])).stdout;
    expect(table).toMatch(new RegExp(`openai\\s+yes\\s+${keychainOk ? 'keychain' : 'file \\(insecure\\)'} …7777`));
    expect(table).not.toContain('sk-openai-from-stdin');

    const gone = await cli(['provider', 'disconnect', 'openai']);
    expect(gone.stdout).toMatch(/openai disconnected/);
    // nothing left to remove: an error that says so, as `endpoint remove` of a name not there is
    const twice = await cli(['provider', 'disconnect', 'openai']);
    expect(twice.code).toBe(1);
    expect(twice.stdout).toBe('');
    expect(twice.stderr).toEqual(
      keychainOk ? 'svc-proxy: openai is not connected: no key is stored for it, so nothing was removed.\n' : expect.stringMatching(/^svc-proxy: Nothing removed: no key for openai in the 0600 file, and the OS keychain could not be checked/),
    );
  });

  it.skipIf(keychainOk)('without a keychain, connect explains --insecure-storage and stores nothing', async () => {
    const res = await cli(['provider', 'connect', 'anthropic'], 'sk-ant-nokeychain-0001\n');
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/--insecure-storage/);
    expect(res.stderr).not.toContain('sk-ant-nokeychain');
    await expect(readFile(statePaths(home).credentialsFile, 'utf8')).rejects.toThrow();
  });

  it('shows the environment override in provider list', async () => {
    const res = await runCli(['provider', 'list', '--json'], { env: { ...env, ANTHROPIC_API_KEY: 'sk-ant-env-5678abcd' } });
    expect(JSON.parse(res.stdout)[0]).toMatchObject({ name: 'anthropic', connected: true, source: 'env', last4: 'abcd' });
  });

  it("provider list without a daemon says the environment shown is this shell's, only when a variable counts", async () => {
    const withVars = await runCli(['provider', 'list'], { env: { ...env, ANTHROPIC_API_KEY: 'sk-ant-env-5678abcd', OPENAI_API_KEY: '"sk-proj-quoted-Secret_Cl1"' } });
    expect(withVars.stdout).toMatch(/anthropic\s+yes\s+env …abcd/);
    expect(withVars.stdout).toContain('openai: OPENAI_API_KEY, which the daemon reads for openai, is wrapped in quotes');
    expect(withVars.stderr).toBe("note: no daemon is running, so the environment variables shown are this shell's; a daemon reads those of the environment it is started in.\n");
    expect(withVars.stdout + withVars.stderr).not.toContain('Secret_Cl1');
    expect((await cli(['provider', 'list'])).stderr).toBe('');
  });

  it('endpoint add (credential from stdin or none) / list / remove', async () => {
    const added = await cli(['endpoint', 'add', 'vllm', '--url', 'http://127.0.0.1:8000/v1', '--format', 'a', '--insecure-storage', '--json'], 'vllm-token-9999\n');
    expect(added.code).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ slug: 'vllm', format: 'a', hasCredential: true, last4: '9999' });
    const none = await cli(['endpoint', 'add', 'claude-gw', '--url', 'https://gw.example', '--format', 'b'], '');
    expect(none.stdout).toMatch(/no key/);
    const skip = await cli(['endpoint', 'add', 'quiet', '--url', 'https://q.example', '--format', 'a', '--no-credential']);
    expect(skip.code).toBe(0);
    const taken = await cli(['endpoint', 'add', 'anthropic', '--url', 'http://x', '--format', 'b', '--no-credential']);
    expect(taken.code).toBe(2);
    expect(taken.stderr).toMatch(/built-in provider/);
    const list = JSON.parse((await cli(['endpoint', 'list', '--json'])).stdout) as Array<{ slug: string }>;
    expect(list.map((e) => e.slug)).toEqual(['vllm', 'claude-gw', 'quiet']);
    expect((await cli(['endpoint', 'list'])).stdout).toMatch(/vllm\s+a\s+http:\/\/127\.0\.0\.1:8000\/v1/);
    expect((await cli(['endpoint', 'remove', 'vllm'])).code).toBe(0);
    expect((await cli(['endpoint', 'remove', 'vllm'])).code).toBe(1);
  });

  it('endpoint add --auth-header / --header: stored, listed, and refused for auth or client-owned headers before the key is asked for', async () => {
    const added = await cli(
      ['endpoint', 'add', 'azure', '--url', 'https://res.openai.azure.com/openai/v1', '--format', 'a', '--insecure-storage', '--auth-header', 'API-Key', '--header', 'x-team=ml', '--header', 'OpenAI-Project=proj_1=a', '--json'],
      'az-key-4321\n',
    );
    expect(added.code, added.stderr).toBe(0);
    expect(JSON.parse(added.stdout)).toMatchObject({ slug: 'azure', hasCredential: true, authHeader: 'api-key', headers: { 'x-team': 'ml', 'openai-project': 'proj_1=a' } });
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { endpoints: Record<string, unknown> };
    expect(config.endpoints.azure).toMatchObject({ authHeader: 'api-key', headers: { 'x-team': 'ml', 'openai-project': 'proj_1=a' } });
    expect(JSON.stringify(config)).not.toContain('az-key-4321');
    expect((await cli(['endpoint', 'list'])).stdout).toMatch(/azure\s+a\s+\S+\s+(keychain|file)( …4321)? as api-key\s+x-team, openai-project/);
    for (const [args, message] of [
      [['--header', 'Authorization=Basic abc'], '--header: authorization cannot be a fixed header (a credential goes in the keychain: store the key and name the header that carries it as the auth header).'],
      [['--header', 'content-type=text/plain'], '--header: content-type cannot be a fixed header (the HTTP client sets it).'],
      [['--header', 'x-team'], '--header "x-team" must be name=value.'],
      [['--header', 'bad name=1'], '--header: "bad name" is not a header name.'],
      [['--auth-header', 'host'], '--auth-header: host cannot carry the credential.'],
      [['--auth-header', 'api-key', '--header', 'api-key=x'], '--header: api-key cannot be a fixed header (a credential goes in the keychain: store the key and name the header that carries it as the auth header).'],
    ] as const) {
      // no stdin: a refusal after asking for the key would hang on the prompt, not exit 2
      const res = await cli(['endpoint', 'add', 'bad', '--url', 'https://x.example', '--format', 'a', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(message);
    }
    expect(JSON.parse((await cli(['endpoint', 'list', '--json'])).stdout).map((e: { slug: string }) => e.slug)).toEqual(['azure']);
  });

  it('provider set --auth-header keeps a credential a hand-edited config holds in a fixed header, which it only ever shows as ***', async () => {
    const held = 'AIzaSyHandEditedHeldCli0123456789abcdef';
    await writeFile(join(home, 'config.json'), JSON.stringify({ version: 2, providers: { gemini: { enabled: true, headers: { 'x-goog-api-key': held, 'x-team': 'ml' } } } }));
    const set = await cli(['provider', 'set', 'gemini', '--auth-header', 'x-gw-key', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ name: 'gemini', authHeader: 'x-gw-key', headers: { 'x-goog-api-key': '***', 'x-team': 'ml' } });
    const listed = await cli(['provider', 'list', '--json']);
    expect(`${set.stdout}${set.stderr}${listed.stdout}`).not.toContain(held);
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { providers: Record<string, unknown> };
    expect(config.providers.gemini).toEqual({ enabled: true, authHeader: 'x-gw-key', headers: { 'x-goog-api-key': held, 'x-team': 'ml' } });
  });

  it('provider set --header name=*** keeps the value a header shown masked holds (x-session-affinity is masked by its name), so other headers can be edited', async () => {
    await writeFile(join(home, 'config.json'), JSON.stringify({ version: 2, providers: { openai: { enabled: true, headers: { 'x-session-affinity': 'pool-7', 'x-team': 'ml' } } } }));
    const listed = JSON.parse((await cli(['provider', 'list', '--json'])).stdout) as Array<{ name: string; headers?: Record<string, string> }>;
    expect(listed.find((p) => p.name === 'openai')?.headers).toEqual({ 'x-session-affinity': '***', 'x-team': 'ml' });
    const set = await cli(['provider', 'set', 'openai', '--header', 'x-session-affinity=***', '--header', 'x-team=infra', '--json']);
    expect(set.code, set.stderr).toBe(0);
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { providers: Record<string, unknown> };
    expect(config.providers.openai).toEqual({ enabled: true, headers: { 'x-session-affinity': 'pool-7', 'x-team': 'infra' } });
    const fresh = await cli(['provider', 'set', 'openai', '--header', 'x-new=***', '--json']);
    expect(fresh.code).toBe(2);
    expect(JSON.parse(fresh.stdout)).toMatchObject({ error: { code: 'invalid_header', message: expect.stringContaining('x-new') } });
    expect(JSON.stringify(JSON.parse(await readFile(join(home, 'config.json'), 'utf8')))).not.toContain('"***"');
  });

  it('provider set: header settings alone or with a base URL, listed, removed; conflicting flags are usage errors', async () => {
    const set = await cli(['provider', 'set', 'anthropic', '--base-url', 'https://gw.corp.example/anthropic', '--auth-header', 'authorization', '--header', 'x-team=ml', '--json']);
    expect(set.code, set.stderr).toBe(0);
    expect(JSON.parse(set.stdout)).toEqual({ name: 'anthropic', baseUrl: 'https://gw.corp.example/anthropic', overridden: true, authHeader: 'authorization', headers: { 'x-team': 'ml' } });
    expect((await cli(['provider', 'set', 'openai', '--header', 'openai-project=proj_1'])).stdout).toBe('openai headers: openai-project on every request\n');
    const listed = JSON.parse((await cli(['provider', 'list', '--json'])).stdout) as Array<{ name: string; authHeader?: string; headers?: unknown }>;
    expect(listed.map((p) => [p.name, p.authHeader, p.headers])).toEqual([
      ['anthropic', 'authorization', { 'x-team': 'ml' }],
      ['openai', undefined, { 'openai-project': 'proj_1' }],
      ['openrouter', undefined, undefined],
      ['gemini', undefined, undefined],
    ]);
    // the setting not named keeps its value: new fixed headers keep the key's header, and the reverse
    expect((await cli(['provider', 'set', 'anthropic', '--header', 'x-org=b'])).stdout).toBe('anthropic headers: key sent as authorization; x-org on every request\n');
    expect((await cli(['provider', 'set', 'anthropic', '--auth-header', 'api-key'])).stdout).toBe('anthropic headers: key sent as api-key; x-org on every request\n');
    expect((await cli(['provider', 'set', 'anthropic', '--no-headers'])).stdout).toBe("anthropic headers: the provider's own\n");
    const config = JSON.parse(await readFile(join(home, 'config.json'), 'utf8')) as { providers: Record<string, unknown> };
    expect(config.providers.anthropic).toEqual({ baseUrl: 'https://gw.corp.example/anthropic', enabled: true });
    for (const [args, message] of [
      [['--base-url', 'https://x.example', '--reset'], 'Give either --base-url <url> or --reset, not both.'],
      [[], 'Give --base-url <url>, --reset, or header settings (--auth-header, --header, --no-headers).'],
      [['--no-headers', '--header', 'x-a=1'], '--no-headers removes the header settings; give it alone.'],
      [['--header', 'x-api-key=sk-1'], '--header: x-api-key cannot be a fixed header'],
    ] as const) {
      const res = await cli(['provider', 'set', 'anthropic', ...args]);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr).toContain(message);
    }
  });

  it('local add / list / remove', async () => {
    expect((await cli(['local', 'add', 'ollama', '--url', 'http://127.0.0.1:11434'])).code).toBe(0);
    expect(JSON.parse((await cli(['local', 'list', '--json'])).stdout)).toEqual([expect.objectContaining({ slug: 'ollama', url: 'http://127.0.0.1:11434' })]);
    expect((await cli(['local', 'add', 'ollama', '--url', 'http://127.0.0.1:11434'])).code).toBe(1);
    expect((await cli(['local', 'remove', 'ollama', '--json'])).stdout).toContain('"slug": "ollama"');
    expect((await cli(['local', 'list'])).stdout).toMatch(/No local servers/);
  });

  it('local add without --url: the one server answering on the probed ports is added, and named', async () => {
    const ollama = await new GenericChatMock({ name: 'ollama' }).listen();
    const vllm = await new GenericChatMock({ name: 'vllm' }).listen();
    const closed = await freePort();
    const [op, vp] = [ollama, vllm].map((m) => Number(new URL(m.origin).port));
    try {
      // the ports a test probes, so nothing depends on what runs on this machine
      env.SVC_PROXY_LOCAL_PROBE_PORTS = `${closed},${op}`;
      const one = await cli(['local', 'add', 'box']);
      expect(one.code, one.stderr).toBe(0);
      expect(one.stdout).toContain(`Found Ollama at http://127.0.0.1:${op}/v1.`);
      expect(one.stdout).toContain('Local server box added');
      expect(JSON.parse((await cli(['local', 'list', '--json'])).stdout)).toEqual([expect.objectContaining({ slug: 'box', url: `http://127.0.0.1:${op}/v1` })]);
      const json = await cli(['local', 'add', 'box2', '--json']);
      expect(json.code).toBe(0);
      expect(JSON.parse(json.stdout)).toMatchObject({ slug: 'box2', url: `http://127.0.0.1:${op}/v1`, found: { url: `http://127.0.0.1:${op}/v1`, kind: 'Ollama' } });

      env.SVC_PROXY_LOCAL_PROBE_PORTS = `${op},${vp}`;
      const several = await cli(['local', 'add', 'many']);
      expect(several.code).toBe(1);
      expect(several.stderr).toContain(`Several local servers answer: http://127.0.0.1:${op}/v1 (Ollama), http://127.0.0.1:${vp}/v1 (Ollama). Pass the one to add with --url.`);
      const severalJson = await cli(['local', 'add', 'many', '--json']);
      expect(severalJson.code).toBe(1);
      // the error shape of every --json command, with what was tried and found
      expect(JSON.parse(severalJson.stdout)).toEqual({
        error: {
          code: 'several_local_servers',
          message: expect.stringContaining('Several local servers answer:'),
          tried: [op, vp],
          found: [{ url: `http://127.0.0.1:${op}/v1`, kind: 'Ollama' }, { url: `http://127.0.0.1:${vp}/v1`, kind: 'Ollama' }],
        },
      });

      env.SVC_PROXY_LOCAL_PROBE_PORTS = `${closed},11434`;
      await ollama.close();
      const none = await cli(['local', 'add', 'none']);
      expect(none.code).toBe(1);
      expect(none.stderr).toContain(`ports ${closed}, 11434 (Ollama). Start one, or pass its base URL with --url.`);
      const noneJson = await cli(['local', 'add', 'none', '--json']);
      expect(noneJson.code).toBe(1);
      expect(JSON.parse(noneJson.stdout).error).toMatchObject({ code: 'no_local_server', tried: [closed, 11434], found: [] });
      expect(JSON.parse((await cli(['local', 'list', '--json'])).stdout).map((l: { slug: string }) => l.slug).sort()).toEqual(['box', 'box2']);

      env.SVC_PROXY_LOCAL_PROBE_PORTS = 'eighty';
      expect((await cli(['local', 'add', 'bad'])).code).toBe(2);
    } finally {
      await ollama.close().catch(() => undefined);
      await vllm.close();
    }
  });

  it('a group target naming nothing configured is refused for what is configured now (exit 1, as models gives the same name), and taken once it is', async () => {
    expect((await cli(['group', 'add', 'work'])).code).toBe(0);
    const refused = await cli(['group', 'set', 'work', 'coder', 'box/llama3', '--json']);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout).error).toMatchObject({ code: 'unknown_provider', message: expect.stringContaining('unknown provider "box"') });
    expect((await cli(['group', 'add', 'home', '--model', 'chat=box/llama3'])).code).toBe(1);
    expect((await cli(['local', 'add', 'box', '--url', 'http://127.0.0.1:11434'])).code).toBe(0);
    expect((await cli(['group', 'set', 'work', 'coder', 'box/llama3'])).code).toBe(0);
  });

  it('endpoint remove / local remove warn about model groups that still route to them', async () => {
    expect((await cli(['endpoint', 'add', 'gw', '--url', 'https://gw.example/v1', '--format', 'a', '--no-credential'])).code).toBe(0);
    expect((await cli(['local', 'add', 'box', '--url', 'http://127.0.0.1:11434'])).code).toBe(0);
    const group = await cli(['group', 'add', 'work', '--model', 'coder=gw/qwen3,box/llama3', '--model', 'fast=openai/gpt-5-mini']);
    expect(group.code, group.stderr).toBe(0);
    expect((await cli(['group', 'add', 'home', '--model', 'chat=box/llama3'])).code).toBe(0);

    const ep = await cli(['endpoint', 'remove', 'gw']);
    expect(ep.code).toBe(0);
    expect(ep.stdout).toContain('Endpoint gw removed.');
    expect(ep.stderr).toMatch(/warning: .*group work .*coder.*gw\/qwen3/);
    expect(ep.stderr).not.toContain('home');

    const local = await cli(['local', 'remove', 'box', '--json']);
    expect(local.code).toBe(0);
    expect(JSON.parse(local.stdout)).toEqual({ slug: 'box', stillUsedBy: [{ group: 'work', name: 'coder', targets: ['box/llama3'] }, { group: 'home', name: 'chat', targets: ['box/llama3'] }] });
    expect(local.stderr).toMatch(/warning: .*group work .*coder.*box\/llama3/);
    expect(local.stderr).toMatch(/group home .*chat/);

    // nothing points at an upstream no group names: no warning
    expect((await cli(['local', 'add', 'spare', '--url', 'http://127.0.0.1:1234'])).code).toBe(0);
    expect((await cli(['local', 'remove', 'spare'])).stderr).toBe('');
  });

  it('provider disconnect warns about model groups that still route to the provider', async () => {
    const group = await cli(['group', 'add', 'work', '--model', 'coder=openrouter/qwen/qwen3-coder,openai/gpt-5', '--model', 'fast=openai/gpt-5-mini']);
    expect(group.code, group.stderr).toBe(0);
    expect((await cli(['provider', 'connect', 'openrouter', '--insecure-storage'], 'sk-or-offline-disc-1111\n')).code).toBe(0);

    const gone = await cli(['provider', 'disconnect', 'openrouter']);
    expect(gone.code).toBe(0);
    expect(gone.stdout).toMatch(/^openrouter disconnected/);
    expect(gone.stderr).toMatch(/warning: openrouter is disconnected, but model group work still routes coder to openrouter\/qwen\/qwen3-coder; those targets now fail/);
    expect(gone.stderr).not.toContain('fast'); // it routes only to openai

    expect((await cli(['provider', 'connect', 'openai', '--insecure-storage'], 'sk-openai-offline-disc-2222\n')).code).toBe(0);
    const json = await cli(['provider', 'disconnect', 'openai', '--json']);
    expect(json.code).toBe(0);
    expect(JSON.parse(json.stdout)).toMatchObject({
      name: 'openai',
      stillUsedBy: [
        { group: 'work', name: 'coder', targets: ['openai/gpt-5'] },
        { group: 'work', name: 'fast', targets: ['openai/gpt-5-mini'] },
      ],
    });
    expect(json.stderr).toMatch(/warning: openai is disconnected, but model group work still routes coder to openai\/gpt-5; model group work still routes fast to openai\/gpt-5-mini/);

    // no group names gemini: no warning
    expect((await cli(['provider', 'disconnect', 'gemini'])).stderr).not.toContain('warning: gemini');

    // a provider never connected removes nothing, so no group is cut off by it: no group warning
    expect((await cli(['group', 'set', 'work', 'ask', 'gemini/gemini-2.5-pro'])).code).toBe(0);
    const never = await cli(['provider', 'disconnect', 'gemini', '--json']);
    expect(never.code).toBe(1);
    expect(JSON.parse(never.stdout)).toMatchObject({ error: { code: 'nothing_removed', name: 'gemini', removedFrom: [], stillUsedBy: [] } });
    expect(never.stderr).not.toContain('warning');
    if (keychainOk) expect(never.stderr).toBe('svc-proxy: gemini is not connected: no key is stored for it, so nothing was removed.\n');
  });

  it('status, stop and config with no daemon', async () => {
    const status = await cli(['status', '--json']);
    expect(status.code).toBe(1);
    expect(JSON.parse(status.stdout)).toEqual({ running: false });
    expect((await cli(['stop'])).stdout).toMatch(/not running/);
    expect(JSON.parse((await cli(['config', 'path', '--json'])).stdout)).toMatchObject({ dir: home, requestLog: join(home, 'logs', 'requests.jsonl'), toolKeys: join(home, 'tool-keys.json') });
    expect((await cli(['config', 'path'])).stdout).toContain(`request log:     ${join(home, 'logs', 'requests.jsonl')}\n`);
    expect((await cli(['config', 'check'])).stdout).toMatch(/does not exist yet/);
    await writeFile(join(home, 'config.json'), '{"version": 2, "settings": {"port": "x"}}');
    const bad = await cli(['config', 'check']);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain(join(home, 'config.json'));
    expect(bad.stderr).toContain('settings.port');
    // Every management command reports the broken file instead of overwriting it.
    expect((await cli(['key', 'create', '--name', 'x'])).code).toBe(1);
    expect(await readFile(join(home, 'config.json'), 'utf8')).toContain('"port": "x"');
    expect((await cli(['config', 'reload'])).code).toBe(1);
  });

  it('config check: values a command would refuse fail it (exit 1); unknown fields are warned of', async () => {
    const created = '2026-01-01T00:00:00.000Z';
    await writeFile(
      join(home, 'config.json'),
      JSON.stringify({
        version: 2,
        settings: { logBodys: true },
        providers: { openai: { baseUrl: 'http://127.0.0.1:9/v1#frag' } },
        endpoints: { anthropic: { url: 'ftp://x', format: 'a', created }, twin: { url: 'http://127.0.0.1:8/v1', format: 'a', created, headers: { 'x-goog-api-key': 'g' } } },
        locals: { twin: { url: 'http://127.0.0.1:7', created } },
        groups: { g: { created, models: [{ name: 'fast', targets: ['zzz'] }, { name: 'm', targets: ['openai/a'] }, { name: 'm', targets: ['openai/b'] }] } },
      }),
    );
    const res = await cli(['config', 'check']);
    expect(res.code).toBe(1);
    expect(res.stdout).toContain('matches the schema, but 7 values will not work as meant:');
    expect(res.stdout).toContain('endpoints.twin.headers.x-goog-api-key: x-goog-api-key cannot be a fixed header (a credential goes in the keychain');
    expect(res.stdout).toContain('providers.openai.baseUrl: base URL: a base URL cannot have a #fragment');
    expect(res.stdout).toContain('endpoints.anthropic: "anthropic" is a built-in provider name');
    expect(res.stdout).toContain('endpoints.anthropic.url: URL: only http and https URLs are supported.');
    expect(res.stdout).toContain('endpoints.twin and locals.twin: one slug names two upstreams');
    expect(res.stdout).toContain('groups.g.models[0] (fast): Target "zzz" must be written provider/model');
    expect(res.stdout).toContain('groups.g.models[2] (m): the name is taken by models[1]; only that entry is used.');
    expect(res.stdout).toContain('warning: unknown field settings.logBodys is ignored (a typo?)');
    await writeFile(join(home, 'config.json'), JSON.stringify({ version: 2, settings: { logBodies: true } }));
    expect(await cli(['config', 'check'])).toMatchObject({ code: 0, stdout: `${join(home, 'config.json')} is valid.\n` });
  });

  it('config check: a key written twice is named, and that the last one is used', async () => {
    await writeFile(join(home, 'config.json'), '{"version": 2, "settings": {"logBodies": false, "logBodies": true}}');
    const res = await cli(['config', 'check']);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain('warning: settings.logBodies appears twice; the last one is used.');
  });

  it('config check reads a file saved with a byte-order mark, as the daemon does', async () => {
    await writeFile(join(home, 'config.json'), '\uFEFF{"version": 2, "settings": {"logBodies": true}}\r\n');
    expect(await cli(['config', 'check'])).toMatchObject({ code: 0, stdout: `${join(home, 'config.json')} is valid.\n` });
  });
});

describe('CLI with a running daemon (through the admin API)', () => {
  let d: InProcessDaemon;
  beforeEach(async () => {
    d = await startInProcess({ stateDir: home, env });
  });
  afterEach(async () => {
    await d.daemon.stop();
  });

  it('key create goes through the daemon and works at once; key revoke stops it before returning', async () => {
    const created = JSON.parse((await cli(['key', 'create', '--name', 'via-daemon', '--json'])).stdout) as { key: string };
    const url = `${d.origin}/protocol-a/v1/chat/completions`;
    expect((await http('POST', url, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(200);
    expect((await cli(['key', 'revoke', 'via-daemon'])).code).toBe(0);
    expect((await http('POST', url, { headers: { authorization: `Bearer ${created.key}` } })).status).toBe(401);
    expect((await http('POST', url, { headers: { 'x-api-key': created.key } })).status).toBe(401);
  });

  it('key list shows last use recorded in the daemon\'s memory', async () => {
    const created = JSON.parse((await cli(['key', 'create', '--name', 'used', '--json'])).stdout) as { key: string };
    await http('GET', `${d.origin}/protocol-b/v1/models`, { headers: { 'x-api-key': created.key } });
    const [info] = JSON.parse((await cli(['key', 'list', '--json'])).stdout) as Array<{ lastUsed: string | null }>;
    expect(info?.lastUsed).not.toBeNull();
  });

  it('provider connect through the daemon updates what the proxy uses', async () => {
    const res = await cli(['provider', 'connect', 'openrouter', '--insecure-storage'], 'sk-or-daemon-test-2468\n');
    expect(res.code).toBe(0);
    expect(d.deps.credential('openrouter')).toBe('sk-or-daemon-test-2468');
    expect((await cli(['provider', 'disconnect', 'openrouter'])).code).toBe(0);
    expect(d.deps.credential('openrouter')).toBeUndefined();
  });

  it('operation errors from the daemon keep their exit codes', async () => {
    expect((await cli(['key', 'revoke', 'nobody'])).code).toBe(1);
    expect((await cli(['local', 'add', 'x', '--url', 'nope'])).code).toBe(2);
    // the admin API answers a built-in name 400, a taken one 409: the same exit codes as offline
    expect((await cli(['endpoint', 'add', 'gemini', '--url', 'http://127.0.0.1:9/v1', '--format', 'a', '--no-credential'])).code).toBe(2);
    expect((await cli(['local', 'add', 'twice', '--url', 'http://127.0.0.1:9/v1'])).code).toBe(0);
    expect((await cli(['local', 'add', 'twice', '--url', 'http://127.0.0.1:9/v1'])).code).toBe(1);
  });

  it('status shows pid, port, base URLs and providers; config reload asks the daemon', async () => {
    const text = await cli(['status']);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain(`pid ${process.pid}`);
    expect(text.stdout).toContain(`${d.origin}/protocol-a/v1`);
    expect(text.stdout).toContain(`${d.origin}/protocol-b`);
    expect(text.stdout).toMatch(/providers: /);
    const json = JSON.parse((await cli(['status', '--json'])).stdout);
    expect(json).toMatchObject({ running: true, port: d.daemon.port });
    expect((await cli(['config', 'reload'])).stdout).toMatch(/reloaded/);
  });

  it('config check and config reload refuse a body budget smaller than the body limit', async () => {
    const file = join(home, 'config.json');
    const config = JSON.parse(await readFile(file, 'utf8')) as { settings: Record<string, unknown> };
    await writeFile(file, JSON.stringify({ ...config, settings: { ...config.settings, bodyLimitBytes: 2048, bodyBudgetBytes: 1024 } }));
    for (const args of [['config', 'check'], ['config', 'reload']]) {
      const res = await cli(args);
      expect(res.code, args.join(' ')).toBe(1);
      expect(res.stderr, args.join(' ')).toContain('settings.bodyBudgetBytes: 1024 is less than bodyLimitBytes (2048)');
    }
  });

  it('start says it is already running', async () => {
    const res = await cli(['start', '--json']);
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toMatchObject({ alreadyRunning: true, pid: process.pid, port: d.daemon.port });
    expect(res.stderr).toBe('');
    // options the running daemon was not started with are not applied: it says so (still exit 0)
    const other = d.daemon.port === 65535 ? 1 : d.daemon.port + 1;
    const asked = await cli(['start', '--port', String(other), '--log-bodies']);
    expect(asked.code).toBe(0);
    expect(asked.stdout).toContain('already running');
    expect(asked.stderr).toBe(`svc-proxy: note: the daemon was already running; --port ${other}, --log-bodies did not change it. To start it with them: svc-proxy stop, then this start again.\n`);
    // its own port, or any free one, is no change
    expect((await cli(['start', '--port', String(d.daemon.port)])).stderr).toBe('');
    expect((await cli(['start', '--port', '0'])).stderr).toBe('');
  });
});
