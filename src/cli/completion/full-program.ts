/** The whole program as main() builds it, with every command loaded (main loads only the one run). */
import { Command } from 'commander';
import { packageVersion } from '../../config/version.js';
import type { CliContext } from '../io.js';
import { COMMANDS } from '../registry.js';

export async function fullProgram(ctx: CliContext): Promise<Command> {
  const program = new Command('svc-proxy').version(packageVersion(), '-V, --version');
  for (const entry of COMMANDS) (await entry.load()).register(program, ctx);
  return program;
}
