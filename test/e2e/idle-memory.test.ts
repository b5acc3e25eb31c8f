/**
 * The real daemon gives a burst's memory back once idle (src/daemon/idle-collector.ts): 300
 * concurrent streams through a custom endpoint grow its heap and resident memory; within ~20 s of
 * quiet, `status` counts idle collections (and C-heap trims where the helper is built) and RSS is
 * back near where it was before the burst. Read from /proc between, so nothing but the burst
 * itself touches the daemon.
 */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sleep, startDaemon, stopDaemon, type TestDaemon } from '../fixtures/daemon.js';
import { GenericChatMock } from '../fixtures/mock-upstream/index.js';

const linux = process.platform === 'linux';
const STREAMS = 300;
let mock: GenericChatMock;
let d: TestDaemon;

interface Memory {
  rssMb: number;
  heapUsedMb: number;
  idleCollections: number;
  idleTrims: number | null;
}

beforeAll(async () => {
  mock = await new GenericChatMock({ name: 'burst', models: ['m'] }).listen();
  d = await startDaemon({ setup: (t) => t.cli(['endpoint', 'add', 'burst', '--url', mock.baseUrl, '--format', 'a', '--no-credential']).then(() => undefined) });
}, 60_000);
afterAll(async () => {
  await stopDaemon(d);
  await mock?.close();
});

async function status(): Promise<{ pid: number; memory: Memory }> {
  return JSON.parse((await d.cli(['status', '--json'])).stdout) as { pid: number; memory: Memory };
}

function rssMb(pid: number): number {
  return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) / 1024;
}

/** One streamed chat request; resolves with the body once the stream has ended. */
function stream(agent: Agent): Promise<string> {
  const body = JSON.stringify({ model: 'burst/m', stream: true, messages: [{ role: 'user', content: 'x'.repeat(2_000) }] });
  return new Promise((resolve, reject) => {
    const req = request(
      `${d.baseA()}/chat/completions`,
      { method: 'POST', agent, headers: { 'content-type': 'application/json', authorization: `Bearer ${d.key}` } },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (c: string) => (text += c));
        res.on('end', () => resolve(text));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('memory after a burst', () => {
  it.runIf(linux)(
    `comes back once the daemon is idle: collections run, RSS returns near its level before ${STREAMS} concurrent streams`,
    async () => {
      mock.always(/chat\/completions/, { kind: 'turn', turn: { text: 'word '.repeat(400), stream: { chunk: 8, delayMs: 2 } } });
      const { pid, memory: before } = await status();
      const agent = new Agent({ keepAlive: true, maxSockets: Infinity });
      // warm-up: the routes' code compiled and the admin API loaded, as in a daemon that has worked
      await Promise.all(Array.from({ length: 10 }, () => stream(agent)));
      await sleep(1_000);
      const rssBefore = rssMb(pid);

      let peak = rssBefore;
      const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 50);
      const bodies = await Promise.all(Array.from({ length: STREAMS }, () => stream(agent)));
      clearInterval(sampler);
      agent.destroy();
      expect(bodies.filter((b) => b.includes('data: [DONE]'))).toHaveLength(STREAMS);
      expect(peak - rssBefore).toBeGreaterThan(20); // the burst did grow it

      // settle: the first idle look collects, a quiet one 6 s later gives the grown heap back
      let rss = rssMb(pid);
      for (let waited = 0; waited < 25_000 && rss - rssBefore > 10; waited += 500) {
        await sleep(500);
        rss = rssMb(pid);
      }
      // RSS can be back before the sequence ends (the trim comes a second after the collection):
      // its counts are read once it has, asking every 2 s so the daemon still looks idle
      let after = (await status()).memory;
      const done = (m: Memory) => m.idleCollections > before.idleCollections && (m.idleTrims === null || m.idleTrims > 0);
      for (let waited = 0; waited < 10_000 && !done(after); waited += 2_000) {
        await sleep(2_000);
        after = (await status()).memory;
      }
      expect(after.idleCollections).toBeGreaterThan(before.idleCollections);
      if (after.idleTrims !== null) expect(after.idleTrims).toBeGreaterThan(0);
      expect(rss - rssBefore, `RSS ${rssBefore.toFixed(1)} MB before, ${peak.toFixed(1)} at peak, ${rss.toFixed(1)} after`).toBeLessThanOrEqual(10);
    },
    60_000,
  );
});
