/**
 * Finding a local model server for `svc-proxy local add` without `--url`: the default ports of the
 * usual servers on 127.0.0.1, each asked `GET /v1/models` at once with a short bound; a port
 * answers when it gives an OpenAI-compatible list (`{"data": [...]}`). Plain node:http, so the CLI
 * loads no HTTP client of the daemon's; loopback only, so no proxy is in the way.
 */
import { request } from 'node:http';

export interface KnownPort {
  port: number;
  /** Whose default port it is. */
  label: string;
}

/** Default ports, from each server's documentation. */
export const LOCAL_SERVER_PORTS: readonly KnownPort[] = [
  { port: 8080, label: 'llama.cpp (llama-server)' },
  { port: 8000, label: 'vLLM' },
  { port: 30000, label: 'SGLang' },
  { port: 1234, label: 'LM Studio' },
  { port: 11434, label: 'Ollama' },
  { port: 1337, label: 'Jan' },
  { port: 5001, label: 'KoboldCpp' },
  { port: 5000, label: 'text-generation-webui or TabbyAPI' },
];

/** `owned_by` of the listed models, as each server writes it: a surer sign than the port. */
const OWNERS: Readonly<Record<string, string>> = {
  llamacpp: 'llama.cpp (llama-server)',
  vllm: 'vLLM',
  sglang: 'SGLang',
  library: 'Ollama',
  organization_owner: 'LM Studio',
  koboldcpp: 'KoboldCpp',
  tabbyapi: 'TabbyAPI',
};

export interface FoundServer {
  port: number;
  /** Base URL to add (what `/chat/completions` is appended to). */
  url: string;
  /** What it is, when its list says so; else whose default port it is, when a known one. */
  kind?: string;
  /** Whether `kind` comes from the list itself rather than from the port. */
  identified: boolean;
}

const MAX_LIST_BYTES = 4 * 1024 * 1024;

/** The servers answering on `ports` of 127.0.0.1, in the order of `ports`. */
export async function probeLocalServers(ports: readonly KnownPort[] = LOCAL_SERVER_PORTS, timeoutMs = 500): Promise<FoundServer[]> {
  const answers = await Promise.all(ports.map((p) => listOn(p.port, timeoutMs)));
  const found: FoundServer[] = [];
  ports.forEach((p, i) => {
    const list = answers[i];
    if (list === undefined) return;
    const owner = ownerKind(list);
    const server: FoundServer = { port: p.port, url: `http://127.0.0.1:${p.port}/v1`, identified: owner !== undefined };
    const kind = owner ?? (p.label === '' ? undefined : p.label);
    if (kind !== undefined) server.kind = kind;
    found.push(server);
  });
  return found;
}

/**
 * The ports to probe: SVC_PROXY_LOCAL_PROBE_PORTS (comma-separated; for tests, which must not
 * depend on what runs on the machine) or the well-known ones. Undefined when the variable is malformed.
 */
export function probePorts(env: Readonly<Record<string, string | undefined>>): readonly KnownPort[] | undefined {
  const raw = env.SVC_PROXY_LOCAL_PROBE_PORTS;
  if (raw === undefined || raw.trim() === '') return LOCAL_SERVER_PORTS;
  const ports: KnownPort[] = [];
  for (const part of raw.split(',')) {
    const port = Number(part.trim());
    if (!Number.isInteger(port) || port < 1 || port > 65535) return undefined;
    ports.push({ port, label: LOCAL_SERVER_PORTS.find((k) => k.port === port)?.label ?? '' });
  }
  return ports;
}

function ownerKind(list: unknown[]): string | undefined {
  for (const entry of list) {
    const owner = typeof entry === 'object' && entry !== null ? (entry as { owned_by?: unknown }).owned_by : undefined;
    const kind = typeof owner === 'string' ? OWNERS[owner.toLowerCase()] : undefined;
    if (kind !== undefined) return kind;
  }
  return undefined;
}

/** The `data` array a port's `/v1/models` answers with, or undefined (nothing there, not such a list, too slow). */
function listOn(port: number, timeoutMs: number): Promise<unknown[] | undefined> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path: '/v1/models', method: 'GET', headers: { accept: 'application/json' }, timeout: timeoutMs }, (res) => {
      const chunks: Buffer[] = [];
      let size = 0;
      res.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_LIST_BYTES) req.destroy();
        else chunks.push(c);
      });
      res.on('end', () => {
        if (res.statusCode !== 200) return resolve(undefined);
        try {
          const parsed: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          const data = typeof parsed === 'object' && parsed !== null ? (parsed as { data?: unknown }).data : undefined;
          resolve(Array.isArray(data) ? data : undefined);
        } catch {
          resolve(undefined);
        }
      });
      res.on('error', () => resolve(undefined));
      // cut off mid-answer: no 'end' comes (after one, resolving again does nothing)
      res.on('close', () => resolve(undefined));
    });
    // `timeout` covers an idle socket; the overall bound covers one that trickles
    const overall = setTimeout(() => req.destroy(), timeoutMs);
    req.on('close', () => clearTimeout(overall));
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(undefined));
    req.end();
  });
}
