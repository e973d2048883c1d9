/**
 * The callback URL check (src/events/delivery/callback-check.ts): https only, no credentials or fragment, and no
 * address a server must not reach (loopback, private, link-local, metadata, IPv4-mapped forms, a name resolving to
 * one), each refused with SEP-3415's -32012 by default and taken when its origin is allow-listed.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { CallbackRefusedError, checkCallback } from "../../src/events/delivery/mod.ts";

const REFUSED = [
  "https://127.0.0.1/hook",
  "https://10.1.2.3/hook",
  "https://169.254.169.254/latest/meta-data",
  "https://[::1]/hook",
  "https://[::ffff:127.0.0.1]/hook",
  "https://[fd00::1]/hook",
  "https://100.64.0.1/hook",
  "https://0.0.0.0/hook",
  "https://localhost/hook", // resolves to loopback
];

/** Whether a promise rejects with a callback refusal of SEP-3415's forbidden code. */
async function refused(check: Promise<void>, reason = "address"): Promise<void> {
  await assert.rejects(check, (error) => {
    assert.ok(error instanceof CallbackRefusedError, String(error));
    assert.equal(error.rpcCode, -32012);
    assert.equal(error.reason, reason);
    return true;
  });
}

describe("checkCallback", () => {
  for (const url of REFUSED) {
    it(`refuses ${url} by default, takes it when its origin is allow-listed`, async () => {
      await refused(checkCallback(url, []));
      await checkCallback(url, [new URL(url).origin]);
    });
  }

  it("takes an http callback only when allow-listed", async () => {
    await refused(checkCallback("http://127.0.0.1:8080/hook", []), "scheme");
    await checkCallback("http://127.0.0.1:8080/hook", ["http://127.0.0.1:8080"]);
    await refused(checkCallback("http://127.0.0.1:8081/hook", ["http://127.0.0.1:8080"]), "scheme");
    await checkCallback("http://127.0.0.1:41234/hook", ["http://127.0.0.1"]); // no port: any port of the host
    await refused(checkCallback("https://127.0.0.1:41234/hook", ["http://127.0.0.1"]));
    await refused(checkCallback("http://127.0.0.2:41234/hook", ["http://127.0.0.1"]), "scheme");
  });

  it("refuses credentials and fragments, allow-listed or not", async () => {
    await refused(checkCallback("https://user:pw@hooks.example.com/in", []), "credentials");
    await refused(checkCallback("https://hooks.example.com/in#x", ["https://hooks.example.com"]), "fragment");
    await refused(checkCallback("not a url", []), "malformed");
  });

  it("resolves a name and refuses it when any address is refused; takes one resolving to public addresses", async () => {
    const lookup = (addresses: string[]) => () => Promise.resolve(addresses);
    await checkCallback("https://hooks.example.com/in", [], lookup(["93.184.215.14", "2606:2800:21f:cb07::1"]));
    await refused(checkCallback("https://hooks.example.com/in", [], lookup(["93.184.215.14", "192.168.1.2"])));
    await refused(checkCallback("https://hooks.example.com/in", [], lookup(["::ffff:10.0.0.1"])));
    await refused(checkCallback("https://hooks.example.com/in", [], lookup([])), "unresolved");
    await refused(
      checkCallback("https://hooks.example.com/in", [], () => Promise.reject(new Error("ENOTFOUND"))),
      "unresolved",
    );
  });

  it("echoes at most 200 characters of a refused host (a 5,000-character name)", async () => {
    const host = `${"a".repeat(5_000)}.example`;
    await assert.rejects(checkCallback(`https://${host}/hook`, [], () => Promise.resolve(["10.0.0.1"])), (error) => {
      assert.ok(error instanceof CallbackRefusedError, String(error));
      assert.ok(error.message.length < 300, `${error.message.length} characters`);
      return true;
    });
  });

  it("checks a literal address without DNS", async () => {
    const lookup = () => Promise.reject(new Error("no DNS for literals"));
    await checkCallback("https://93.184.215.14/in", [], lookup);
    await refused(checkCallback("https://[fe80::1]/in", [], lookup));
  });
});
