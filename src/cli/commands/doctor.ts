/**
 * `svc-proxy doctor` — everything a tool could run into, checked at once, each with what puts it
 * right: the daemon, service keys, each provider's model list (a refused key shows here before a
 * tool meets it), config.json, the request log, who may read the state files that hold secrets,
 * the login service, and this shell's base URL
 * variables (does each lead to this daemon, to a base of ours, with a key it accepts?).
 * Exit 1 when something is wrong.
 */
import { readFile } from 'node:fs/promises';
import type { Command } from 'commander';
import type { AdminClient } from '../admin-client.js';
import { daemonFindings, type ModelLists } from '../doctor/daemon-findings.js';
import { exitCodeOf, renderFindings, type Finding } from '../doctor/findings.js';
import { privateFileFindings } from '../doctor/private-files.js';
import { shellFindings, type DaemonAddress } from '../doctor/shell-bases.js';
import { connectAdmin } from '../connect-admin.js';
import type { CliContext } from '../io.js';

/** As `svc-proxy models`: a slow provider's pages, each fetch bounded at 3 s by the daemon. */
const LIST_TIMEOUT_MS = 30_000;

async function modelLists(client: AdminClient): Promise<ModelLists | string> {
  try {
    const answer = await client.models(undefined, LIST_TIMEOUT_MS);
    return { counts: answer.counts, failed: answer.failed };
  } catch (err) {
    return err instanceof Error ? err.message : String(err);
  }
}

async function serviceFindings(ctx: CliContext): Promise<Finding[]> {
  const { installedService } = await import('../service/service-manager.js');
  const manager = await installedService(ctx.io.env, ctx.paths().dir);
  if (!manager) return [{ check: 'login service', mark: 'info', text: 'none: after a reboot the base URLs answer only once someone runs svc-proxy start', fix: 'svc-proxy service install' }];
  const { currentDefinition } = await import('../service/current-definition.js');
  const written = await readFile(manager.file, 'utf8').catch(() => '');
  const current = written === manager.render((await currentDefinition(ctx)).def);
  const state = await manager.state();
  const how = state.problem ? `the manager could not be asked (${state.problem})` : `${state.enabled ? 'starts at login' : 'does NOT start at login'}, ${state.state ?? 'state unknown'}`;
  if (!current) return [{ check: 'login service', mark: 'warn', text: `${manager.title} ${manager.file} (${how}) differs from what install would write now: another Node, svc-proxy install or environment`, fix: 'svc-proxy service install' }];
  return [{ check: 'login service', mark: state.enabled === false ? 'warn' : 'ok', text: `${manager.title} ${manager.file}: ${how}`, ...(state.enabled === false ? { fix: 'svc-proxy service install' } : {}) }];
}

export function register(program: Command, ctx: CliContext): void {
  program
    .command('doctor')
    .description('Check the daemon, keys, providers, state file modes, login service and this shell\'s tool settings; say what to fix (exit 1 on a problem)')
    .option('--json', 'print {ok, findings: [{check, mark, text, fix}]}; ok false exactly when the exit is 1')
    .action(async (flags: { json?: boolean }) => {
      const findings: Finding[] = [];
      const client = await connectAdmin(ctx);
      let daemon: DaemonAddress | undefined;
      if (client) {
        const s = await client.status();
        daemon = { host: s.host, port: s.port };
        findings.push(...daemonFindings(s, await modelLists(client)));
      } else {
        findings.push({ check: 'daemon', mark: 'fail', text: 'not running: tools pointed at svc-proxy get "connection refused"', fix: 'svc-proxy start (or svc-proxy service install, to have it at every login)' });
      }
      findings.push(...(await privateFileFindings(ctx.paths())));
      findings.push(...(await serviceFindings(ctx)));
      findings.push(...(await shellFindings(ctx.io.env, daemon)));
      if (flags.json) ctx.json({ ok: exitCodeOf(findings) === 0, findings });
      else ctx.out(renderFindings(findings));
      ctx.exitCode = exitCodeOf(findings);
    });
}
