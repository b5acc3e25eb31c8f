// `npm run soak`: a bounded soak of the real daemon on loopback. Not part of `npm test`.
//
//   1,000 concurrent streams held for a minute against the bench mock upstream (each stream is
//   200 chunks, one every SOAK_CHUNK_MS; a finished stream is replaced at once), a quarter each of
//   chat→chat and messages→messages passthrough and chat→messages and messages→chat conversion;
//   plus, every 5 s, a burst of requests (whole answers and fast streams) of which ~30% are
//   abandoned by the client at a random moment.
//
// Afterwards it checks, and exits 1 if one fails:
//   - every stream that was not abandoned ended with its dialect's terminal event;
//   - no leaked sockets: client sockets close with the load; upstream ones once their keep-alive
//     ends (≤ 65 s); then the daemon's open file descriptors are back to what they were before
//     the load (/proc/<pid>/fd, sockets matched to /proc/net/tcp);
//   - memory: the live heap after the run (read from `status` once the daemon's idle collector has
//     run after the load and RSS has settled) is within HEAP_BOUND_MB (16 MB) of the heap after
//     warm-up, and idle RSS after the run is within SOAK_RSS_BOUND_MB (200 MB) of idle RSS before
//     it. RSS over the run is reported, not judged: it follows V8's and glibc's retention (a
//     sawtooth between 200 and 330 MB here), not what the daemon holds — four rounds of 1,000
//     streams left the live heap at 18.5, 19.9, 20.2, 20.4 MB while RSS read 236, 273, 257, 283 MB.
//   - every request the daemon answered (x-svc-request-id) is in the request log
//     (`svc-proxy logs --json`), and the log holds no more requests than were sent;
//   - the daemon printed no crash, unhandled rejection or unexpected error.
//
// Env: SOAK_SECONDS (60), SOAK_STREAMS (1000), SOAK_CHUNK_MS (50), SOAK_BURST (200),
// SOAK_HEAP_BOUND_MB (16), SOAK_RSS_BOUND_MB (200).
// Bounded: a hard stop at 4 minutes; every child process is killed on exit.
import http from 'node:http';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort, procRssMb, settledRssMb, superviseChildren, sleep, startProcess, waitForHttp } from './lib.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const bin = path.join(here, '..', 'bin', 'svc-proxy.cjs');
const SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const STREAMS = Number(process.env.SOAK_STREAMS ?? 1000);
const CHUNK_MS = Number(process.env.SOAK_CHUNK_MS ?? 50);
const BURST = Number(process.env.SOAK_BURST ?? 200);
const BURST_EVERY_MS = 5_000;
const HEAP_BOUND_MB = Number(process.env.SOAK_HEAP_BOUND_MB ?? 16);
const RSS_BOUND_MB = Number(process.env.SOAK_RSS_BOUND_MB ?? 200);
/**
 * Idle upstream sockets stay pooled for the upstream's keep-alive hint (the bench mock says 60 s;
 * undici closes them just before): after that long every socket must be gone.
 */
const IDLE_WAIT_MS = 65_000;

const children = superviseChildren('soak', 4 * 60_000);

const log = (...a) => console.log(...a);

function svc(home, args, input) {
  return execFileSync(process.execPath, [bin, ...args], { env: { ...process.env, SVC_PROXY_HOME: home }, input: input ?? '', stdio: ['pipe', 'pipe', 'pipe'], timeout: 60_000, maxBuffer: 256 * 1024 * 1024 }).toString();
}

/** The daemon's own memory report (`status --json`): rssMb, heapUsedMb, idleCollections. */
function daemonMemory(home) {
  return JSON.parse(svc(home, ['status', '--json'])).memory;
}

function fdCount(pid) {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** The daemon's TCP sockets, split into client connections (to its port) and others (upstream). */
function sockets(pid, port) {
  const inodes = new Set();
  for (const fd of readdirSync(`/proc/${pid}/fd`)) {
    try {
      const m = /^socket:\[(\d+)\]$/.exec(execFileSync('readlink', [`/proc/${pid}/fd/${fd}`]).toString().trim());
      if (m) inodes.add(m[1]);
    } catch {}
  }
  let clients = 0;
  let upstream = 0;
  const portHex = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text = '';
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || !inodes.has(f[9])) continue;
      if (f[3] === '0A') continue; // the listening socket
      if (f[1].endsWith(portHex)) clients++;
      else upstream++;
    }
  }
  return { clients, upstream };
}

// ---------------------------------------------------------------------------------------------

const stats = {
  streamsStarted: 0,
  streamsOk: 0,
  streamsBad: 0,
  burstSent: 0,
  burstAborted: 0,
  burstOk: 0,
  burstBad: 0,
  badSamples: [],
  ids: new Set(),
};

function bad(kind, detail) {
  if (stats.badSamples.length < 10) stats.badSamples.push(`${kind}: ${detail}`);
}

const TERMINAL = { chat: /data: \[DONE\]\s*$/, messages: /event: message_stop\s*\ndata: [^\n]*\s*$/ };

/** One request; resolves when it is over. `abortAfterMs` destroys it at that moment. */
function request(agent, port, key, route, { abortAfterMs } = {}) {
  return new Promise((resolve) => {
    const body = JSON.stringify(route.body);
    let text = '';
    let done = false;
    const finish = (outcome) => {
      if (done) return;
      done = true;
      resolve(outcome);
    };
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        path: route.path,
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), authorization: `Bearer ${key}`, 'anthropic-version': '2023-06-01' },
      },
      (res) => {
        const id = res.headers['x-svc-request-id'];
        if (typeof id === 'string') stats.ids.add(id);
        res.setEncoding('utf8');
        res.on('data', (c) => {
          // keep only the tail: memory of the client must not be what we measure
          text = (text + c).slice(-4096);
        });
        res.on('end', () => finish({ status: res.statusCode, text }));
        res.on('error', () => finish({ status: res.statusCode, text, error: true }));
        res.on('aborted', () => finish({ status: res.statusCode, text, error: true }));
      },
    );
    req.on('error', (e) => finish({ status: 0, text, error: e.code ?? String(e) }));
    req.setTimeout(120_000, () => req.destroy(new Error('client timeout')));
    if (abortAfterMs !== undefined) {
      setTimeout(() => {
        if (!done) {
          req.destroy();
          finish({ aborted: true });
        }
      }, abortAfterMs);
    }
    req.end(body);
  });
}

const hi = [{ role: 'user', content: 'soak' }];

/** The four stream routes: passthrough and converted, for each client protocol. */
function streamRoutes(model) {
  return [
    { dialect: 'chat', path: '/protocol-a/v1/chat/completions', body: { model: `bencha/${model}`, stream: true, messages: hi } },
    { dialect: 'chat', path: '/protocol-a/v1/chat/completions', body: { model: `anthropic/${model}`, stream: true, messages: hi } },
    { dialect: 'messages', path: '/protocol-b/v1/messages', body: { model: `anthropic/${model}`, stream: true, max_tokens: 100, messages: hi } },
    { dialect: 'messages', path: '/protocol-b/v1/messages', body: { model: `bencha/${model}`, stream: true, max_tokens: 100, messages: hi } },
  ];
}

async function main() {
  const t0 = Date.now();
  log(`soak: ${STREAMS} concurrent streams for ${SECONDS} s (a chunk every ${CHUNK_MS} ms, 200 chunks each), bursts of ${BURST} every ${BURST_EVERY_MS / 1000} s with ~30% client aborts`);

  const mockPort = await freePort();
  children.push(await startProcess(process.execPath, [path.join(here, 'mock-upstream.js'), String(mockPort)], { ready: /ready/ }));
  const mockUrl = `http://127.0.0.1:${mockPort}`;

  const home = mkdtempSync(path.join(os.tmpdir(), 'svc-soak-'));
  const port = await freePort();
  svc(home, ['provider', 'set', 'anthropic', '--base-url', mockUrl]);
  svc(home, ['endpoint', 'add', 'bencha', '--url', `${mockUrl}/v1`, '--format', 'a', '--no-credential']);
  const key = JSON.parse(svc(home, ['key', 'create', '--name', 'soak', '--json'])).key;
  const daemon = await startProcess(process.execPath, [bin, 'start', '--foreground', '--no-tui', '--port', String(port)], {
    env: { SVC_PROXY_HOME: home, ANTHROPIC_API_KEY: 'sk-ant-soak', CI: 'true' },
    ready: /protocol-b|listening/i,
  });
  children.push(daemon);
  let daemonOut = '';
  daemon.stdout.on('data', (c) => (daemonOut += c.toString()));
  daemon.stderr.on('data', (c) => (daemonOut += c.toString()));
  await waitForHttp(`http://127.0.0.1:${port}/health`);
  const pid = Number(JSON.parse(readFileSync(path.join(home, 'daemon.json'), 'utf8')).pid);

  await sleep(500);
  const fdBefore = fdCount(pid);
  // warm-up: a few of each route, then let the daemon settle
  const warmAgent = new http.Agent({ keepAlive: false });
  for (const r of streamRoutes('bench-model')) for (let i = 0; i < 20; i++) await request(warmAgent, port, key, r);
  await sleep(1_000);
  const rssWarm = procRssMb(pid);
  const warm = daemonMemory(home);
  const heapWarm = warm.heapUsedMb;
  log(`daemon pid ${pid}: ${fdBefore} fds before load, RSS ${rssWarm.toFixed(1)} MB and heap ${heapWarm} MB after warm-up`);

  // ---- the soak: STREAMS slots, each running streams back to back until the end
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const endAt = Date.now() + SECONDS * 1000;
  const routes = streamRoutes(`drip${CHUNK_MS}`);
  const samples = [];
  const sampler = setInterval(() => {
    try {
      samples.push({ t: (Date.now() - (endAt - SECONDS * 1000)) / 1000, rss: procRssMb(pid), fds: fdCount(pid) });
    } catch {}
  }, 1_000);

  const slot = async (i) => {
    // spread the start over the first seconds so the streams do not all move in lockstep
    await sleep(Math.floor((i / STREAMS) * Math.min(5_000, CHUNK_MS * 50)));
    while (Date.now() < endAt) {
      const route = routes[i % routes.length];
      stats.streamsStarted++;
      const out = await request(agent, port, key, route);
      if (out.status === 200 && TERMINAL[route.dialect].test(out.text)) stats.streamsOk++;
      else {
        stats.streamsBad++;
        bad('stream', `${route.body.model} ${out.status} ${out.error ?? ''} …${out.text.slice(-200)}`);
      }
    }
  };

  const burstAgent = new http.Agent({ keepAlive: true, maxSockets: 100 });
  const burstRoutes = [...streamRoutes('bench-model'), ...streamRoutes('bench-model').map((r) => ({ ...r, body: { ...r.body, stream: false } }))];
  const bursts = (async () => {
    while (Date.now() + BURST_EVERY_MS < endAt) {
      await sleep(BURST_EVERY_MS);
      await Promise.all(
        Array.from({ length: BURST }, async (_, k) => {
          const route = burstRoutes[k % burstRoutes.length];
          const abort = Math.random() < 0.3 ? Math.floor(Math.random() * 60) : undefined;
          stats.burstSent++;
          const out = await request(burstAgent, port, key, route, { abortAfterMs: abort });
          if (out.aborted) stats.burstAborted++;
          else if (out.status === 200) stats.burstOk++;
          else {
            stats.burstBad++;
            bad('burst', `${route.body.model} stream=${route.body.stream} ${out.status} ${out.error ?? ''} ${out.text.slice(-200)}`);
          }
        }),
      );
    }
  })();

  const progress = setInterval(() => {
    const s = samples.at(-1);
    log(`  t=${s ? s.t.toFixed(0) : '?'}s streams ok ${stats.streamsOk} (bad ${stats.streamsBad}), bursts ${stats.burstSent} (aborted ${stats.burstAborted}), RSS ${s ? s.rss.toFixed(0) : '?'} MB, fds ${s?.fds ?? '?'}`);
  }, 10_000);
  await Promise.all([...Array.from({ length: STREAMS }, (_, i) => slot(i)), bursts]);
  clearInterval(progress);
  clearInterval(sampler);
  const loadEndedAt = Date.now();
  agent.destroy();
  burstAgent.destroy();
  warmAgent.destroy();

  // ---- afterwards: sockets close (client ones now, upstream ones when their keep-alive ends)
  let idle = sockets(pid, port);
  const idleDeadline = Date.now() + IDLE_WAIT_MS;
  while ((idle.clients > 0 || idle.upstream > 0) && Date.now() < idleDeadline) {
    await sleep(1_000);
    idle = sockets(pid, port);
  }
  await sleep(500);
  const fdAfter = fdCount(pid);
  // the idle collector runs at its first idle look (every 3 s) after the load, and gives the grown
  // heap back at a quiet look 6 s after that: wait for its collection, then for RSS to settle
  let memAfter = daemonMemory(home);
  const collectDeadline = Date.now() + 20_000;
  while (memAfter.idleCollections <= warm.idleCollections && Date.now() < collectDeadline) {
    await sleep(1_000);
    memAfter = daemonMemory(home);
  }
  const rssAfter = await settledRssMb(pid, 10_000, 30_000);
  memAfter = daemonMemory(home);

  // ---- accounting: every answered request is in the log
  // `logs --json` prints one JSON entry per line
  const list = svc(home, ['logs', '--json', '--limit', String(stats.streamsStarted + stats.burstSent + 1000)])
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l));
  const logged = new Set(list.map((e) => e.id));
  const missing = [...stats.ids].filter((id) => !logged.has(id));
  const sent = stats.streamsStarted + stats.burstSent + 80;
  const byStatus = {};
  for (const e of list) byStatus[e.status] = (byStatus[e.status] ?? 0) + 1;

  const crash = daemonOut.split('\n').filter((l) => /uncaught exception|unhandled rejection|unexpected error|TypeError|RangeError/i.test(l));

  // ---- memory: growth in the steady second half; idle after vs idle before
  const half = samples.filter((s) => s.t >= SECONDS / 2);
  const rssMid = half[0]?.rss ?? NaN;
  const rssEnd = half.at(-1)?.rss ?? NaN;
  const rssPeak = Math.max(...samples.map((s) => s.rss));
  const fdPeak = Math.max(...samples.map((s) => s.fds));
  const growthPct = ((rssEnd - rssMid) / rssMid) * 100;
  const heapGrowth = memAfter.heapUsedMb - heapWarm;

  const checks = [
    [`streams: ${stats.streamsOk} of ${stats.streamsStarted} ended with their terminal event`, stats.streamsBad === 0 && stats.streamsOk > 0],
    [`bursts: ${stats.burstSent} sent, ${stats.burstAborted} abandoned by the client, ${stats.burstOk} answered 200, ${stats.burstBad} otherwise`, stats.burstBad === 0],
    [`sockets: ${idle.clients} client and ${idle.upstream} upstream sockets left ${((Date.now() - loadEndedAt) / 1000).toFixed(0)} s after the load; fds ${fdAfter} after vs ${fdBefore} before (peak ${fdPeak})`, idle.clients === 0 && idle.upstream === 0 && fdAfter <= fdBefore + 2],
    [`memory: live heap ${heapWarm} MB after warm-up → ${memAfter.heapUsedMb} MB after the run (${memAfter.idleCollections} idle collection(s); bound +${HEAP_BOUND_MB} MB); RSS ${rssWarm.toFixed(0)} MB after warm-up, peak ${rssPeak.toFixed(0)} MB, ${rssMid.toFixed(0)} → ${rssEnd.toFixed(0)} MB over the second half (${growthPct.toFixed(1)}%, reported), idle after ${rssAfter.toFixed(0)} MB (bound +${RSS_BOUND_MB} MB)`, memAfter.idleCollections > 0 && heapGrowth < HEAP_BOUND_MB && rssAfter - rssWarm < RSS_BOUND_MB],
    [`request log: ${stats.ids.size} answered requests, ${missing.length} missing from \`logs --json\`; ${list.length} entries for ≤ ${sent} requests sent (by status: ${JSON.stringify(byStatus)})`, missing.length === 0 && list.length <= sent],
    [`daemon output: ${crash.length} crash or unexpected-error lines`, crash.length === 0],
  ];
  log('');
  for (const [text, ok] of checks) log(`${ok ? 'PASS' : 'FAIL'}  ${text}`);
  if (stats.badSamples.length) log(`\nfirst failures:\n  ${stats.badSamples.join('\n  ')}`);
  if (crash.length) log(`\ndaemon:\n  ${crash.slice(0, 5).join('\n  ')}`);
  log(`\nsoak took ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  daemon.kill('SIGTERM');
  await sleep(500);
  rmSync(home, { recursive: true, force: true });
  process.exit(checks.every(([, ok]) => ok) ? 0 : 1);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
