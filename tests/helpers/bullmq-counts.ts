/**
 * BullMQ's own counts of a queue's jobs, read from its backend (Redis or PostgreSQL) the way Bull Board reads them,
 * for the worker tests: what the queue holds, not what our server says of it.
 */
import { createPostgresBackend, Queue, withBackend } from "bullmq";
import { readUntil } from "./wait.ts";

/** BullMQ's states a job of the queue can be in until it is done (a done one is kept a while, completed or failed). */
const UNFINISHED = ["waiting", "active", "delayed", "prioritized"] as const;

/** Reads BullMQ's counts of the queue `name` on `url` until `done` holds them, at most `timeoutMs`. */
export async function countsUntil(
  url: string,
  name: string,
  done: (counts: Record<string, number>) => boolean,
  timeoutMs: number,
): Promise<void> {
  const counts = await openCounts(url, name);
  try {
    await counts.until(done, timeoutMs);
  } finally {
    await counts.close();
  }
}

/**
 * BullMQ's counts of the queue `name` on `url`, on a connection opened (and a first count read) before it resolves:
 * for a test that must see a state soon after it begins (two jobs still waiting while others run), where opening a
 * connection then, slow on a loaded machine (PostgreSQL's above all), would let the state pass before its first read.
 */
export async function openCounts(url: string, name: string): Promise<{
  /** Reads the counts until `done` holds them, at most `timeoutMs`. */
  until(done: (counts: Record<string, number>) => boolean, timeoutMs: number): Promise<void>;
  close(): Promise<void>;
}> {
  const queue = openQueue(url, name);
  try {
    await queue.getJobCounts(...UNFINISHED, "failed");
  } catch (error) {
    await queue.close();
    throw error;
  }
  return {
    async until(done, timeoutMs) {
      // BullMQ's QueueEvents tell of jobs, not of counts: the counts are read, as Bull Board reads them.
      await readUntil(() => queue.getJobCounts(...UNFINISHED, "failed"), done, `BullMQ's counts of ${name}`, {
        timeoutMs,
        everyMs: 50,
      });
    },
    close: () => queue.close(),
  };
}

/** What the tests read of a queue (on either backend). */
interface QueueReader {
  getJobCounts(...states: (typeof UNFINISHED[number] | "failed")[]): Promise<Record<string, number>>;
  getJobs(states: typeof UNFINISHED[number][]): Promise<{ attemptsStarted: number; getState(): Promise<string> }[]>;
  close(): Promise<void>;
}

/** The queue `name` on `url` (Redis or PostgreSQL), as a reader of its jobs. */
function openQueue(url: string, name: string): QueueReader {
  const { hostname, port } = new URL(url);
  return url.startsWith("redis:")
    ? new Queue(name, { connection: { host: hostname, port: Number(port) } })
    : new (withBackend(createPostgresBackend).Queue)(name, { connection: { connectionString: url } });
}

/** What BullMQ holds of a job: its state and how many times a worker took it (`attemptsStarted`). */
export interface JobSeen {
  readonly state: string;
  readonly starts: number;
}

/**
 * Reads the queue's one unfinished job until `done` holds what BullMQ says of it, at most `timeoutMs`; returns that.
 * A delayed retry's job is taken again as a start, so its starts count the attempts workers made.
 */
export async function jobUntil(
  url: string,
  name: string,
  done: (job: JobSeen) => boolean,
  timeoutMs: number,
): Promise<JobSeen> {
  const queue = openQueue(url, name);
  try {
    const read = async (): Promise<JobSeen | undefined> => {
      const [job] = await queue.getJobs([...UNFINISHED]);
      return job === undefined ? undefined : { state: await job.getState(), starts: job.attemptsStarted };
    };
    const seen = await readUntil(read, (seen) => seen !== undefined && done(seen), `BullMQ's job of ${name}`, {
      timeoutMs,
      everyMs: 50,
    });
    return seen!;
  } finally {
    await queue.close();
  }
}

/** Waits until BullMQ holds no unfinished job of the queue (waiting, active, delayed or prioritized). */
export const drained = (url: string, name: string, timeoutMs: number): Promise<void> =>
  countsUntil(url, name, (counts) => UNFINISHED.every((state) => counts[state] === 0), timeoutMs);
