/**
 * Which adapter, base URL and credential serve a provider slug: a built-in provider, a custom
 * endpoint (format a = Chat, b = Messages), a local server added by hand, or a detected local
 * server (Ollama / LM Studio). Synchronous and cheap: it runs on every request.
 */
import { CREDENTIAL_ENV_VARS, DEFAULT_BASE_URLS } from '../config/builtin-providers.js';
import { BUILTIN_PROVIDERS, type BuiltinProvider, type Config } from '../config/schema.js';
import { anthropicAdapter } from './anthropic.js';
import { customChatAdapter } from './custom-chat.js';
import { customMessagesAdapter } from './custom-messages.js';
import { endpointReaddCommands } from './endpoint-readd.js';
import { withOwnHeaders } from './own-headers.js';
import { geminiAdapter } from './gemini.js';
import { defaultLocalDetector, type LocalDetector } from './local-detect.js';
import { localAdapter } from './local.js';
import { openaiAdapter } from './openai.js';
import { openrouterAdapter } from './openrouter.js';
import type { ProviderAdapter, ResolvedProvider } from './types.js';

export interface RegistryDeps {
  config(): Config;
  credential(slug: string): string | undefined;
  /** Why a built-in provider's credential from the environment is unusable (asked only when it has none). */
  credentialProblem?(slug: string): string | undefined;
  /** Local server detection (defaults to the daemon-wide detector). */
  detector?: LocalDetector;
}

/** `code`: the client's error code when not `provider_not_connected` (an unusable credential). */
export type ResolveFailure = { error: 'unknown_provider'; known: string[] } | { error: 'not_connected'; hint: string; code?: 'provider_credential_invalid' };
export type ResolveResult = ResolvedProvider | ResolveFailure;

const BUILTIN_ADAPTERS: Readonly<Record<BuiltinProvider, ProviderAdapter>> = {
  anthropic: anthropicAdapter,
  openai: openaiAdapter,
  openrouter: openrouterAdapter,
  gemini: geminiAdapter,
};

function isBuiltin(slug: string): slug is BuiltinProvider {
  return (BUILTIN_PROVIDERS as readonly string[]).includes(slug);
}

export function isResolveFailure(r: ResolveResult): r is ResolveFailure {
  return 'error' in r;
}

export function resolveProvider(slug: string, deps: RegistryDeps): ResolveResult {
  const config = deps.config();
  const detector = deps.detector ?? defaultLocalDetector;

  if (isBuiltin(slug)) {
    const settings = config.providers[slug];
    if (settings?.enabled === false) {
      return { error: 'not_connected', hint: `Provider "${slug}" is disabled in the configuration (providers.${slug}.enabled is false).` };
    }
    const credential = deps.credential(slug);
    if (!credential) {
      const problem = deps.credentialProblem?.(slug);
      if (problem !== undefined) return { error: 'not_connected', hint: `Provider "${slug}" cannot be used: ${problem}`, code: 'provider_credential_invalid' };
      return {
        error: 'not_connected',
        hint: `Provider "${slug}" is not connected. Run \`svc-proxy provider connect ${slug}\` or set ${CREDENTIAL_ENV_VARS[slug]} for the daemon.`,
      };
    }
    const adapter = settings ? withOwnHeaders(BUILTIN_ADAPTERS[slug], settings) : BUILTIN_ADAPTERS[slug];
    return { slug, adapter, baseUrl: adapter.normaliseBaseUrl(settings?.baseUrl ?? DEFAULT_BASE_URLS[slug]), credential };
  }

  // own keys only: a model id like "constructor/x" must not find Object.prototype's members
  const endpoint = Object.hasOwn(config.endpoints, slug) ? config.endpoints[slug] : undefined;
  if (endpoint) {
    const adapter = withOwnHeaders(endpoint.format === 'a' ? customChatAdapter : customMessagesAdapter, endpoint);
    const credential = deps.credential(slug);
    if (endpoint.hasCredential && !credential) {
      const readd = endpointReaddCommands(slug, endpoint);
      const problem = deps.credentialProblem?.(slug);
      if (problem !== undefined) return { error: 'not_connected', hint: `Endpoint "${slug}" cannot be used: ${problem} ${readd}.`, code: 'provider_credential_invalid' };
      return {
        error: 'not_connected',
        hint: `The credential of endpoint "${slug}" is missing from the keychain. Add the endpoint again: ${readd}.`,
      };
    }
    return { slug, adapter, baseUrl: adapter.normaliseBaseUrl(endpoint.url), ...(credential ? { credential } : {}) };
  }

  const local = Object.hasOwn(config.locals, slug) ? config.locals[slug] : undefined;
  if (local) return { slug, adapter: localAdapter, baseUrl: localAdapter.normaliseBaseUrl(local.url) };

  const candidate = detector.candidate(slug);
  if (candidate) {
    const snap = detector.snapshot();
    detector.touch();
    // Never probed, or probed too long ago (it may have started since): try it (a refused
    // connection is a clear error); silent at a fresh probe: say so.
    if (!snap || snap.stale || snap.found.some((c) => c.slug === slug)) {
      return { slug, adapter: localAdapter, baseUrl: localAdapter.normaliseBaseUrl(candidate.url) };
    }
    return {
      error: 'not_connected',
      hint: `${candidate.label} does not answer at ${candidate.url}: is it running? Start it${candidate.start ? ` ${candidate.start}` : ''}, or add a local server with \`svc-proxy local add <slug> --url <url>\`.`,
    };
  }

  return { error: 'unknown_provider', known: knownProviderSlugs(config, detector) };
}

/** Every slug a model id may start with right now: builtins, endpoints, locals, detected servers. */
export function knownProviderSlugs(config: Config, detector: LocalDetector = defaultLocalDetector): string[] {
  const slugs: string[] = [...BUILTIN_PROVIDERS, ...Object.keys(config.endpoints), ...Object.keys(config.locals)];
  for (const c of detectedUnconfigured(config, detector)) slugs.push(c.slug);
  return slugs;
}

/** Detected servers not already configured by hand (by slug or by address). */
export function detectedUnconfigured(config: Config, detector: LocalDetector): { slug: string; url: string }[] {
  const found = detector.snapshot()?.found ?? [];
  const configured = [...Object.values(config.locals), ...Object.values(config.endpoints)].map((l) => serverKey(l.url));
  return found.filter((c) => !(c.slug in config.locals) && !(c.slug in config.endpoints) && !configured.includes(serverKey(c.url)));
}

/** host:port of a URL with every loopback spelling folded together. */
function serverKey(url: string): string {
  try {
    const u = new URL(url);
    const host = u.hostname === 'localhost' || u.hostname === '[::1]' || u.hostname.startsWith('127.') ? 'loopback' : u.hostname;
    const port = u.port || (u.protocol === 'https:' ? '443' : '80');
    return `${host}:${port}`;
  } catch {
    return url;
  }
}
