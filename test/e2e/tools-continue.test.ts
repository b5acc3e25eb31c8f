/**
 * The real Continue CLI (`cn`, devDependency @continuedev/cli) through the protocol A base
 * `/chat/completions`, from the config.yaml `svc-proxy env continue --config-file` prints, saved
 * where Continue reads it (~/.continue/config.yaml; its VS Code and JetBrains extensions read the
 * same file). One tool turn each: the mock asks for Continue's `Bash` tool, `cn` runs it (`--auto`
 * allows it), and the mock sees the output in the next request.
 *
 * What the file's entry decides is checked where the upstream can see it: `maxTokens` from
 * `defaultCompletionOptions` (without it Claude got its own ceiling, 64,000, in a scratch run).
 * Also `svc-proxy run continue`, which hands cn the same file as `--config` for the run only.
 * Offline: a temp HOME; `cn` needs no sign-in when a local config exists.
 */
import { existsSync } from 'node:fs';
import { mkdir, readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../daemon/harness.js';
import { expectNoServiceKey } from '../fixtures/e2e-helpers.js';
import type { RecordedRequest, Reply } from '../fixtures/mock-upstream/index.js';
import { messagesToolResult, responsesToolResult } from '../fixtures/tool-results.js';
import { envJson, refusedSince, runProcess, toolBinary, useToolWorld, type ProcResult } from '../fixtures/tools.js';

const cn = toolBinary('cn');
const RUN_TIMEOUT = 60_000;
// a test may run the tool twice, each run up to RUN_TIMEOUT: vitest's 30 s default cut the tests first on a loaded machine
const TEST_TIMEOUT = 2 * RUN_TIMEOUT + 10_000;
const t = useToolWorld();

/** Save the file `env` prints as ~/.continue/config.yaml in a HOME of its own; the environment to run `cn` in. */
async function continueHome(name: string, content: string): Promise<Record<string, string>> {
  const home = join(t.box.home, name);
  await mkdir(join(home, '.continue'), { recursive: true });
  await writeFile(join(home, '.continue', 'config.yaml'), content, { mode: 0o600 });
  return { ...t.box.env, HOME: home };
}

/** `cn -p` must end well, and none of its requests may be refused. */
async function runContinue(prompt: string, env: Record<string, string>): Promise<ProcResult> {
  if ('missing' in cn) throw new Error(cn.missing);
  const since = new Date().toISOString();
  const res = await runProcess(cn.path, ['-p', prompt, '--auto'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
  if (res.code !== 0) throw new Error(`cn exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}\ndaemon: ${t.world.daemon.log.slice(-3000)}`);
  const { logged, refused } = await refusedSince(t.world.daemon, since);
  expect(logged, 'the run reached the daemon').toBeGreaterThan(0);
  expect(refused, 'requests the daemon refused').toEqual([]);
  return res;
}

/** A shell call (with reasoning before it) first; once its output is in, a final answer quoting it. */
function scriptShellTurn(mock: { always(match: (r: RecordedRequest) => boolean, reply: (r: RecordedRequest) => Reply): unknown; plugin: { isGeneration(r: RecordedRequest): boolean } }, marker: string, output: (r: RecordedRequest) => string | undefined): void {
  mock.always(
    (r) => mock.plugin.isGeneration(r),
    (r): Reply => {
      const out = output(r);
      if (out === undefined) return { kind: 'turn', turn: { reasoning: { text: 'The shell prints the marker.' }, toolCalls: [{ name: 'Bash', arguments: { command: `printf 'cn-%s\\n' ${marker}` } }] } };
      return { kind: 'turn', turn: { text: `The command printed ${/cn-\d+/.exec(out)?.[0] ?? 'nothing'}.` } };
    },
  );
}

describe.skipIf('missing' in cn)('Continue (cn) through protocol A /chat/completions', { timeout: TEST_TIMEOUT }, () => {
  it('on Claude, from the config.yaml `env --config-file` prints: the Bash turn with signed thinking back, the entry’s maxTokens', async () => {
    const model = 'anthropic/claude-sonnet-4-5';
    const file = (await t.world.daemon.cli(['env', 'continue', '--model', model, '--config-file'])).stdout;
    // Anthropic's window holds the answer too: the listed 64,000 out is not added to it
    expect(file).toContain('      contextLength: 200000\n      maxTokens: 64000\n');
    const settings = await envJson(t.world.daemon, 'continue', ['--model', model]);
    const mock = t.world.mocks.anthropic;
    scriptShellTurn(mock, '7731', messagesToolResult);

    const res = await runContinue('Print the marker with the shell.', await continueHome('claude', file));
    expect(res.stdout).toContain('The command printed cn-7731.');

    const turns = mock.generations();
    expect(turns).toHaveLength(2);
    const [first, second] = turns as [RecordedRequest, RecordedRequest];
    expect((first.body.tools as Array<{ name: string }>).map((x) => x.name)).toContain('Bash');
    expect(first.body.max_tokens, 'defaultCompletionOptions.maxTokens of the entry: the max output Anthropic’s list states').toBe(64_000);
    // Continue kept no thinking of its own: Claude got its signed block back before the tool call
    const assistant = (second.body.messages as Array<{ role: string; content: Array<{ type: string; thinking?: string; signature?: string }> }>).find((m) => m.role === 'assistant')!;
    expect(assistant.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(mock.signatures.has(assistant.content[0]!.signature!)).toBe(true);
    expect(messagesToolResult(second)).toContain('cn-7731');
    for (const g of turns) expectNoServiceKey(g, settings.key.value);
  });

  it('on GPT (the Responses API upstream): the Bash turn with OpenAI’s encrypted reasoning put back', async () => {
    const model = 'openai/gpt-5.4';
    const file = (await t.world.daemon.cli(['env', 'continue', '--model', model, '--config-file'])).stdout;
    const mock = t.world.mocks.openai;
    scriptShellTurn(mock, '8842', responsesToolResult);

    const res = await runContinue('Print the marker with the shell.', await continueHome('gpt', file));
    expect(res.stdout).toContain('The command printed cn-8842.');

    const turns = mock.generations();
    expect(turns).toHaveLength(2);
    const input = turns[1]!.body.input as Array<{ type?: string; encrypted_content?: string }>;
    const reasoning = input.filter((i) => i.type === 'reasoning');
    expect(reasoning, 'the tool turn’s reasoning, as OpenAI issued it').toHaveLength(1);
    expect(mock.encrypted.has(reasoning[0]!.encrypted_content!)).toBe(true);
    expect(responsesToolResult(turns[1]!)).toContain('cn-8842');
  });

  it('with `svc-proxy run continue` (no config.yaml of its own): cn gets the same file for the run only, which is gone after', async () => {
    const mock = t.world.mocks.anthropic;
    scriptShellTurn(mock, '6620', messagesToolResult);
    const home = join(t.box.home, 'run');
    await mkdir(home, { recursive: true });
    const env = { ...t.box.env, HOME: home, SVC_PROXY_HOME: t.world.daemon.home };
    const since = new Date().toISOString();
    const res = await runProcess(process.execPath, [BIN, 'run', '--model', 'anthropic/claude-sonnet-4-5', '--key', t.world.daemon.key, 'continue', '-p', 'Print the marker with the shell.', '--auto'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain('The command printed cn-6620.');
    expect((await refusedSince(t.world.daemon, since)).refused).toEqual([]);
    expect(mock.generations()[0]!.body.max_tokens, 'the entry’s maxTokens: the file reached cn').toBe(64_000);
    // the file with the key in it lived only as long as the run
    expect(await readdir(join(t.world.daemon.home, 'run'))).toEqual([]);
    expect(existsSync(join(home, '.continue', 'config.yaml'))).toBe(false);
  });
});

// The tool is a devDependency: its absence is a broken install, which must fail, never skip.
if ('missing' in cn) {
  describe('Continue (cn) through protocol A /chat/completions', () => {
    it('has the tool installed', () => {
      throw new Error(cn.missing);
    });
  });
}
