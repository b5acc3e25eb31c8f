/**
 * `svc-proxy completion bash|zsh|fish` in the real shells, with the real binary on PATH: commands,
 * subcommands, options, choices, names from config.json and file names only where a word takes
 * a file, without a daemon. A shell that is not
 * installed skips its tests with the reason, and fails them under CI=true or REQUIRE_SHELLS=1
 * (.ci/run installs zsh and fish).
 */
import { execFile } from 'node:child_process';
import { access, copyFile, mkdir, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, removeTempDirs, runBin, tempStateDir } from '../daemon/harness.js';

const run = promisify(execFile);
const required = process.env.CI === 'true' || process.env.REQUIRE_SHELLS === '1';

async function installed(shell: string): Promise<boolean> {
  return run(shell, ['-c', 'exit 0']).then(() => true, () => false);
}

let home: string;
/** Where the shells run: one file, so file names offered (or not) show. */
let work: string;
let env: Record<string, string | undefined>;
const scripts: Record<string, string> = {};

beforeAll(async () => {
  home = await tempStateDir('svc-completion-');
  await writeFile(join(home, 'config.json'), JSON.stringify({ keys: [{ id: 'k1', name: 'laptop', hash: 'x', createdAt: '2026-01-01T00:00:00Z' }, { id: 'k2', name: 'old', hash: 'y', createdAt: '2026-01-01T00:00:00Z', revoked: true }], groups: { fast: { models: [] } } }));
  work = join(home, 'work');
  await mkdir(work);
  await writeFile(join(work, 'notes.txt'), '');
  // the binary as a user has it: `svc-proxy` on PATH
  const bin = join(home, 'bin');
  await mkdir(bin);
  await symlink(BIN, join(bin, 'svc-proxy'));
  env = cleanEnv({ SVC_PROXY_HOME: home, PATH: `${bin}:${process.env.PATH ?? ''}` });
  for (const shell of ['bash', 'zsh', 'fish']) {
    const res = await runBin(['completion', shell], { env });
    expect(res.code, res.stderr).toBe(0);
    scripts[shell] = join(home, `completion.${shell}`);
    await writeFile(scripts[shell]!, res.stdout);
  }
});

afterAll(async () => {
  // completing never started a daemon
  expect(await access(join(home, 'daemon.json')).then(() => true, () => false)).toBe(false);
  await removeTempDirs();
});

/** Runs `body` in the shell; the shell missing is a skip, or a failure where shells are required. */
function shellTest(shell: string, name: string, body: () => Promise<void>): void {
  it(`${shell}: ${name}`, async (ctx) => {
    if (!(await installed(shell))) {
      if (required) throw new Error(`${shell} is not installed, and CI=true or REQUIRE_SHELLS=1 requires it (apt-get install ${shell})`);
      ctx.skip(`${shell} is not installed`);
    }
    await body();
  });
}

/** The candidates for each command line (the cursor at its end), one `line => a b c` a line. */
async function complete(shell: string, lines: string[]): Promise<Record<string, string[]>> {
  const scriptFor: Record<string, string> = {
    // what bash sets before it calls the function
    bash: `source ${scripts.bash}
t() { COMP_LINE="$1"; COMP_POINT=\${#1}; read -ra COMP_WORDS <<< "$1"; COMP_CWORD=\${#COMP_WORDS[@]}; [[ "$1" == *" " ]] || COMP_CWORD=$((COMP_CWORD - 1)); COMPREPLY=(); _svc_proxy; echo "$1 => \${COMPREPLY[*]}"; }`,
    // compadd works only inside a completion widget: a stand-in prints what it was given that
    // matches the word typed (PREFIX), as compadd keeps
    zsh: `autoload -U compinit && compinit -u -d ${home}/zcompdump
source ${scripts.zsh}
compadd() { shift; local w; for w in "$@"; do [[ "$w" == "$PREFIX"* ]] && print -rn -- " $w"; done; }
_files() { print -rn -- " (files)"; }
t() { words=(\${(z)1}); [[ "$1" == *" " ]] && words+=(""); CURRENT=\${#words}; PREFIX=\${words[CURRENT]}; print -rn -- "$1 =>"; _svc_proxy; print; }`,
    fish: `source ${scripts.fish}
function t; echo "$argv[1] =>" (complete -C "$argv[1]" | string split -f1 \\t); end`,
  };
  const body = [scriptFor[shell], ...lines.map((l) => `t '${l}'`)].join('\n');
  const { stdout } = await run(shell, shell === 'fish' ? ['--no-config', '-c', body] : shell === 'bash' ? ['--norc', '--noprofile', '-c', body] : ['-f', '-c', body], { env, cwd: work });
  const out: Record<string, string[]> = {};
  for (const line of stdout.split('\n').filter((l) => l.includes(' =>'))) {
    const [given, got] = line.split(' =>');
    out[given!] = got!.trim().split(/\s+/).filter((w) => w !== '');
  }
  return out;
}

const LINES = [
  'svc-proxy ',
  'svc-proxy ke',
  'svc-proxy key ',
  'svc-proxy key create --j',
  'svc-proxy key revoke ',
  'svc-proxy logs --group ',
  'svc-proxy endpoint add corp --url http://127.0.0.1:9 --format ',
  'svc-proxy run ',
  'svc-proxy run cl',
  'svc-proxy logs --key ',
  'svc-proxy stats --key ',
  'svc-proxy env --key ',
  'svc-proxy help ',
  'svc-proxy run codex no',
  'svc-proxy run codex -- no',
  'svc-proxy endpoint add corp --url ',
  'svc-proxy key create ',
  'svc-proxy logs --since ',
];

/**
 * What every shell offers for LINES (fish and zsh filter by the word typed; bash's compgen too).
 * `files` is what file names in `work` show as (zsh: the stand-in for _files).
 */
function expectCompletions(got: Record<string, string[]>, files: string[]): void {
  expect(got['svc-proxy ']).toEqual(expect.arrayContaining(['start', 'key', 'provider', 'completion', 'tui']));
  expect(got['svc-proxy ']).not.toContain('__complete');
  expect(got['svc-proxy ke']).toEqual(['key']);
  expect(got['svc-proxy key ']).toEqual(expect.arrayContaining(['create', 'list', 'revoke']));
  expect(got['svc-proxy key create --j']).toEqual(['--json']);
  // an active key's name and id, read from config.json; not the revoked one
  expect(got['svc-proxy key revoke ']?.sort()).toEqual(['k1', 'laptop']);
  // a revoked key's requests stay in the log: logs and stats offer it too
  expect(got['svc-proxy logs --key ']?.sort()).toEqual(['k1', 'k2', 'laptop', 'old']);
  expect(got['svc-proxy stats --key ']?.sort()).toEqual(['k1', 'k2', 'laptop', 'old']);
  // env/run take a key's name (or the key itself), not its id
  expect(got['svc-proxy env --key ']).toEqual(['laptop']);
  expect(got['svc-proxy logs --group ']).toEqual(['fast']);
  // a URL (with its `:`) is one value of --url, and --format's choices follow
  expect(got['svc-proxy endpoint add corp --url http://127.0.0.1:9 --format ']).toEqual(['a', 'b']);
  expect(got['svc-proxy run ']).toEqual(expect.arrayContaining(['claude-code', 'codex']));
  expect(got['svc-proxy run ']).not.toContain('cursor');
  // a tool's alias too
  expect(got['svc-proxy run cl']?.sort()).toEqual(['claude', 'claude-code']);
  expect(got['svc-proxy help ']).toEqual(expect.arrayContaining(['key', 'start']));
  // file names where the words are the tool's, and nowhere else (a URL, a name, a time)
  expect(got['svc-proxy run codex no']).toEqual(files);
  expect(got['svc-proxy run codex -- no']).toEqual(files);
  expect(got['svc-proxy endpoint add corp --url ']).toEqual([]);
  expect(got['svc-proxy key create ']).toEqual([]);
  expect(got['svc-proxy logs --since ']).toEqual([]);
}

describe('shell completion', () => {
  shellTest('bash', 'registered for svc-proxy, and completes commands, options, choices and config names', async () => {
    const { stdout } = await run('bash', ['--norc', '--noprofile', '-c', `source ${scripts.bash}; complete -p svc-proxy`], { env });
    // no `-o default`: bash would list file names wherever nothing else is offered
    expect(stdout.trim()).toBe('complete -F _svc_proxy svc-proxy');
    expectCompletions(await complete('bash', LINES), ['notes.txt']);
  });

  shellTest('zsh', 'registered with compdef, and completes the same', async () => {
    const { stdout } = await run('zsh', ['-f', '-c', `autoload -U compinit && compinit -u -d ${home}/zcompdump; source ${scripts.zsh}; print -r -- $_comps[svc-proxy]`], { env });
    expect(stdout.trim()).toBe('_svc_proxy');
    expectCompletions(await complete('zsh', LINES), ['(files)']);
  });

  shellTest('zsh', 'saved as _svc_proxy in $fpath instead: compinit finds it, and its first run completes', async () => {
    const fpathDir = join(home, 'zfunc');
    await mkdir(fpathDir, { recursive: true });
    await copyFile(scripts.zsh!, join(fpathDir, '_svc_proxy'));
    const body = `fpath=(${fpathDir} $fpath); autoload -U compinit && compinit -u -d ${home}/zcompdump-fpath
print -r -- "comps=$_comps[svc-proxy]"
compadd() { shift; local w; for w in "$@"; do [[ "$w" == "$PREFIX"* ]] && print -rn -- " $w"; done; }
words=(svc-proxy key ""); CURRENT=3; PREFIX=""; _svc_proxy; print
words=(svc-proxy key re); CURRENT=3; PREFIX=re; _svc_proxy; print`;
    const { stdout } = await run('zsh', ['-f', '-c', body], { env });
    expect(stdout.split('\n')).toEqual(['comps=_svc_proxy', ' create list revoke help', ' revoke', '']);
  });

  shellTest('fish', 'completes the same through fish\'s own complete -C', async () => {
    expectCompletions(await complete('fish', LINES), ['notes.txt']);
  });
});
