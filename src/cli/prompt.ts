/**
 * Reading a secret: a hidden prompt in a terminal; otherwise the first line of stdin
 * (`echo "$KEY" | svc-proxy provider connect anthropic`). Waiting on stdin is bounded, so a
 * script whose stdin is an open, silent pipe gets an error instead of hanging.
 */
import { CliError, type CliIo } from './io.js';

export interface SecretPromptOptions {
  /** Longest wait for the first byte on a non-terminal stdin (default 15 s). */
  firstByteTimeoutMs?: number;
}

export async function readSecret(io: CliIo, prompt: string, opts: SecretPromptOptions = {}): Promise<string> {
  if (io.stdin.isTTY && typeof io.stdin.setRawMode === 'function') return hiddenPrompt(io, prompt);
  return readPipedLine(io, opts.firstByteTimeoutMs ?? 15_000);
}

function hiddenPrompt(io: CliIo, prompt: string): Promise<string> {
  const stdin = io.stdin;
  io.stderr.write(prompt);
  return new Promise((resolve, reject) => {
    let value = '';
    const finish = (err?: Error) => {
      stdin.removeListener('data', onData);
      stdin.setRawMode?.(false);
      stdin.pause();
      io.stderr.write('\n');
      if (err) reject(err);
      else resolve(value.trim());
    };
    const onData = (chunk: Buffer | string) => {
      // Bracketed-paste markers and other escape sequences are not part of a key.
      // eslint-disable-next-line no-control-regex -- matching the ESC character is the point
      const text = chunk.toString().replace(/\x1b\[[0-9;]*[~A-Za-z]/g, '');
      for (const ch of text) {
        if (ch === '\r' || ch === '\n') return finish();
        if (ch === '\u0003') return finish(new CliError('Cancelled.', 130, { code: 'cancelled' }));
        if (ch === '\u0004') {
          if (value === '') return finish();
          continue;
        }
        if (ch === '\u007f' || ch === '\b') value = value.slice(0, -1);
        else if (ch >= ' ') value += ch;
      }
    };
    stdin.setRawMode?.(true);
    stdin.resume();
    stdin.on('data', onData);
  });
}

function readPipedLine(io: CliIo, firstByteTimeoutMs: number): Promise<string> {
  const stdin = io.stdin;
  const MAX = 64 * 1024;
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const cleanup = () => {
      clearTimeout(timer);
      stdin.removeListener('data', onData);
      stdin.removeListener('end', onEnd);
      stdin.removeListener('error', onError);
      stdin.pause();
    };
    const timer = setTimeout(() => {
      cleanup();
      reject(new CliError(`Nothing arrived on stdin within ${Math.round(firstByteTimeoutMs / 1000)} s. Pipe the key in (echo "$KEY" | svc-proxy …) or run in a terminal to be prompted.`, 1, { code: 'stdin_timeout' }));
    }, firstByteTimeoutMs);
    const onData = (chunk: Buffer | string) => {
      clearTimeout(timer);
      const buf = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
      size += buf.length;
      if (size > MAX) {
        cleanup();
        reject(new CliError('Too much data on stdin for a key.', 1, { code: 'stdin_too_large' }));
        return;
      }
      chunks.push(buf);
    };
    const onEnd = () => {
      cleanup();
      const text = Buffer.concat(chunks).toString('utf8');
      const line = text.split(/\r?\n/).find((l) => l.trim() !== '') ?? '';
      resolve(line.trim());
    };
    const onError = (err: Error) => {
      cleanup();
      reject(new CliError(`Could not read stdin: ${err.message}`, 1, { code: 'stdin_unreadable' }));
    };
    stdin.on('data', onData);
    stdin.on('end', onEnd);
    stdin.on('error', onError);
    stdin.resume();
  });
}
