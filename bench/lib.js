// Small process and measurement helpers for the benchmark (Linux /proc based).
import { spawn, execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import net from 'node:net';
import http from 'node:http';

let clkTck = 100;
try {
  clkTck = Number(execFileSync('getconf', ['CLK_TCK']).toString().trim()) || 100;
} catch {}

/** CPU time (user+system) a process has used so far, in ms. */
export function procCpuMs(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // Fields after the ")" that closes the command name: utime is the 14th field overall.
  const rest = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const utime = Number(rest[11]);
  const stime = Number(rest[12]);
  return ((utime + stime) * 1000) / clkTck;
}

/** Resident set size of a process, in MB. */
export function procRssMb(pid) {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const m = /VmRSS:\s+(\d+)\s+kB/.exec(status);
  return m ? Number(m[1]) / 1024 : NaN;
}

/**
 * RSS once it has settled: after `minMs` (the daemon's idle collector looks every 5 s and acts
 * after one idle look), sampled every 500 ms until four samples in a row (2 s) lie within 1 MB,
 * or `maxMs` passes (then the last sample). Memory freed by a collection shows up seconds after
 * load ends, so an early read reports garbage as if it were held.
 */
export async function settledRssMb(pid, minMs = 20_000, maxMs = 40_000) {
  const until = Date.now() + maxMs;
  await sleep(minMs);
  const window = [];
  for (;;) {
    window.push(procRssMb(pid));
    if (window.length > 4) window.shift();
    if (window.length === 4 && Math.max(...window) - Math.min(...window) <= 1) return window[3];
    if (Date.now() >= until) return window[window.length - 1];
    await sleep(500);
  }
}

export function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** Spawn a process and resolve once its output matches `ready` (or reject after timeoutMs). */
export function startProcess(cmd, args, { env, ready, timeoutMs = 30_000, cwd } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env: { ...process.env, ...env }, cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`${cmd} ${args.join(' ')} did not become ready in ${timeoutMs} ms:\n${out.slice(-2000)}`));
    }, timeoutMs);
    const onData = (d) => {
      out += d.toString();
      if (ready.test(out)) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        child.stdout.resume();
        child.stderr.resume();
        resolve(child);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${cmd} exited with ${code} before ready:\n${out.slice(-2000)}`));
    });
  });
}

export async function waitForHttp(url, timeoutMs = 20_000) {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    const ok = await new Promise((resolve) => {
      const req = http.get(url, (res) => {
        res.resume();
        resolve(res.statusCode !== undefined);
      });
      req.on('error', () => resolve(false));
      req.setTimeout(1000, () => {
        req.destroy();
        resolve(false);
      });
    });
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

export function percentile(sorted, p) {
  if (sorted.length === 0) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i];
}

export function sleep(ms) {
  return new Promise((r) => setTimeout(r, ms));
}

/**
 * One POST on `agent`: its status, and the time to its first body byte and to its end (ms), or
 * null when it failed before ending.
 */
function timedPost(agent, url, headers, body, timeoutMs) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    let first = 0n;
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { ...headers, 'content-length': Buffer.byteLength(body) }, agent },
      (res) => {
        res.on('data', () => {
          if (first === 0n) first = process.hrtime.bigint();
        });
        res.on('end', () => {
          const t1 = process.hrtime.bigint();
          resolve({ status: res.statusCode, ttfbMs: Number((first || t1) - t0) / 1e6, totalMs: Number(t1 - t0) / 1e6 });
        });
        res.on('error', () => resolve(null));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(new Error('timeout')));
    req.on('error', () => resolve(null));
    req.end(body);
  });
}

/**
 * Stream requests measured by hand: time to first body byte and total time, `concurrency`
 * streams at once, `total` streams in all. Returns sorted arrays of ms.
 */
// `staggerMs`: worker i opens its first stream i × staggerMs after the start, so the streams
// arrive spread out as independent clients' would, not as one synchronized burst.
export async function measureStreams({ url, headers, body, concurrency, total, timeoutMs = 60_000, staggerMs = 0 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const ttfb = [];
  const totalMs = [];
  let failures = 0;
  let started = 0;
  const u = new URL(url);
  const worker = async (_, i) => {
    if (staggerMs > 0) await sleep(i * staggerMs);
    while (started < total) {
      started++;
      const r = await timedPost(agent, u, headers, body, timeoutMs);
      if (r === null || r.status !== 200) failures++;
      if (r === null) continue;
      ttfb.push(r.ttfbMs);
      totalMs.push(r.totalMs);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
  agent.destroy();
  ttfb.sort((a, b) => a - b);
  totalMs.sort((a, b) => a - b);
  return { ttfb, totalMs, failures };
}

/**
 * One request at a time on one kept-alive connection, `gapMs` apart, `total` of them: the way one
 * coding tool uses a local proxy, with the process idle in between. Returns sorted latencies (ms,
 * until the whole answer is read) and how many failed.
 */
export async function measureSporadic({ url, headers, body, total, gapMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const u = new URL(url);
  const latency = [];
  let failures = 0;
  for (let i = 0; i < total; i++) {
    const r = await timedPost(agent, u, headers, body, 10_000);
    if (r === null || r.status !== 200) failures++;
    if (r !== null) latency.push(r.totalMs);
    await sleep(gapMs);
  }
  agent.destroy();
  latency.sort((a, b) => a - b);
  return { latency, failures };
}

/**
 * Child processes of a bench script: all killed when the script exits, and the whole script
 * stopped after `limitMs` so a wedged component never holds the machine. Returns the list to
 * push children into.
 */
export function superviseChildren(label, limitMs) {
  const children = [];
  process.on('exit', () => {
    for (const c of children) {
      try {
        c.kill('SIGKILL');
      } catch {}
    }
  });
  // `timeout` and service managers stop with SIGTERM: without a handler the script dies without its
  // exit handler, and its mock, gateways and daemons stay behind
  process.on('SIGINT', () => process.exit(130));
  process.on('SIGTERM', () => process.exit(143));
  process.on('SIGHUP', () => process.exit(129));
  setTimeout(() => {
    console.error(`${label}: hard time limit (${Math.round(limitMs / 60_000)} min) reached, stopping`);
    process.exit(2);
  }, limitMs).unref();
  return children;
}
