/**
 * CPU time from /proc (Linux), for the queue benches: of one process, of a process tree, and the database
 * server's process (redis-server's, or PostgreSQL's postmaster, whose backends are under it).
 *
 * @module
 */
import { spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { Redis } from "ioredis";
import pg from "pg";

const TICK_MS = 1000 / Number(spawnSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).stdout.trim() || 100);

/** CPU time of one process (user + system), in ms; 0 once it is gone. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  } catch {
    return 0;
  }
}

/** The processes under `root` (and `root`), from /proc. */
export function tree(root: number): number[] {
  const parents = new Map<number, number[]>();
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      (parents.get(ppid) ?? parents.set(ppid, []).get(ppid)!).push(Number(entry));
    } catch { /* gone */ }
  }
  const all = [root];
  for (let i = 0; i < all.length; i++) all.push(...(parents.get(all[i]) ?? []));
  return all;
}

/** The database server's process: redis-server's, or PostgreSQL's postmaster (its backends are under it). */
export async function databasePid(backend: "redis" | "postgres", url: string): Promise<number | undefined> {
  try {
    if (backend === "redis") {
      const client = new Redis(url);
      const info = await client.info("server");
      client.disconnect();
      return Number(/process_id:(\d+)/.exec(info)?.[1]);
    }
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    const dir = (await client.query("SHOW data_directory")).rows[0].data_directory as string;
    await client.end();
    return Number(readFileSync(`${dir}/postmaster.pid`, "utf8").split("\n")[0]);
  } catch (error) {
    console.error(`no CPU figure for ${backend}: ${error}`);
    return undefined;
  }
}
