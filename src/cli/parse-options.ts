/** Option parsers shared by commands; a bad value is a usage error (exit 2). */
import { InvalidArgumentError } from 'commander';

export function parsePort(value: string): number {
  const port = Number(value);
  if (!/^\d+$/.test(value) || port > 65535) throw new InvalidArgumentError('expected a port number between 0 and 65535.');
  return port;
}
