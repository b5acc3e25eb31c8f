/**
 * Finding a local server on the usual ports: real servers on ephemeral ports of 127.0.0.1 stand in
 * for them (the port list is a parameter), so nothing depends on what runs on this machine.
 */
import { createServer as createHttpServer, type Server } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SERVER_PORTS, probeLocalServers, probePorts } from '../../src/cli/local-probe.js';
import { WELL_KNOWN_LOCALS } from '../../src/providers/well-known-locals.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';
import { freePort } from '../fixtures/ports.js';

let ollama: GenericChatMock;
let vllm: Server;
let notAList: Server;
let silent: TcpServer;
const sockets: Socket[] = [];
let closed: number;

const portOf = (s: Server | TcpServer) => (s.address() as AddressInfo).port;
const mockPort = (m: GenericChatMock) => Number(new URL(m.origin).port);
const listen = <S extends Server | TcpServer>(s: S) => new Promise<S>((resolve) => s.listen(0, '127.0.0.1', () => resolve(s)));

beforeAll(async () => {
  // GenericChatMock lists its models as Ollama does: owned_by "library"
  ollama = await new GenericChatMock({ name: 'ollama', models: ['qwen3:8b'] }).listen();
  vllm = await listen(createHttpServer((_req, res) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ object: 'list', data: [{ id: 'Qwen/Qwen3-8B', object: 'model', owned_by: 'vllm' }] }))));
  notAList = await listen(createHttpServer((_req, res) => res.writeHead(404, { 'content-type': 'text/html' }).end('<h1>Not Found</h1>')));
  // accepts the connection and never answers
  silent = await listen(createTcpServer((s) => sockets.push(s)));
  closed = await freePort();
});
afterAll(async () => {
  for (const s of sockets) s.destroy();
  await Promise.all([ollama.close(), new Promise((r) => vllm.close(r)), new Promise((r) => notAList.close(r)), new Promise((r) => silent.close(r))]);
});

describe('probeLocalServers', () => {
  it('finds the servers that answer with a model list, and says what each is by its list', async () => {
    const started = Date.now();
    const found = await probeLocalServers(
      [
        { port: closed, label: 'Nothing' },
        { port: portOf(notAList), label: '' },
        { port: mockPort(ollama), label: 'vLLM' },
        { port: portOf(silent), label: '' },
        { port: portOf(vllm), label: '' },
      ],
      300,
    );
    expect(found).toEqual([
      // the list's owned_by says Ollama, whatever the port's label
      { port: mockPort(ollama), url: `http://127.0.0.1:${mockPort(ollama)}/v1`, kind: 'Ollama', identified: true },
      { port: portOf(vllm), url: `http://127.0.0.1:${portOf(vllm)}/v1`, kind: 'vLLM', identified: true },
    ]);
    // in parallel: the silent port's bound, not the sum of them
    expect(Date.now() - started).toBeLessThan(1500);
  });

  it('a list that names no known owner: the port says whose default it is, as a guess', async () => {
    const anon = await listen(createHttpServer((_req, res) => res.writeHead(200).end(JSON.stringify({ data: [{ id: 'm' }] }))));
    try {
      expect(await probeLocalServers([{ port: portOf(anon), label: 'KoboldCpp' }], 300)).toEqual([{ port: portOf(anon), url: `http://127.0.0.1:${portOf(anon)}/v1`, kind: 'KoboldCpp', identified: false }]);
      expect(await probeLocalServers([{ port: portOf(anon), label: '' }], 300)).toEqual([{ port: portOf(anon), url: `http://127.0.0.1:${portOf(anon)}/v1`, identified: false }]);
    } finally {
      await new Promise((r) => anon.close(r));
    }
  });
});

describe('probePorts', () => {
  it('the usual ports by default, the variable when set (a known port keeps its label), undefined when malformed', () => {
    expect(probePorts({})).toBe(LOCAL_SERVER_PORTS);
    expect(LOCAL_SERVER_PORTS.map((p) => p.port)).toEqual([8080, 8000, 30000, 1234, 11434, 1337, 5001, 5000]);
    expect(probePorts({ SVC_PROXY_LOCAL_PROBE_PORTS: '40001, 11434' })).toEqual([
      { port: 40001, label: '' },
      { port: 11434, label: 'Ollama' },
    ]);
    expect(probePorts({ SVC_PROXY_LOCAL_PROBE_PORTS: '80,http' })).toBeUndefined();
    expect(probePorts({ SVC_PROXY_LOCAL_PROBE_PORTS: '70000' })).toBeUndefined();
  });

  // Two lists by design (the servers the daemon serves with no config entry; every server's default
  // port, in probe order), sharing the facts of the first: they must not drift apart.
  it('probes each server the daemon detects by itself on the same port, under the same name', () => {
    for (const local of WELL_KNOWN_LOCALS) {
      expect(LOCAL_SERVER_PORTS, local.slug).toContainEqual({ port: Number(new URL(local.url).port), label: local.label });
    }
  });
});
