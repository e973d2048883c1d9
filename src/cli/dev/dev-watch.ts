/**
 * Watches a server module's import graph: the folders of its files (editors that save by renaming
 * replace the file a watch on it would follow), a short settling delay for the writes of one save,
 * and a slow poll beside, for file systems whose events do not arrive. A change is a different text.
 *
 * @module
 */
import { changedFiles, importGraph, type Snapshot } from "./dev-imports.ts";

/** How long the writes of one save may take to settle, in ms. */
const SETTLE_MS = 30;
/** The poll beside the file system's events, in ms. */
const POLL_MS = 1000;

interface FsWatcher {
  close(): void;
  on(event: "error", listener: () => void): unknown;
}

/** A running watch. */
export interface GraphWatch {
  /** The files watched now, with their texts. */
  readonly snapshot: Snapshot;
  /** Stops watching. */
  close(): void;
}

/**
 * Watches a module and the local files it imports; the graph is read again on each change, so a new
 * import is watched from then on.
 *
 * @param entry The module's absolute path.
 * @param skip Files not to follow (a library's).
 * @param onChange Called with the changed files (and the new snapshot) after each change.
 * @returns The watch.
 */
export async function watchGraph(
  entry: string,
  skip: (file: string) => boolean,
  onChange: (changed: string[], snapshot: Snapshot) => void,
): Promise<GraphWatch> {
  const { watch } = await import("node:fs") as unknown as {
    watch(dir: string, listener: (event: string, name: string | null) => void): FsWatcher;
  };
  let snapshot = await importGraph(entry, skip);
  const watchers = new Map<string, FsWatcher>();
  let closed = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let checking: Promise<void> | undefined;
  let again = false;

  const watchFolders = () => {
    const folders = new Set([...snapshot.keys()].map((file) => file.slice(0, file.lastIndexOf("/")) || "/"));
    for (const [folder, watcher] of watchers) {
      if (!folders.has(folder)) (watcher.close(), watchers.delete(folder));
    }
    for (const folder of folders) {
      if (watchers.has(folder)) continue;
      try {
        const watcher = watch(folder, () => schedule());
        watcher.on("error", () => {}); // the folder went away: the poll still sees the files
        watchers.set(folder, watcher);
      } catch { /* a folder that does not exist (yet): the poll sees it appear */ }
    }
  };
  const check = async () => {
    const next = await importGraph(entry, skip);
    const changed = changedFiles(snapshot, next);
    if (changed.length === 0 || closed) return;
    snapshot = next;
    watchFolders();
    onChange(changed, next);
  };
  const run = () => {
    if (checking) return void (again = true);
    checking = check().catch(() => {}).finally(() => {
      checking = undefined;
      if (again) (again = false, run());
    });
  };
  const schedule = () => {
    if (closed) return;
    clearTimeout(timer);
    timer = setTimeout(run, SETTLE_MS);
  };
  watchFolders();
  const poll = setInterval(run, POLL_MS);
  return {
    get snapshot() {
      return snapshot;
    },
    close() {
      closed = true;
      clearTimeout(timer);
      clearInterval(poll);
      for (const watcher of watchers.values()) watcher.close();
    },
  };
}
