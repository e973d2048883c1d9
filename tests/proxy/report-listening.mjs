/**
 * Preloaded (`node --import`) into server-everything, which listens on `$PORT` and prints the port it was given, not
 * the one it got: prints where each of its servers listens, as `serve()` does (`Listening on <url>`), so a test can
 * start it on port 0 and read the port the system gave it.
 */
import net from "node:net";
import process from "node:process";

const listen = net.Server.prototype.listen;
net.Server.prototype.listen = function (...args) {
  this.once("listening", () => process.stderr.write(`Listening on http://127.0.0.1:${this.address().port}\n`));
  return listen.apply(this, args);
};
