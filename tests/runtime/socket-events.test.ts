/**
 * `listen()` (src/runtime/socket-events.ts), which hands a standard `WebSocket`'s events to a route (Deno's,
 * a Worker's, the `ws` package's): once the socket closed, it holds none of the route's handlers. Deno
 * keeps a socket whose peer dropped the connection reachable until its idle timeout (30 s by default);
 * listeners left on it kept each closed connection's state (calls, caller, headers) alive with it:
 * about 10 MB of heap per 1,000 sockets, for as long.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { listen, type SocketEvents } from "../../src/runtime/socket-events.ts";

/** A socket with the standard `EventTarget` surface, counting its listeners. */
class FakeSocket extends EventTarget {
  readyState = 1;
  binaryType = "blob";
  bufferedAmount = 0;
  readonly #listening = new Set<string>();
  /** How many handlers it holds. */
  get listeners(): number {
    return this.#listening.size;
  }
  readonly sent: string[] = [];
  send(text: string): void {
    this.sent.push(text);
  }
  close(): void {}
  override addEventListener(...args: Parameters<EventTarget["addEventListener"]>): void {
    this.#listening.add(args[0] + "\0" + String(args[1]));
    super.addEventListener(...args);
  }
  override removeEventListener(...args: Parameters<EventTarget["removeEventListener"]>): void {
    this.#listening.delete(args[0] + "\0" + String(args[1]));
    super.removeEventListener(...args);
  }
}

describe("listen()", () => {
  it("hands the events to the route, then lets go of every handler once the socket closed", () => {
    const socket = new FakeSocket();
    const seen: string[] = [];
    const events: SocketEvents = {
      open: (accepted) => accepted.send("hello"),
      message: (data) => void seen.push(String(data)),
      close: (code) => void seen.push(`closed ${code}`),
    };
    listen(socket as unknown as WebSocket, events);
    assert.deepEqual(socket.sent, ["hello"]);
    assert.ok(socket.listeners > 0);
    socket.dispatchEvent(Object.assign(new Event("message"), { data: "ping" }));
    socket.dispatchEvent(Object.assign(new Event("close"), { code: 1006, reason: "" }));
    assert.deepEqual(seen, ["ping", "closed 1006"]);
    assert.equal(socket.listeners, 0, "handlers left on a closed socket");
  });
});
