/** A real server a test starts on a free 127.0.0.1 port (redis-server, PostgreSQL), and what the test does to it. */
export interface ServerProcess {
  /** Its URL (`redis://…`, `postgres://…`). */
  readonly url: string;
  /** The port. */
  readonly port: number;
  /** Stops it as its service manager would, waiting for it to exit. */
  stop(): Promise<void>;
  /** Kills it at once (SIGKILL, as `kill -9`, every process of it), waiting for it to exit. */
  kill(): Promise<void>;
  /** Freezes it (SIGSTOP): its connections stay open, and nothing is answered until {@link resume}. */
  pause(): void;
  /** Lets a frozen server go on (SIGCONT): it answers what it was sent meanwhile. */
  resume(): void;
}
