import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startGatehouse, type Gatehouse } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/logger.js';
import type { StreamOptions } from '../../src/streaming/options.js';
import { TEST_SECRET_KEY } from './server.js';
import { assertResponseWalk, walkResponses } from './response-walk.js';

export interface InstanceOptions {
  databaseUrl: string;
  busUrl?: string;
  /** A fixed stream port (to start an instance again where its clients reconnect); default any free port. */
  wsPort?: number;
  httpPort?: number;
  /** Shared by the runs of one instance; default a fresh temp dir, removed by close(). */
  dataDir?: string;
  env?: Record<string, string>;
  stream?: Partial<StreamOptions>;
}

/**
 * One Gatehouse instance on an existing store (several may share one), on loopback. Unlike startTestServer
 * it neither makes nor drops the database, and it can listen on given ports, so that a test may stop an
 * instance and start it again where its clients reconnect.
 */
export async function startInstance(options: InstanceOptions): Promise<Gatehouse & { dataDir: string; stop(): Promise<void> }> {
  const dataDir = options.dataDir ?? mkdtempSync(join(tmpdir(), 'gh-inst-'));
  const config = loadConfig(
    {
      dataDir,
      httpPort: options.httpPort ?? 0,
      mediaPort: 0,
      wsPort: options.wsPort ?? 0,
      database: options.databaseUrl,
      bus: options.busUrl ?? 'memory:',
      seed: false,
    },
    { GATEHOUSE_SECRET_KEY: TEST_SECRET_KEY, ...options.env },
  );
  const gatehouse = await startGatehouse(config, { log: createLogger(process.env.GATEHOUSE_TEST_LOG ?? 'silent'), stream: options.stream });
  walkResponses(gatehouse.http);
  return {
    ...gatehouse,
    dataDir,
    async stop() {
      await gatehouse.close();
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      assertResponseWalk();
    },
  };
}

/** A TCP port that was free a moment ago (for a server the test starts itself, such as its own Redis). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export const portOfUrl = (url: string): number => Number(new URL(url.replace(/^wss?:/, 'https:')).port);
