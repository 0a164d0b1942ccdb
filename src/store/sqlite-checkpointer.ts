import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/** How often the checkpointer moves the WAL's new pages into the database file (ms). */
const CHECKPOINT_EVERY_MS = 20;
/**
 * The WAL size (in pages) at which the serving connection checkpoints by itself: a backstop for a checkpointer
 * that fell behind or stopped, well past what it leaves between two passes under load.
 */
export const BACKSTOP_CHECKPOINT_PAGES = 10_000;

/**
 * The checkpointer's thread, as source: a connection of its own to the file that runs a passive checkpoint
 * (which never waits for readers or writers, nor holds them back) every CHECKPOINT_EVERY_MS, until told to stop.
 * A checkpoint that finds another one running (the serving connection's backstop) fails and is tried again; any
 * other failure is reported to the parent, once until a checkpoint passes or the failure changes.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.driver);
let reported = null;
const report = (e) => {
  if (e.message !== reported) parentPort.postMessage({ failed: e.message });
  reported = e.message;
};
let database = null;
const timer = setInterval(() => {
  try {
    database ??= new SQLite(workerData.file);
    database.pragma('wal_checkpoint(PASSIVE)');
    reported = null;
  } catch (e) {
    if (e.code !== 'SQLITE_BUSY' && e.code !== 'SQLITE_LOCKED') report(e);
  }
}, workerData.everyMs);
parentPort.once('message', () => {
  clearInterval(timer);
  database?.close();
  parentPort.close();
});
`;

export interface Checkpointer {
  close(): Promise<void>;
}

/**
 * SQLite's WAL checkpoints, off the event loop. A checkpoint copies the pages that commits appended to the WAL
 * into the database file and syncs it; left to SQLite, the commit that takes the WAL past 1,000 pages runs it,
 * on the one thread that serves every request. Under a busy organization's writes that was a third of the
 * commits' time and a sixth of the thread's (docs/performance.md). Here a worker thread with its own connection
 * checkpoints what the commits appended, a few dozen milliseconds behind them, on the other core; the serving
 * connection checkpoints by itself only past BACKSTOP_CHECKPOINT_PAGES. What a reader sees and what is durable
 * are unchanged: a checkpoint moves committed pages only.
 */
export function startCheckpointer(file: string, onFailure: (error: Error) => void): Checkpointer {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, driver, everyMs: CHECKPOINT_EVERY_MS } });
  worker.on('message', (m: { failed: string }) => onFailure(new Error(`SQLite checkpoint failed: ${m.failed}`)));
  worker.on('error', (e) => onFailure(e));
  // It never holds the process open (unref'd after its listeners: a 'message' listener refs it again), and while
  // it fails the serving connection's backstop checkpoints.
  worker.unref();
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  return {
    async close() {
      // Held open until it has closed its connection: the file may be removed right after.
      worker.ref();
      worker.postMessage('stop');
      await exited;
    },
  };
}
