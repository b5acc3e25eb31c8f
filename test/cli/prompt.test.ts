import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { CliError, type CliIo } from '../../src/cli/io.js';
import { readSecret } from '../../src/cli/prompt.js';

function io(stdin: CliIo['stdin']): CliIo & { errText(): string } {
  let err = '';
  return { stdout: { write: () => true }, stderr: { write: (s: string) => (err += s) }, stdin, env: {}, errText: () => err };
}

function fakeTty() {
  const stream = new PassThrough() as PassThrough & { isTTY: boolean; rawModes: boolean[]; setRawMode(mode: boolean): void };
  stream.isTTY = true;
  stream.rawModes = [];
  stream.setRawMode = (mode: boolean) => void stream.rawModes.push(mode);
  return stream;
}

describe('readSecret in a terminal', () => {
  it('reads without echo, handles backspace and pasted escape markers, restores the terminal', async () => {
    const tty = fakeTty();
    const cli = io(tty);
    const pending = readSecret(cli, 'API key: ');
    tty.write('sk-ab');
    tty.write('x\u007f');
    tty.write('\x1b[200~cd\x1b[201~');
    tty.write('\r');
    expect(await pending).toBe('sk-abcd');
    expect(tty.rawModes).toEqual([true, false]);
    expect(cli.errText()).toBe('API key: \n');
    expect(cli.errText()).not.toContain('sk-');
  });

  it('Ctrl-C cancels with exit code 130', async () => {
    const tty = fakeTty();
    const pending = readSecret(io(tty), 'API key: ');
    tty.write('abc\u0003');
    await expect(pending).rejects.toMatchObject({ exitCode: 130 });
  });
});

describe('readSecret from a pipe', () => {
  it('takes the first non-empty line of stdin', async () => {
    const pipe = new PassThrough();
    const pending = readSecret(io(pipe), 'ignored');
    pipe.end('\n  sk-from-pipe-1234  \nsecond line\n');
    expect(await pending).toBe('sk-from-pipe-1234');
  });

  it('returns empty for an empty stdin (e.g. /dev/null)', async () => {
    const pipe = new PassThrough();
    const pending = readSecret(io(pipe), 'ignored');
    pipe.end();
    expect(await pending).toBe('');
  });

  it('never hangs on an open, silent stdin', async () => {
    const pipe = new PassThrough();
    // the pipe stays open and silent: only the first-byte timer can end the read, with these words
    const err = await readSecret(io(pipe), 'ignored', { firstByteTimeoutMs: 150 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(CliError);
    expect((err as Error).message).toMatch(/Nothing arrived on stdin/);
  });
});
