import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { tamper } from "../helpers/tamper.ts";
import { createTokenCodec, TokenError, type TokenFailure } from "../../src/codec/mod.ts";
import { TOKEN_PREFIX } from "../../src/codec/token.ts";
import { base64urlDecode } from "../../src/codec/base64url.ts";
import { nodeCrypto } from "../../src/runtime/node-crypto.ts";

const SECRET = "a secret for the codec tests: 32+ bytes";
const OTHER = "another secret: also at least 32 bytes";
const MINTED_SEALED =
  "mcl1.ARjAnLrnN4iPyjRH7t9RM0CvbwNHo_BTi7PCP4qAA1LQhFHJ_XnzvllUANejsIP1-bJc_l0DYNcY4f5f6_54ijbCKVYpY2CDRLy9" +
  "Vv5ALtdPZR_DkL0z5s_ya9kzhoSC8UU4Nve0DqqvACSQWi8nqfIJZ4twR5sEBS7Vj8Iuy74jzoWs7wouY0IEACsxqaVt5Lx_ISPbIRLzqCD3q8t" +
  "D866HpGMk2GyJtxHcxvsh9XackMhlftudHBNsKJgcXNyDAmH4zP6g9LnFoe-fyDOoRRytTqKRt4NOTsVjLBfNLKwx";
const MINTED_SIGNED =
  "mcl1.ABjAnLp7InYiOjEsImsiOiJwcm9taXNlIiwidCI6ImFuYWx5emUiLCJpYXQiOjE3MDAwMDAwMDAwMDAsImV4cCI6MTc" +
  "wMDAwMDA2MDAwMCwibiI6IkM1LW9wcVd6aEpOTWxYLWg5bVpKNnciLCJjIjoidFA2RU14ODdFSTNjcE02X0hOeE80QSIsInMiOnsiam9iIjoiajEi" +
  "LCJuIjpbMSwyXX19FsdvMBKqd2e6K6HyDO9RHJQVdgiPGFoEVM572JDGEv0";

function clock(start = 1_700_000_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => void (now += ms) };
}

async function reason(promise: Promise<unknown>): Promise<TokenFailure> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof TokenError, `expected a TokenError, got ${error}`);
    assert.equal(error.message, "Invalid or expired token"); // the same for every reason
    return error.reason;
  }
  assert.fail("the token was accepted");
}

/** A small seeded PRNG (mulberry32), so a failing mutation can be replayed. */
function prng(seed: number): () => number {
  return () => {
    seed |= 0;
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe("createTokenCodec", () => {
  it("round-trips a signed token with its claims", async () => {
    const time = clock();
    const codec = createTokenCodec({ secret: SECRET, now: time.now });
    const token = await codec.sign({
      kind: "promise",
      scope: "analyze",
      state: { job: "j1", n: [1, 2] },
      ttlMs: 60_000,
    });
    assert.ok(token.startsWith(TOKEN_PREFIX));
    assert.match(token.slice(TOKEN_PREFIX.length), /^[A-Za-z0-9_-]+$/);
    const claims = await codec.verify(token, { kind: "promise", scope: "analyze" });
    assert.deepEqual(claims.state, { job: "j1", n: [1, 2] });
    assert.equal(claims.kind, "promise");
    assert.equal(claims.scope, "analyze");
    assert.equal(claims.issuedAt, time.now());
    assert.equal(claims.expiresAt, time.now() + 60_000);
    assert.equal(base64urlDecode(claims.nonce)?.byteLength, 16);
    assert.equal(claims.bound, false);
  });

  it("gives every token a fresh nonce", async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const input = { kind: "promise", scope: "t", state: 1, ttlMs: 60_000 };
    const [a, b] = [await codec.sign(input), await codec.sign(input)];
    assert.notEqual(a, b);
    assert.notEqual(
      (await codec.verify(a, { kind: "promise" })).nonce,
      (await codec.verify(b, { kind: "promise" })).nonce,
    );
  });

  it("never gives two tokens the same nonce or IV, across many signs in flight at once", async () => {
    // A bound token awaits the caller's hash after drawing its randomness: 300 in flight outlast
    // several draws from the CSPRNG, and each must keep the bytes it drew (NIST SP 800-38D §8.2). They live a
    // minute: read one after the other on the real clock, at a sixth of a core, the last outlived a second.
    const codec = createTokenCodec({ secret: SECRET });
    const tokens = await Promise.all(
      Array.from(
        { length: 300 },
        () => codec.sign({ kind: "promise", scope: "t", state: 1, ttlMs: 60_000, caller: "u" }),
      ),
    );
    const nonces = new Set<string>();
    const ivs = new Set<string>();
    for (const token of tokens) {
      nonces.add((await codec.verify(token, { kind: "promise", caller: "u" })).nonce);
      const bytes = base64urlDecode(token.slice(TOKEN_PREFIX.length))!;
      ivs.add(bytes.subarray(5, 17).join(","));
    }
    assert.equal(nonces.size, 300);
    assert.equal(ivs.size, 300);
  });

  it("seals by default so the client cannot read the state; seal: false opts out", async () => {
    const sealed = createTokenCodec({ secret: SECRET });
    const plain = createTokenCodec({ secret: SECRET, seal: false });
    const input = { kind: "input", scope: "wizard", state: { secret_step: "visible-marker" }, ttlMs: 60_000 };
    const decode = (t: string) => new TextDecoder().decode(base64urlDecode(t.slice(TOKEN_PREFIX.length)));
    const token = await sealed.sign(input);
    // MCP-lite spec v0.042 §3.5: promise tokens are opaque to clients; not even the tool name shows.
    assert.ok(!decode(token).includes("visible-marker") && !decode(token).includes("wizard"));
    assert.ok(decode(await plain.sign(input)).includes("visible-marker"));
    assert.deepEqual((await sealed.verify(token, { kind: "input" })).state, { secret_step: "visible-marker" });
    // Either codec verifies either kind of token: the flag byte says which it is.
    assert.deepEqual((await plain.verify(token, { kind: "input" })).state, { secret_step: "visible-marker" });
    const plainToken = await plain.sign(input);
    assert.deepEqual((await sealed.verify(plainToken, { kind: "input" })).state, { secret_step: "visible-marker" });
  });

  it("classifies every kind of tampering", async () => {
    const time = clock();
    // Signed only, so the byte offsets below land in the readable payload.
    const codec = createTokenCodec({ secret: SECRET, now: time.now, maxBytes: 2048, seal: false });
    const token = await codec.sign({
      kind: "promise",
      scope: "analyze",
      state: { job: 1 },
      ttlMs: 1000,
      caller: "alice",
    });
    const expect = { kind: "promise", scope: "analyze", caller: "alice" };
    const body = token.slice(TOKEN_PREFIX.length);
    const bytes = base64urlDecode(body)!;
    const reencode = (b: Uint8Array) =>
      TOKEN_PREFIX + btoa(String.fromCharCode(...b)).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");

    assert.equal(await reason(codec.verify(42, expect)), "malformed");
    assert.equal(await reason(codec.verify("", expect)), "malformed");
    assert.equal(await reason(codec.verify("mcl2." + body, expect)), "malformed");
    assert.equal(await reason(codec.verify(token + "-TAMPERED", expect)), "malformed");
    assert.equal(await reason(codec.verify(token.slice(0, 20), expect)), "malformed");
    assert.equal(await reason(codec.verify(token + "A".repeat(2048), expect)), "malformed"); // over the size bound
    const badFlag = bytes.slice();
    badFlag[0] = 7;
    assert.equal(await reason(codec.verify(reencode(badFlag), expect)), "malformed");

    const flippedMac = bytes.slice();
    flippedMac[flippedMac.length - 1] ^= 1;
    assert.equal(await reason(codec.verify(reencode(flippedMac), expect)), "bad_mac");
    const flippedState = bytes.slice();
    flippedState[20] ^= 0x20;
    assert.equal(await reason(codec.verify(reencode(flippedState), expect)), "bad_mac");
    const flippedFlag = bytes.slice();
    flippedFlag[0] = 1; // claims to be sealed
    assert.equal(await reason(codec.verify(reencode(flippedFlag), expect)), "bad_mac");
    const foreign = await createTokenCodec({ secret: OTHER, now: time.now }).sign({
      kind: "promise",
      scope: "analyze",
      state: { job: 1 },
      ttlMs: 1000,
      caller: "alice",
    });
    assert.equal(await reason(codec.verify(foreign, expect)), "bad_mac");

    assert.equal(await reason(codec.verify(token, { ...expect, kind: "input" })), "wrong_kind");
    assert.equal(await reason(codec.verify(token, { ...expect, scope: "other_tool" })), "wrong_tool");
    assert.equal(await reason(codec.verify(token, { ...expect, caller: "bob" })), "wrong_caller");
    assert.equal(await reason(codec.verify(token, { kind: "promise" })), "wrong_caller"); // bound, but no caller now

    time.advance(999);
    assert.deepEqual((await codec.verify(token, expect)).state, { job: 1 });
    time.advance(1);
    assert.equal(await reason(codec.verify(token, expect)), "expired");
  });

  it("accepts an unbound token from any caller", async () => {
    const codec = createTokenCodec({ secret: SECRET });
    const token = await codec.sign({ kind: "promise", scope: "t", state: null, ttlMs: 60_000 });
    assert.equal((await codec.verify(token, { kind: "promise", caller: "anyone" })).bound, false);
  });

  it("rejects 10,000 random single-byte mutations of a token", async () => {
    const codec = createTokenCodec({ secret: SECRET, seal: false });
    const sealedCodec = createTokenCodec({ secret: SECRET });
    const input = {
      kind: "promise",
      scope: "analyze",
      state: { job: "j-42", left: 3 },
      ttlMs: 60_000,
      caller: "alice",
    };
    const tokens = [await codec.sign(input), await sealedCodec.sign(input)];
    const random = prng(0x5eed);
    const reasons = new Map<string, number>();
    let rejected = 0;
    const total = 10_000;
    for (let i = 0; i < total; i++) {
      const token = tokens[i % 2];
      const at = Math.floor(random() * token.length);
      let byte = Math.floor(random() * 256);
      if (byte === token.charCodeAt(at)) byte = (byte + 1) % 256;
      const mutated = token.slice(0, at) + String.fromCharCode(byte) + token.slice(at + 1);
      try {
        await codec.verify(mutated, { kind: "promise", scope: "analyze", caller: "alice" });
        assert.fail(`mutation ${i} (position ${at}, byte ${byte}) was accepted`);
      } catch (error) {
        assert.ok(error instanceof TokenError, `mutation ${i}: ${error}`);
        rejected++;
        reasons.set(error.reason, (reasons.get(error.reason) ?? 0) + 1);
      }
    }
    console.log(
      `token mutations: ${rejected}/${total} rejected (${[...reasons].map(([r, n]) => `${r}: ${n}`).join(", ")})`,
    );
    assert.equal(rejected, total);
  });

  it("verifies tokens minted before tokens were made through node:crypto (the format is unchanged)", async () => {
    // Minted with Web Crypto (commit c281e08) at the clock below, for the caller "alice".
    const time = clock();
    const expect = { kind: "promise", scope: "analyze", caller: "alice" };
    for (const seal of [true, false]) {
      const codec = createTokenCodec({ secret: SECRET, now: time.now, seal });
      for (const token of [MINTED_SEALED, MINTED_SIGNED]) {
        const claims = await codec.verify(token, expect);
        assert.deepEqual(claims.state, { job: "j1", n: [1, 2] });
        assert.equal(claims.expiresAt, time.now() + 60_000);
        assert.equal(claims.bound, true);
        assert.equal(await reason(codec.verify(token, { ...expect, caller: "bob" })), "wrong_caller");
      }
    }
  });

  it("signs and verifies without waiting on Web Crypto where the runtime has node:crypto", async (t) => {
    if (nodeCrypto() === undefined) return t.skip("this runtime has no process.getBuiltinModule('node:crypto')");
    const codec = createTokenCodec({ secret: SECRET });
    const input = { kind: "promise", scope: "t", state: { n: 1 }, ttlMs: 60_000, caller: "alice" };
    await codec.verify(await codec.sign(input), { kind: "promise", caller: "alice" }); // keys derived (HKDF) once
    const subtle = Object.getPrototypeOf(crypto.subtle) as Record<string, unknown>;
    const saved = ["sign", "verify", "encrypt", "decrypt", "digest"].map((name) => [name, subtle[name]] as const);
    for (const [name] of saved) subtle[name] = () => Promise.reject(new Error(`crypto.subtle.${name} was called`));
    try {
      const token = await codec.sign(input);
      assert.deepEqual((await codec.verify(token, { kind: "promise", caller: "alice" })).state, { n: 1 });
      assert.equal(await reason(codec.verify(tamper(token), { kind: "promise" })), "bad_mac");
    } finally {
      for (const [name, fn] of saved) subtle[name] = fn;
    }
  });

  it("rotates keys: signs with the first, verifies with any", async () => {
    const oldCodec = createTokenCodec({ secret: OTHER });
    const rotated = createTokenCodec({ secret: [SECRET, OTHER] });
    const newOnly = createTokenCodec({ secret: SECRET });
    const input = { kind: "promise", scope: "t", state: "s", ttlMs: 60_000 };
    const oldToken = await oldCodec.sign(input);
    assert.equal((await rotated.verify(oldToken, { kind: "promise" })).state, "s");
    const newToken = await rotated.sign(input);
    assert.equal((await newOnly.verify(newToken, { kind: "promise" })).state, "s");
    assert.equal(await reason(oldCodec.verify(newToken, { kind: "promise" })), "bad_mac");
    assert.equal(await reason(newOnly.verify(oldToken, { kind: "promise" })), "bad_mac");
  });

  it("bounds token size: an oversized state is an error at signing, never a truncated token", async () => {
    const codec = createTokenCodec({ secret: SECRET, maxBytes: 512 });
    const ok = await codec.sign({ kind: "promise", scope: "t", state: "x".repeat(200), ttlMs: 1000 });
    assert.ok(ok.length <= 512);
    await assert.rejects(
      codec.sign({ kind: "promise", scope: "t", state: "x".repeat(400), ttlMs: 1000 }),
      (error: Error) => error instanceof RangeError && /over the limit of 512/.test(error.message),
    );
  });

  it("refuses secrets shorter than 32 bytes, at construction", () => {
    assert.throws(() => createTokenCodec({ secret: "short" }), TypeError);
    assert.throws(() => createTokenCodec({ secret: [SECRET, "short"] }), /entry 1/);
    assert.throws(() => createTokenCodec({ secret: [] }), TypeError);
    assert.doesNotThrow(() => createTokenCodec({ secret: new Uint8Array(32) }));
  });

  it("without a secret, signs with a per-process key and says so once", async () => {
    if (readEnv("MCPLITE_SECRET") !== undefined) return; // a configured environment has no fallback to test
    const warnings: string[] = [];
    const a = createTokenCodec({ warn: (m) => warnings.push(m) });
    const b = createTokenCodec({ warn: () => {} });
    const token = await a.sign({ kind: "promise", scope: "t", state: 1, ttlMs: 60_000 });
    await a.sign({ kind: "promise", scope: "t", state: 2, ttlMs: 60_000 });
    assert.equal((await b.verify(token, { kind: "promise" })).state, 1); // same process, same key
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /MCPLITE_SECRET/);
    assert.match(warnings[0], /only on this instance/);
  });

  it("reads MCPLITE_SECRET, comma-separated for rotation", async () => {
    const previous = readEnv("MCPLITE_SECRET");
    writeEnv("MCPLITE_SECRET", `${SECRET},${OTHER}`);
    try {
      const fromEnv = createTokenCodec();
      const token = await createTokenCodec({ secret: OTHER }).sign({ kind: "k", scope: "t", state: 1, ttlMs: 60_000 });
      assert.equal((await fromEnv.verify(token, { kind: "k" })).state, 1);
      const signed = await fromEnv.sign({ kind: "k", scope: "t", state: 2, ttlMs: 60_000 });
      assert.equal((await createTokenCodec({ secret: SECRET }).verify(signed, { kind: "k" })).state, 2);
      writeEnv("MCPLITE_SECRET", "too short");
      assert.throws(() => createTokenCodec(), /MCPLITE_SECRET must be at least 32 bytes/);
    } finally {
      writeEnv("MCPLITE_SECRET", previous);
    }
  });
});

type EnvGlobal = {
  Deno?: { env: { get(n: string): string | undefined; set(n: string, v: string): void; delete(n: string): void } };
  process?: { env: Record<string, string | undefined> };
};

function readEnv(name: string): string | undefined {
  const g = globalThis as EnvGlobal;
  return g.Deno ? g.Deno.env.get(name) : g.process?.env[name];
}

function writeEnv(name: string, value: string | undefined): void {
  const g = globalThis as EnvGlobal;
  if (g.Deno) value === undefined ? g.Deno.env.delete(name) : g.Deno.env.set(name, value);
  else if (g.process) value === undefined ? delete g.process.env[name] : g.process.env[name] = value;
}

describe("a token verified by the codec that made it", () => {
  it("is checked against the tokens it made, without MAC or decryption; one made elsewhere is checked in full", async (t) => {
    const node = nodeCrypto() as unknown as Record<string, (...args: unknown[]) => unknown> | undefined;
    const createHash = node?.createHash;
    if (node === undefined || createHash === undefined || !Object.isExtensible(node)) {
      return t.skip("no patchable node:crypto on this runtime");
    }
    let hashes = 0;
    try {
      node.createHash = (...args: unknown[]) => (hashes++, createHash.apply(node, args));
    } catch {
      return t.skip("node:crypto's exports are read-only here");
    }
    try {
      const time = clock();
      const maker = createTokenCodec({ secret: SECRET, now: time.now });
      const other = createTokenCodec({ secret: SECRET, now: time.now });
      const token = await maker.sign({ kind: "promise", scope: "analyze", state: { job: "j1" }, ttlMs: 60_000 });
      hashes = 0;
      const claims = await maker.verify(token, { kind: "promise", scope: "analyze" });
      assert.deepEqual(claims.state, { job: "j1" });
      assert.equal(hashes, 0);
      assert.notEqual(
        (await maker.verify(token, { kind: "promise" })).state,
        claims.state,
        "a fresh copy of the state each time",
      );
      assert.deepEqual((await other.verify(token, { kind: "promise", scope: "analyze" })).state, { job: "j1" });
      assert.ok(hashes > 0, "another instance checks the MAC");
      // The checks that do not depend on the bytes still apply.
      assert.equal(await reason(maker.verify(token, { kind: "input" })), "wrong_kind");
      assert.equal(await reason(maker.verify(token, { kind: "promise", scope: "other" })), "wrong_tool");
      time.advance(60_000);
      assert.equal(await reason(maker.verify(token, { kind: "promise" })), "expired");
    } finally {
      node.createHash = createHash;
    }
  });

  it("finds a token it made only when the whole token matches, and still verifies one it has forgotten", async () => {
    const maker = createTokenCodec({ secret: SECRET });
    const input = { kind: "promise", scope: "analyze", state: { job: "j1" }, ttlMs: 60_000 };
    const token = await maker.sign(input);
    // The same last characters (the MAC's end) after a changed byte elsewhere: not the token it made.
    const at = TOKEN_PREFIX.length + 10;
    const forged = token.slice(0, at) + (token[at] === "A" ? "B" : "A") + token.slice(at + 1);
    assert.equal(await reason(maker.verify(forged, { kind: "promise" })), "bad_mac");
    assert.deepEqual((await maker.verify(token, { kind: "promise" })).state, { job: "j1" });
    for (let i = 0; i < 300; i++) await maker.sign(input); // past the 256 it remembers
    assert.deepEqual((await maker.verify(token, { kind: "promise" })).state, { job: "j1" });
  });
});
