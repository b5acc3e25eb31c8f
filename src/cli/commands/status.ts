/** `svc-proxy status` — exit 0 when the daemon runs, 1 when it does not. */
import type { Command } from 'commander';
import type { CliContext } from '../io.js';
import { duration } from '../output.js';
import { proxyStatusLines, shellProxyDiffers } from '../../providers/upstream-proxy.js';
import { connectAdmin } from '../connect-admin.js';

export function register(program: Command, ctx: CliContext): void {
  program
    .command('status')
    .description('Is the daemon running? pid, port, uptime, base URLs, connected providers (exit 1 when not running)')
    .option('--json', 'print the status as JSON')
    .action(async (flags: { json?: boolean }) => {
      const client = await connectAdmin(ctx);
      if (!client) {
        if (flags.json) ctx.json({ running: false });
        else ctx.out('svc-proxy is not running (start it with: svc-proxy start)');
        ctx.exitCode = 1;
        return;
      }
      const s = await client.status();
      const service = await loginService(ctx);
      if (flags.json) {
        ctx.json({ ...s, loginService: service ?? null });
        return;
      }
      ctx.out(`svc-proxy ${s.version} is running (pid ${s.pid}) on ${s.host}:${s.port}, up ${duration(s.uptimeSeconds)}`);
      ctx.out(`  protocol A (OpenAI):    ${s.baseUrls.a}`);
      ctx.out(`  protocol B (Anthropic): ${s.baseUrls.b}`);
      const connected = s.providers.filter((p) => p.connected).map((p) => `${p.name} (${p.source})`);
      const missing = s.providers.filter((p) => !p.connected).map((p) => p.name);
      ctx.out(`providers: ${connected.length ? connected.join(', ') : 'none connected'}${missing.length ? `; not connected: ${missing.join(', ')}` : ''}`);
      for (const p of s.providers) if (p.credentialProblem !== undefined) ctx.out(`  ${p.name}: ${p.credentialProblem}`);
      if (s.endpoints.length) ctx.out(`endpoints: ${s.endpoints.map((e) => `${e.slug} (${e.format})`).join(', ')}`);
      if (s.locals.length) ctx.out(`local servers: ${s.locals.map((l) => l.slug).join(', ')}`);
      ctx.out(`keys: ${s.keys.active} active, ${s.keys.revoked} revoked`);
      if (!s.keychain.available) ctx.out(`keychain: not usable (${s.keychain.reason})`);
      if (s.upstreamProxy) {
        for (const line of proxyStatusLines(s.upstreamProxy)) ctx.out(line);
        const differs = shellProxyDiffers(s.upstreamProxy, ctx.io.env);
        if (differs) ctx.out(differs);
      }
      if (s.requestLog && !s.requestLog.ok) ctx.out(`request log: NOT written to disk (${s.requestLog.error}); ${s.requestLog.droppedLines} entries lost so far; proxying is unaffected`);
      if (s.memory) ctx.out(`memory: ${s.memory.rssMb} MB resident, heap ${s.memory.heapUsedMb} MB in use${s.memory.idleTrims === null ? ' (C-heap trim not built)' : ''}`);
      ctx.out(`state: ${s.stateDir}`);
      if (service) ctx.out(`login service: ${service.title} ${service.file} (svc-proxy service status)`);
      if (s.configProblem) {
        ctx.out(`config: the last edit of config.json was NOT applied (${s.configProblem.at}); running with the previous config:`);
        ctx.out(s.configProblem.message.replace(/^/gm, '  '));
      }
    });
}

/** The login service that runs this state dir's daemon, if one is installed (no manager is asked). */
async function loginService(ctx: CliContext): Promise<{ manager: string; title: string; file: string } | undefined> {
  const { installedService } = await import('../service/service-manager.js');
  const m = await installedService(ctx.io.env, ctx.paths().dir);
  return m ? { manager: m.kind, title: m.title, file: m.file } : undefined;
}
