/** The daemon's own state as `doctor` findings: keychain, providers and their model lists, log, config. */
import { isRefusedCredential, listFailureText, type ListFailureRead } from '../../providers/model-list-failure.js';
import { CREDENTIAL_ENV_VARS } from '../../config/builtin-providers.js';
import type { DaemonStatus } from '../../server/admin/status.js';
import type { Finding } from './findings.js';
import { displayUrl } from '../../util/display-url.js';
import { workingKeyFix } from '../working-key-fix.js';

export interface ModelLists {
  counts: Record<string, number>;
  failed: Record<string, ListFailureRead>;
}

export function daemonFindings(s: DaemonStatus, lists: ModelLists | string): Finding[] {
  const out: Finding[] = [{ check: 'daemon', mark: 'ok', text: `svc-proxy ${s.version} running (pid ${s.pid}) on ${s.host}:${s.port}` }];
  out.push(
    s.keychain.available
      ? { check: 'keychain', mark: 'ok', text: 'usable' }
      : { check: 'keychain', mark: 'warn', text: `not usable (${s.keychain.reason}); keys come only from the environment and the 0600 file`, fix: 'see README, "Where state lives"' },
  );
  if (s.keys.active === 0) out.push({ check: 'service keys', mark: 'fail', text: 'no active key: every request will be refused', fix: 'svc-proxy key create --name <name>' });
  else out.push({ check: 'service keys', mark: 'ok', text: `${s.keys.active} active` });

  const slugs = [
    ...s.providers.filter((p) => p.connected).map((p) => ({ slug: p.name, fix: workingKeyFix(p.name, true) })),
    ...s.endpoints.map((e) => ({ slug: e.slug, fix: workingKeyFix(e.slug, false) })),
    ...s.locals.map((l) => ({ slug: l.slug, fix: `start the server at ${displayUrl(l.url)}, or: svc-proxy local remove ${l.slug}` })),
  ];
  if (slugs.length === 0) out.push({ check: 'providers', mark: 'fail', text: 'none connected, no endpoint or local server', fix: 'svc-proxy provider connect anthropic (or openai, openrouter, gemini)' });
  for (const { slug, fix } of slugs) {
    const check = `provider ${slug}`;
    if (typeof lists === 'string') {
      out.push({ check, mark: 'warn', text: `its model list could not be asked for (${lists})` });
      continue;
    }
    const failed = lists.failed[slug];
    if (failed === undefined) {
      out.push({ check, mark: 'ok', text: `${lists.counts[slug] ?? 0} models listed` });
      continue;
    }
    // a built-in provider that does not answer at a base URL set by hand: that URL is the first suspect
    const moved = s.providers.find((p) => p.name === slug && p.baseUrlOverridden);
    const remedy = isRefusedCredential(failed.reason) || s.locals.some((l) => l.slug === slug) ? fix : moved ? `check its base URL ${displayUrl(moved.baseUrl)} (svc-proxy provider set ${slug} --reset restores the default)` : undefined;
    out.push({ check, mark: 'fail', text: `no model list: ${listFailureText(failed)}`, ...(remedy ? { fix: remedy } : {}) });
  }
  for (const p of s.providers) {
    if (p.credentialProblem === undefined) continue;
    const fix = p.unusableStored ? `svc-proxy provider connect ${p.name}` : `fix or unset ${CREDENTIAL_ENV_VARS[p.name]} where the daemon is started, then: svc-proxy restart`;
    out.push({ check: `provider ${p.name}`, mark: 'fail', text: p.credentialProblem, fix });
  }
  const unconnected = s.providers.filter((p) => !p.connected && p.credentialProblem === undefined).map((p) => p.name);
  if (unconnected.length > 0) out.push({ check: 'not connected', mark: 'info', text: unconnected.join(', ') });

  if (!s.requestLog.ok) out.push({ check: 'request log', mark: 'warn', text: `not written to disk (${s.requestLog.error}); ${s.requestLog.droppedLines} entries lost so far` });
  if (s.configProblem) out.push({ check: 'config.json', mark: 'fail', text: `the last edit was not applied: ${s.configProblem.message}`, fix: 'svc-proxy config check, then fix config.json' });
  return out;
}
