/**
 * examples/events/README.md, run as it is written: its receiver and its server started with the README's command
 * lines for the runtime running the tests (Deno's under `deno test`, Bun's under `bun test`) and its settings
 * (the ports and `EVENTS_ALLOW_CALLBACKS` are this test's), then its subscribe-and-ship block and its unsubscribe
 * block in bash: the subscription answers after the challenge, the first order reaches the receiver once, signed
 * (the receiver checks it), the other customer's order and the order after the unsubscribe reach it not at all.
 */
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import process from "node:process";
import { describe, it } from "node:test";
import { listening, output, ROOT, run } from "../helpers/process.ts";
import { killedAfter, readmeCommands } from "../helpers/readme-commands.ts";

const README = "examples/events/README.md";
const { blocks, settings, commandOf } = readmeCommands(README);
const shipBlock = blocks.find((block) => block.code.includes("events/subscribe"));
const unsubscribeBlock = blocks.find((block) => block.code.includes("events/unsubscribe"));

const children = killedAfter();

/**
 * Starts a README command line with the settings and `env` over them, on a port the system picks (`PORT=0`: each
 * prints where it listens); what it prints on stdout is `printed`.
 */
function start(argv: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, argv.slice(1), {
    cwd: ROOT,
    env: { ...process.env, ...settings, HOSTNAME: "127.0.0.1", PORT: "0", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  children.push(child);
  return { child, printed: output(child, ["stdout"]) };
}

describe(`${README}: a server emits, a webhook receives`, () => {
  it("names the settings, the command lines on this runtime, and the blocks to run", () => {
    assert.match(settings.WEBHOOK_SECRET ?? "", /^whsec_/);
    assert.ok((settings.MCPLITE_SECRET ?? "").length >= 32);
    assert.equal(commandOf("examples/events/receiver.ts").env.PORT, "8788");
    assert.equal(commandOf("examples/events/server.ts").env.PORT, "8787");
    assert.ok(shipBlock && unsubscribeBlock);
  });

  it("subscribes (the challenge answered), delivers c1's order once, signed, and nothing after unsubscribing", {
    timeout: 180_000,
  }, async () => {
    const receiverCommand = commandOf("examples/events/receiver.ts");
    const serverCommand = commandOf("examples/events/server.ts");
    const receiver = start(receiverCommand.argv, {});
    const receiverUrl = await listening(receiver.child, 60_000);
    const server = start(serverCommand.argv, { EVENTS_ALLOW_CALLBACKS: receiverUrl });
    const serverUrl = await listening(server.child, 60_000);
    const ours = (code: string) =>
      code.replaceAll("http://127.0.0.1:8787", serverUrl).replaceAll("http://127.0.0.1:8788", receiverUrl);
    const env = { ...process.env, ...settings, PATH: `${ROOT}node_modules/.bin:${process.env.PATH}` };

    const shipped = await run("bash", ["-e", "-o", "pipefail", "-c", ours(shipBlock!.code)], 120_000, ROOT, env);
    assert.equal(shipped.code, 0, `${shipped.stdout}${shipped.stderr}`);
    assert.match(shipped.stdout, /"result":\{"id":"sub_[\w-]+","refreshBefore":"[^"]+","cursor":"[\w-]+\.\d+\.[\w-]+"/);
    const calls = [...shipped.stdout.matchAll(/"deliveries": (\d+)/g)].map((m) => Number(m[1]));
    assert.deepEqual(calls, [1, 0], shipped.stdout);
    const eventId = /"eventId": "(evt_[\w-]+)"/.exec(shipped.stdout)![1];
    await receiver.printed.until(/order\.shipped .*"o1".*\(webhook-id evt_/);
    assert.equal(
      receiver.printed.text(),
      `order.shipped {"orderId":"o1","customerId":"c1","carrier":"parcelco"} (webhook-id ${eventId})\n`,
    );

    const ended = await run("bash", ["-e", "-o", "pipefail", "-c", ours(unsubscribeBlock!.code)], 120_000, ROOT, env);
    assert.equal(ended.code, 0, `${ended.stdout}${ended.stderr}`);
    assert.match(ended.stdout, /"result":\{\}/);
    // The server answered that o3 went to no subscription: no delivery of it is on its way.
    assert.match(ended.stdout, /"deliveries": 0/);
    assert.doesNotMatch(receiver.printed.text(), /"orderId":"o3"/); // not /o3/: a random event id may hold it
  });
});
