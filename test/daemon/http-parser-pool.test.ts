/**
 * The spare HTTP parsers a burst of connections leaves in node's free list are closed by the idle
 * collector's shed step, and the server goes on serving with new ones.
 */
import { createServer, get, Agent, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { nodeParserFreeList, releaseSpareHttpParsers, SPARE_PARSERS_KEPT } from '../../src/daemon/http-parser-pool.js';

let server: Server | undefined;
afterEach(async () => {
  await new Promise<void>((r) => (server ? server.close(() => r()) : r()));
  server = undefined;
});

/** `n` requests at once, each on its own connection, all answered together. */
async function burst(port: number, n: number): Promise<string[]> {
  const agent = new Agent({ keepAlive: false, maxSockets: n });
  const one = (): Promise<string> =>
    new Promise((resolve, reject) => {
      get({ host: '127.0.0.1', port, agent }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve(text));
      }).on('error', reject);
    });
  try {
    return await Promise.all(Array.from({ length: n }, one));
  } finally {
    agent.destroy();
  }
}

async function listening(): Promise<number> {
  const waiting: Array<() => void> = [];
  server = createServer((_req, res) => {
    // hold every answer until the whole burst is in: that many connections (and parsers) at once
    waiting.push(() => res.end('ok'));
    if (waiting.length >= 60) for (const go of waiting.splice(0)) go();
  });
  server.keepAliveTimeout = 1;
  await new Promise<void>((r) => server!.listen(0, '127.0.0.1', () => r()));
  return (server.address() as { port: number }).port;
}

describe('spare HTTP parsers', () => {
  it("finds node's free list on this Node", () => {
    expect(nodeParserFreeList()).not.toBeNull();
  });

  it('closes the spares a burst left beyond the few it keeps; later connections get new parsers', async () => {
    const port = await listening();
    expect(await burst(port, 60)).toEqual(Array(60).fill('ok'));
    const list = nodeParserFreeList()!;
    // the server's parsers come back to the list as their connections close
    for (let i = 0; i < 200 && list.list.length < 40; i++) await new Promise((r) => setTimeout(r, 10));
    const spareBefore = list.list.length;
    expect(spareBefore).toBeGreaterThan(SPARE_PARSERS_KEPT);

    expect(releaseSpareHttpParsers()).toBe(spareBefore - SPARE_PARSERS_KEPT);
    expect(list.list.length).toBe(SPARE_PARSERS_KEPT);
    expect(releaseSpareHttpParsers()).toBe(0);

    expect(await burst(port, 60)).toEqual(Array(60).fill('ok'));
  });

  it('closes each released parser once, after taking it out of the list', () => {
    const closed: number[] = [];
    const list = { list: Array.from({ length: 5 }, (_, i) => ({ close: () => closed.push(i) })) };
    expect(releaseSpareHttpParsers(2, list)).toBe(3);
    expect(closed).toEqual([2, 3, 4]);
    expect(list.list).toHaveLength(2);
    expect(releaseSpareHttpParsers(2, list)).toBe(0);
    expect(releaseSpareHttpParsers(2, null)).toBe(0);
  });
});
