/**
 * The shape of config.json, validated on every load. Bump CONFIG_VERSION and add a step to
 * migrations.ts whenever the shape changes.
 */
import { z } from 'zod';
import { authHeaderProblem, fixedHeaderProblem, type HeaderSettings } from './header-settings.js';
import { checkProxyUrl } from './proxy-url.js';

export const CONFIG_VERSION = 2;

export const BUILTIN_PROVIDERS = ['anthropic', 'openai', 'openrouter', 'gemini'] as const;
export type BuiltinProvider = (typeof BUILTIN_PROVIDERS)[number];

/** URL-safe slug for endpoints, local servers and groups. */
export const slugSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9_-]{0,62}$/, 'use lowercase letters, digits, "-" or "_" (max 63 chars, starting with a letter or digit)');

export const settingsSchema = z.object({
  host: z.string().default('127.0.0.1'),
  port: z.number().int().min(0).max(65535).default(4545),
  /** Request log: days to keep rotated files. */
  logRetentionDays: z.number().int().min(0).default(14),
  /** Request log: rotate the JSONL file past this size. */
  logMaxBytes: z.number().int().positive().default(10 * 1024 * 1024),
  /** Request log: all its files together; the oldest rotated files are deleted past it. */
  logMaxTotalBytes: z.number().int().positive().default(500 * 1024 * 1024),
  /** Log request/response bodies (credentials and images redacted). Debugging only. */
  logBodies: z.boolean().default(false),
  /** Largest request body accepted (413 request_too_large past it). */
  bodyLimitBytes: z.number().int().positive().default(32 * 1024 * 1024),
  /** All request bodies held at once (503 proxy_overloaded past it): bounds memory under many large requests. */
  bodyBudgetBytes: z.number().int().positive().default(512 * 1024 * 1024),
  /** Upstream: connect timeout. */
  connectTimeoutMs: z.number().int().positive().default(10_000),
  /** Upstream: time to response headers (long: reasoning models think before answering). */
  headersTimeoutMs: z.number().int().positive().default(600_000),
  /** Upstream: longest silence between two chunks of a body or stream. */
  idleTimeoutMs: z.number().int().positive().default(300_000),
  /**
   * Streams: send the response headers (and SSE comments) after this long without the upstream's
   * first event, so clients that give up on missing headers keep waiting (early-stream.ts); 0: never.
   */
  streamHeadersAfterMs: z.number().int().min(0).default(30_000),
  /**
   * Groups try a target that failed moments ago (timeout, unreachable, 429, 5xx, refused key) after
   * their other targets until its cooldown is over (routing/cooldowns.ts).
   */
  groupCooldowns: z.boolean().default(true),
  /** Graceful drain of in-flight requests on stop. */
  drainTimeoutMs: z.number().int().positive().default(10_000),
  /** Extra Host header values accepted besides loopback/localhost at our port (DNS-rebinding guard). */
  allowedHosts: z.array(z.string()).default([]),
  /** Browser origins allowed by CORS; empty = no CORS headers at all. */
  corsOrigins: z.array(z.string()).default([]),
  /**
   * Outbound proxy for upstream calls (providers/upstream-proxy.ts): "env" reads HTTPS_PROXY,
   * HTTP_PROXY and NO_PROXY from the daemon's environment; "none" connects directly; a URL sends
   * every upstream call through that proxy. Loopback always goes direct.
   */
  upstreamProxy: z
    .string()
    .default('env')
    .superRefine((value, ctx) => {
      if (value === 'env' || value === 'none') return;
      const checked = checkProxyUrl(value, 'the value');
      if ('problem' in checked) ctx.addIssue({ code: 'custom', message: `${checked.problem} Other values: "env", "none".` });
      else if (new URL(checked.url).password) {
        ctx.addIssue({ code: 'custom', message: 'keep the proxy password out of config.json: give the URL in HTTPS_PROXY in the environment svc-proxy starts in, with upstreamProxy "env"' });
      }
    }),
  /** Hosts reached directly, besides loopback and NO_PROXY: `example.com` (and its subdomains), `.corp`, `10.0.0.0/8`, `host:port`. */
  noProxy: z.array(z.string()).default([]),
}).superRefine((s, ctx) => {
  // a budget below the limit would refuse with 503 (retry later) a body that can never fit
  if (s.bodyBudgetBytes < s.bodyLimitBytes) {
    ctx.addIssue({
      code: 'custom',
      path: ['bodyBudgetBytes'],
      message: `${s.bodyBudgetBytes} is less than bodyLimitBytes (${s.bodyLimitBytes}): a body of the largest size allowed would never fit. Raise bodyBudgetBytes to at least ${s.bodyLimitBytes}, or lower bodyLimitBytes`,
    });
  }
});
export type Settings = z.infer<typeof settingsSchema>;

/**
 * An upstream's own header settings (header-settings.ts): the header that carries the credential
 * (absent: the provider's or format's own), and fixed headers sent with every request (never auth).
 */
const headerSettingsShape = {
  authHeader: z
    .string()
    .optional()
    .superRefine((name, ctx) => {
      const problem = name === undefined ? undefined : authHeaderProblem(name);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    }),
  headers: z.record(z.string(), z.string()).optional(),
};

function checkFixedHeaders(settings: HeaderSettings, ctx: z.RefinementCtx): void {
  for (const [name, value] of Object.entries(settings.headers ?? {})) {
    const problem = fixedHeaderProblem(name, value, settings.authHeader);
    if (problem) ctx.addIssue({ code: 'custom', path: ['headers', name], message: problem });
  }
}

export const providerSettingsSchema = z
  .object({
    baseUrl: z.string().url().optional(),
    enabled: z.boolean().default(true),
    ...headerSettingsShape,
  })
  .superRefine(checkFixedHeaders);
export type ProviderSettings = z.infer<typeof providerSettingsSchema>;

export const endpointSchema = z.object({
  url: z.string().url(),
  /** a = Chat Completions (+ transcriptions); b = Anthropic Messages. */
  format: z.enum(['a', 'b']),
  /** A credential was stored for it (keychain or file); the secret itself never lives here. */
  hasCredential: z.boolean().default(false),
  created: z.string(),
  ...headerSettingsShape,
}).superRefine(checkFixedHeaders);
export type Endpoint = z.infer<typeof endpointSchema>;

export const localSchema = z.object({
  url: z.string().url(),
  created: z.string(),
  /** Found by auto-detection (Ollama/LM Studio) rather than added by hand. */
  detected: z.boolean().default(false),
});
export type LocalServer = z.infer<typeof localSchema>;

export const groupModelSchema = z.object({
  /** Any string a client sends as a model name, `/` and `.` included. */
  name: z.string().min(1),
  /** Ordered `provider/model` targets; tried in order. */
  targets: z.array(z.string().min(3)).min(1),
});
export const groupSchema = z.object({
  models: z.array(groupModelSchema),
  created: z.string(),
});
export type Group = z.infer<typeof groupSchema>;

export const serviceKeySchema = z.object({
  id: z.string(),
  name: z.string().min(1),
  /** hex SHA-256 of the full key. */
  hash: z.string().regex(/^[0-9a-f]{64}$/),
  /** Short display prefix, e.g. "sk-svc-proxy-Ab3d". */
  prefix: z.string(),
  created: z.string(),
  lastUsed: z.string().nullable().default(null),
  revoked: z.string().nullable().default(null),
});
export type ServiceKeyRecord = z.infer<typeof serviceKeySchema>;

export const configSchema = z.object({
  version: z.literal(CONFIG_VERSION),
  settings: settingsSchema.default(() => settingsSchema.parse({})),
  providers: z.record(z.string(), providerSettingsSchema).default({}),
  endpoints: z.record(slugSchema, endpointSchema).default({}),
  locals: z.record(slugSchema, localSchema).default({}),
  groups: z.record(slugSchema, groupSchema).default({}),
  keys: z.array(serviceKeySchema).default([]),
});
export type Config = z.infer<typeof configSchema>;

export function defaultConfig(): Config {
  return configSchema.parse({ version: CONFIG_VERSION });
}
