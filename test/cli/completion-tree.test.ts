/**
 * Completion data comes from the commander tree (a command, option or choice added is completed
 * without touching the scripts), the names an argument takes are keyed to arguments and options
 * that exist, and `__complete` reads them from config.json alone.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Argument, Command, Option } from 'commander';
import { afterAll, describe, expect, it } from 'vitest';
import { completionData } from '../../src/cli/completion/completion-tree.js';
import { fullProgram } from '../../src/cli/completion/full-program.js';
import { VALUE_SOURCES } from '../../src/cli/completion/value-sources.js';
import { CONFIG_SIZE_CAP } from '../../src/config/size-cap.js';
import { createContext, processIo } from '../../src/cli/io.js';
import { cleanEnv, removeTempDirs, runCli, tempStateDir } from '../daemon/harness.js';

afterAll(() => removeTempDirs());

/** Every `path <argument>` and `path --option` of the tree, as VALUE_SOURCES names them. */
function sourceKeys(cmd: Command, path: string[] = []): string[] {
  return cmd.commands.flatMap((sub) => {
    const here = [...path, sub.name()].join(' ');
    return [
      ...sub.registeredArguments.map((a) => `${here} <${a.name()}>`),
      ...sub.options.flatMap((o) => (o.long ? [`${here} ${o.long}`] : [])),
      ...sourceKeys(sub, [...path, sub.name()]),
    ];
  });
}

describe('completion data', () => {
  it('is read off the tree: subcommands with aliases, options, which take a value, choices, a variadic argument', () => {
    const program = new Command('svc-proxy');
    const thing = program.command('thing').alias('th');
    thing.command('make').argument('<name>').addArgument(new Argument('[kinds...]').choices(['x', 'y'])).option('--json').addOption(new Option('--size <n>').choices(['s', 'l'])).option('--url <url>');
    const data = completionData(program);
    expect(data.get('s')).toBe('thing th help');
    expect(data.get('s thing')).toBe('make help');
    expect(data.get('s th')).toBe('make help');
    expect(data.get('o thing make')).toBe('--json --size --url -h --help');
    expect(data.get('v thing make --size')).toBe('s l');
    expect(data.get('v thing make --url')).toBe('-');
    expect(data.has('v thing make --json')).toBe(false);
    expect(data.get('a thing make 0')).toBe('-');
    expect(data.get('a thing make 1')).toBe('x y');
    expect(data.get('r thing make')).toBe('1');
    expect(data.get('a help 0')).toBe('thing');
  });

  it('every argument or option VALUE_SOURCES names is in svc-proxy\'s tree', async () => {
    const keys = new Set(sourceKeys(await fullProgram(createContext(processIo()))));
    expect(Object.keys(VALUE_SOURCES).filter((k) => !keys.has(k))).toEqual([]);
  });

  it('names from config.json go where an argument or option takes them', async () => {
    const data = completionData(await fullProgram(createContext(processIo())));
    // by id or name where the command takes either; env/run's --key takes a name (or the key itself)
    expect(data.get('a key revoke 0')).toBe('@keys @key-ids');
    // logs and stats also find a revoked key's requests, which stay in the log
    expect(data.get('v stats --key')).toBe('@keys-with-revoked @key-ids-with-revoked');
    expect(data.get('v logs --key')).toBe('@keys-with-revoked @key-ids-with-revoked');
    expect(data.get('v run --key')).toBe('@keys');
    expect(data.get('v logs --group')).toBe('@groups');
    expect(data.get('a endpoint remove 0')).toBe('@endpoints');
    // a tool by id or alias, as findTool takes it
    expect(data.get('a env 0')?.split(' ')).toEqual(expect.arrayContaining(['claude-code', 'claude', 'openai', 'openai-sdk']));
    expect(data.get('a run 0')?.split(' ')).toEqual(expect.arrayContaining(['codex', 'codex-cli']));
    expect(data.get('a models 0')?.split(' ')).toEqual(expect.arrayContaining(['anthropic', 'ollama', 'lmstudio', '@endpoints', '@locals']));
  });
});

describe('__complete', () => {
  it('prints names from config.json: active keys (names, ids), all keys, groups, endpoints, locals; nothing for a kind it does not know', async () => {
    const home = await tempStateDir('svc-complete-');
    const config = {
      keys: [
        { id: 'key_a1', name: 'laptop', revoked: false },
        { id: 'key_b2', name: 'old', revoked: true },
        { id: 'key_c3', name: 'has space' },
        null,
      ],
      groups: { fast: {}, smart: {} },
      endpoints: { corp: {} },
      locals: { box: {} },
    };
    await writeFile(join(home, 'config.json'), JSON.stringify(config));
    const env = cleanEnv({ SVC_PROXY_HOME: home });
    const res = await runCli(['__complete', 'keys', 'key-ids', 'groups', 'endpoints', 'locals', 'nosuch'], { env });
    expect(res).toMatchObject({ code: 0, stderr: '' });
    expect(res.stdout).toBe('laptop\nkey_a1\nkey_c3\nfast\nsmart\ncorp\nbox\n');
    const all = await runCli(['__complete', 'keys-with-revoked', 'key-ids-with-revoked'], { env });
    expect(all).toMatchObject({ code: 0, stderr: '' });
    expect(all.stdout).toBe('laptop\nold\nkey_a1\nkey_b2\nkey_c3\n');
  });

  it('a missing or broken config.json offers nothing, with no error', async () => {
    const home = await tempStateDir('svc-complete-');
    expect(await runCli(['__complete', 'groups'], { env: cleanEnv({ SVC_PROXY_HOME: home }) })).toMatchObject({ code: 0, stdout: '', stderr: '' });
    await writeFile(join(home, 'config.json'), '{ not json');
    expect(await runCli(['__complete', 'groups'], { env: cleanEnv({ SVC_PROXY_HOME: home }) })).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });

  it('a config.json a Windows editor saved with a byte-order mark offers its names, as the daemon reads it', async () => {
    const home = await tempStateDir('svc-complete-');
    await writeFile(join(home, 'config.json'), `\uFEFF${JSON.stringify({ groups: { fast: {} } })}`);
    expect(await runCli(['__complete', 'groups'], { env: cleanEnv({ SVC_PROXY_HOME: home }) })).toMatchObject({ code: 0, stdout: 'fast\n', stderr: '' });
  });

  it('a config.json over the 8 MB the daemon reads offers nothing, valid JSON though it is', async () => {
    const home = await tempStateDir('svc-complete-');
    const env = cleanEnv({ SVC_PROXY_HOME: home });
    const groups = { fast: {} };
    await writeFile(join(home, 'config.json'), JSON.stringify({ groups, pad: 'x'.repeat(CONFIG_SIZE_CAP - 100) }));
    expect(await runCli(['__complete', 'groups'], { env })).toMatchObject({ code: 0, stdout: 'fast\n', stderr: '' });
    await writeFile(join(home, 'config.json'), JSON.stringify({ groups, pad: 'x'.repeat(CONFIG_SIZE_CAP) }));
    expect(await runCli(['__complete', 'groups'], { env })).toMatchObject({ code: 0, stdout: '', stderr: '' });
  });
});
