/**
 * The real opencode (devDependency opencode-ai) through the protocol A base `/chat/completions`,
 * served by the AI SDK's OpenAI-compatible provider it bundles, with one tool turn: the mock asks
 * for opencode's `bash` tool, opencode runs it, and the mock sees the output in the next request.
 *
 * What opencode does with a model its own catalog does not list rests on the model entry `env`
 * writes (cli/tools/opencode.ts): `--variant high` asks for reasoning only on a model said to
 * reason, and an attached image reaches the model only when it is said to read images (else
 * opencode puts an error text in its place). It also sends an answer's reasoning back as bare
 * `reasoning_content`, which must not cost Claude its signed thinking on the tool turn.
 *
 * Two ways in: the variables `svc-proxy env opencode` prints, and `svc-proxy run opencode`.
 * Offline: a temp HOME and XDG directories, and opencode's models.dev fetch off.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN } from '../daemon/harness.js';
import { expectNoServiceKey } from '../fixtures/e2e-helpers.js';
import type { RecordedRequest, Reply } from '../fixtures/mock-upstream/index.js';
import { messagesToolResult, responsesToolResult } from '../fixtures/tool-results.js';
import { envJson, refusedSince, runProcess, toolBinary, useToolWorld, type ProcResult } from '../fixtures/tools.js';

const opencode = toolBinary('opencode');
const RUN_TIMEOUT = 60_000;
// a test may run the tool twice, each run up to RUN_TIMEOUT: vitest's 30 s default cut the tests first on a loaded machine
const TEST_TIMEOUT = 2 * RUN_TIMEOUT + 10_000;
/** A 1×1 PNG. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==', 'base64');

const t = useToolWorld();

/** opencode's own directories inside the sandbox, and no fetch of its model catalog (no network here). */
async function opencodeEnv(name: string): Promise<Record<string, string>> {
  const home = join(t.box.home, name);
  await mkdir(home, { recursive: true });
  return {
    ...t.box.env,
    HOME: home,
    XDG_CONFIG_HOME: join(home, '.config'),
    XDG_DATA_HOME: join(home, '.local', 'share'),
    XDG_CACHE_HOME: join(home, '.cache'),
    XDG_STATE_HOME: join(home, '.local', 'state'),
    OPENCODE_DISABLE_MODELS_FETCH: '1',
  };
}

/** Run opencode (itself or under `svc-proxy run`): it must end well, and none of its requests may be refused. */
async function runOpencode(cmd: string, args: string[], env: Record<string, string>): Promise<ProcResult> {
  const since = new Date().toISOString();
  const res = await runProcess(cmd, args, { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
  if (res.code !== 0) throw new Error(`opencode exited ${res.code}\nstdout: ${res.stdout}\nstderr: ${res.stderr}\ndaemon: ${t.world.daemon.log.slice(-3000)}`);
  const { logged, refused } = await refusedSince(t.world.daemon, since);
  expect(logged, 'the run reached the daemon').toBeGreaterThan(0);
  expect(refused, 'requests the daemon refused').toEqual([]);
  return res;
}

/** opencode's title request has no tools; its agent turns do. */
const isAgentTurn = (r: RecordedRequest): boolean => Array.isArray(r.body?.tools) && r.body.tools.length > 0;

/** A shell call (with reasoning before it) first; once its output is in, a final answer quoting it. */
function scriptShellTurn(mock: { always(match: (r: RecordedRequest) => boolean, reply: (r: RecordedRequest) => Reply): unknown; plugin: { isGeneration(r: RecordedRequest): boolean } }, marker: string, output: (r: RecordedRequest) => string | undefined): void {
  mock.always(
    (r) => mock.plugin.isGeneration(r),
    (r): Reply => {
      if (!isAgentTurn(r)) return { kind: 'turn', turn: { text: 'Marker run' } };
      const out = output(r);
      if (out === undefined) {
        return { kind: 'turn', turn: { reasoning: { text: 'The shell prints the marker.' }, toolCalls: [{ name: 'bash', arguments: { command: `printf 'oc-%s\\n' ${marker}`, description: 'Print the marker' } }] } };
      }
      return { kind: 'turn', turn: { text: `The command printed ${/oc-\d+/.exec(out)?.[0] ?? 'nothing'}.` } };
    },
  );
}

describe.skipIf('missing' in opencode)('opencode through protocol A /chat/completions', { timeout: TEST_TIMEOUT }, () => {
  it('with the variables from `svc-proxy env opencode` on Claude, --variant high and an image: thinking on every step, signed thinking back on the tool turn, the image read', async () => {
    if ('missing' in opencode) return;
    const model = 'anthropic/claude-sonnet-4-5';
    const settings = await envJson(t.world.daemon, 'opencode', ['--model', model]);
    expect(Object.keys(settings.env).sort()).toEqual(['OPENCODE_CONFIG_CONTENT', 'SVC_PROXY_KEY']);
    const mock = t.world.mocks.anthropic;
    scriptShellTurn(mock, '4417', messagesToolResult);
    await writeFile(join(t.box.work, 'dot.png'), PNG);

    const res = await runOpencode(opencode.path, ['run', 'Print the marker with the shell.', '--variant', 'high', '-f', 'dot.png'], { ...(await opencodeEnv('env-claude')), ...settings.env });
    expect(res.stdout).toContain('The command printed oc-4417.');

    const turns = mock.generations().filter(isAgentTurn);
    expect(turns).toHaveLength(2);
    const [first, second] = turns as [RecordedRequest, RecordedRequest];
    // the variant reached Claude as thinking, on both steps
    expect(first.body.thinking).toMatchObject({ type: 'enabled' });
    expect(second.body.thinking, 'thinking stays on for the tool turn').toMatchObject({ type: 'enabled' });
    // the image reached Claude as an image, not as opencode's "cannot read" text
    const firstBlocks = (first.body.messages as Array<{ content: Array<{ type: string; text?: string }> }>)[0]!.content;
    expect(firstBlocks.map((b) => b.type)).toContain('image');
    expect(JSON.stringify(first.body.messages)).not.toContain('Cannot read');
    // opencode sent the thinking back as bare text; Claude got its own signed block first in the turn
    const assistant = (second.body.messages as Array<{ role: string; content: Array<{ type: string; thinking?: string; signature?: string }> }>).find((m) => m.role === 'assistant')!;
    expect(assistant.content.map((b) => b.type)).toEqual(['thinking', 'tool_use']);
    expect(assistant.content[0]).toMatchObject({ thinking: 'The shell prints the marker.' });
    expect(mock.signatures.has(assistant.content[0]!.signature!)).toBe(true);
    expect(messagesToolResult(second)).toContain('oc-4417');
    for (const g of mock.generations()) expectNoServiceKey(g, settings.key.value);
  });

  it('with `svc-proxy run opencode` on GPT: the effort of --variant, the tool turn with OpenAI’s encrypted reasoning put back, and the exit code passed through', async () => {
    const model = 'openai/gpt-5.4';
    const env = { ...(await opencodeEnv('run-gpt')), SVC_PROXY_HOME: t.world.daemon.home };
    const mock = t.world.mocks.openai;
    scriptShellTurn(mock, '5128', responsesToolResult);

    const res = await runOpencode(process.execPath, [BIN, 'run', '--model', model, '--key', t.world.daemon.key, 'opencode', 'run', 'Print the marker with the shell.', '--variant', 'high'], env);
    expect(res.stdout).toContain('The command printed oc-5128.');

    const turns = mock.generations().filter(isAgentTurn);
    expect(turns).toHaveLength(2);
    const [first, second] = turns as [RecordedRequest, RecordedRequest];
    expect(first.body.reasoning).toMatchObject({ effort: 'high' });
    const input = second.body.input as Array<{ type?: string; encrypted_content?: string }>;
    const reasoning = input.filter((i) => i.type === 'reasoning');
    expect(reasoning, 'the tool turn’s reasoning, as OpenAI issued it').toHaveLength(1);
    expect(mock.encrypted.has(reasoning[0]!.encrypted_content!)).toBe(true);
    expect(responsesToolResult(second)).toContain('oc-5128');

    // opencode's own usage error (exit 1) comes back as svc-proxy's exit code
    const bad = await runProcess(process.execPath, [BIN, 'run', '--model', model, 'opencode', 'run'], { env, cwd: t.box.work, timeoutMs: RUN_TIMEOUT });
    expect(bad.code).toBe(1);
    expect(bad.stderr + bad.stdout).toMatch(/You must provide a message/);
  });
});

describe('the opencode model entry from a running daemon', () => {
  it('an OpenRouter model: the window, what it reads and whether it reasons, as OpenRouter’s list states them', async () => {
    const model = 'openrouter/anthropic/claude-sonnet-4.5';
    const settings = await envJson(t.world.daemon, 'opencode', ['--model', model]);
    const config = JSON.parse(settings.env.OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, unknown> }> };
    // the mock lists it with a 1,000,000-token window, text and image input, and reasoning; the window holds
    // the output too, so no `limit.input` (opencode compacts at the window less the output)
    expect(config.provider['svc-proxy']!.models[model]).toEqual({
      name: model,
      limit: { context: 1_000_000, output: 32_000 },
      reasoning: true,
      attachment: true,
      modalities: { input: ['text', 'image'], output: ['text'] },
    });
    expect(settings.notes).toEqual([]);
    expect(t.world.mocks.openrouter.requests.some((r) => r.path === '/api/v1/models')).toBe(true);
  });

  it('a Claude model Anthropic’s list states reads no images and does not think (claude-3-5-haiku): neither is offered, nor asked to be turned on; its output limit from the list', async () => {
    const model = 'anthropic/claude-3-5-haiku-20241022';
    const settings = await envJson(t.world.daemon, 'opencode', ['--model', model]);
    const config = JSON.parse(settings.env.OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, unknown> }> };
    // its output limit is the 8,192 Anthropic's list states, not the 32,000 stand-in Anthropic would refuse
    expect(config.provider['svc-proxy']!.models[model]).toEqual({ name: model, limit: { context: 200_000, output: 8_192 } });
    expect(settings.notes).toEqual([]);
    // one it states reads both and thinks keeps them
    const sonnet = JSON.parse((await envJson(t.world.daemon, 'opencode', ['--model', 'anthropic/claude-sonnet-4-5'])).env.OPENCODE_CONFIG_CONTENT!) as typeof config;
    expect(sonnet.provider['svc-proxy']!.models['anthropic/claude-sonnet-4-5']).toMatchObject({ reasoning: true, attachment: true, modalities: { input: ['text', 'image', 'pdf'] }, limit: { output: 64_000 } });
  });

  it('a Gemini model: window, output limit and whether it thinks from Google’s native list (gemini-2.0-flash does not, 2.5 Flash does)', async () => {
    const gemini = t.world.mocks.gemini;
    // listed by both of the mock's lists from here on (no earlier test of this file asked for Gemini's)
    if (!gemini.models.includes('models/gemini-2.0-flash')) gemini.models.push('models/gemini-2.0-flash');
    const entryOf = async (model: string) => {
      const settings = await envJson(t.world.daemon, 'opencode', ['--model', model]);
      const config = JSON.parse(settings.env.OPENCODE_CONFIG_CONTENT!) as { provider: Record<string, { models: Record<string, unknown> }> };
      return config.provider['svc-proxy']!.models[model];
    };
    expect(await entryOf('gemini/gemini-2.0-flash')).toEqual({
      name: 'gemini/gemini-2.0-flash',
      limit: { context: 1_048_576, input: 1_048_576, output: 8_192 },
      attachment: true,
      modalities: { input: ['text', 'image', 'pdf'], output: ['text'] },
    });
    expect(await entryOf('gemini/gemini-2.5-flash')).toMatchObject({ limit: { context: 1_048_576, input: 1_048_576, output: 65_536 }, reasoning: true });
    expect(gemini.requests.some((r) => r.path === '/v1beta/models'), 'the native list was read').toBe(true);
  });
});

// The tool is a devDependency: its absence is a broken install, which must fail, never skip.
if ('missing' in opencode) {
  describe('opencode through protocol A /chat/completions', () => {
    it('has the tool installed', () => {
      throw new Error(opencode.missing);
    });
  });
}
