// A gRPC client on @grpc/grpc-js, the canonical Node implementation, run under Node by the tests:
//   node grpc-js-client.mjs <host:port> <scenario> [channels]
// It prints one JSON line with what it saw; the test asserts on it. Every call has a deadline, so the
// script always ends.
import { credentials, loadPackageDefinition, Metadata, status } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { fileURLToPath } from "node:url";
import protobuf from "protobufjs";
import descriptor from "protobufjs/ext/descriptor/index.js";

const [address, scenario, channelArg] = process.argv.slice(2);
const protoPath = fileURLToPath(new URL("../../../../proto/mcplite/mcplite.proto", import.meta.url));
const definition = loadSync(protoPath, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true });
const { mcplite } = loadPackageDefinition(definition);

// google.rpc.Status (grpc-status-details-bin) with the details this server sends, decoded as any
// googleapis-aware client would.
const detailsRoot = protobuf.loadSync(
  fileURLToPath(new URL("../../../../proto/google/rpc/error_details.proto", import.meta.url)),
);
protobuf.parse(
  `syntax = "proto3"; package google.rpc;
  message Any { string type_url = 1; bytes value = 2; }
  message Status { int32 code = 1; string message = 2; repeated Any details = 3; }`,
  detailsRoot,
);
const Status = detailsRoot.lookupType("google.rpc.Status");
const decodeDetails = (bin) => {
  if (!bin) return undefined;
  const decoded = Status.decode(bin);
  return decoded.details.map((any) => {
    const type = detailsRoot.lookupType(any.typeUrl.slice(any.typeUrl.lastIndexOf("/") + 1));
    return { type: any.typeUrl, value: type.toObject(type.decode(any.value)) };
  });
};

const channels = Math.max(1, Number(channelArg ?? 1));
// Distinct channel options give distinct connections (grpc-js shares a subchannel for equal options).
const clients = Array.from(
  { length: channels },
  (_, i) =>
    new mcplite.MCPLite(address, credentials.createInsecure(), {
      "grpc.mcplite_test_channel": i,
      "grpc.max_receive_message_length": 8 << 20,
    }),
);
const client = clients[0];
const soon = (ms = 10_000) => new Date(Date.now() + ms);

// google.protobuf.Struct <-> JSON, as proto-loader leaves Structs as messages.
const toValue = (v) =>
  v === null || v === undefined
    ? { nullValue: "NULL_VALUE" }
    : typeof v === "number"
    ? { numberValue: v }
    : typeof v === "string"
    ? { stringValue: v }
    : typeof v === "boolean"
    ? { boolValue: v }
    : Array.isArray(v)
    ? { listValue: { values: v.map(toValue) } }
    : { structValue: toStruct(v) };
const toStruct = (o) => ({ fields: Object.fromEntries(Object.entries(o).map(([k, v]) => [k, toValue(v)])) });
const fromValue = (v) => {
  switch (v.kind) {
    case "nullValue":
      return null;
    case "numberValue":
      return v.numberValue;
    case "stringValue":
      return v.stringValue;
    case "boolValue":
      return v.boolValue;
    case "listValue":
      return (v.listValue.values ?? []).map(fromValue);
    case "structValue":
      return fromStruct(v.structValue);
  }
};
const fromStruct = (s) => Object.fromEntries(Object.entries(s?.fields ?? {}).map(([k, v]) => [k, fromValue(v)]));
const response = (r) => ({ result: fromStruct(r.result), meta: r.meta ?? null });

const unary = (method, request, { deadline = soon(), metadata = new Metadata(), on = client } = {}) =>
  new Promise((resolve) => {
    on[method](request, metadata, { deadline }, (error, reply) => resolve(error ? failed(error) : reply));
  });
const failed = (error) => ({
  code: status[error.code],
  message: error.details,
  details: decodeDetails(error.metadata?.get("grpc-status-details-bin")[0]),
});
const call = (name, args, options) => unary("CallTool", { name, arguments: toStruct(args) }, options);
const stream = (name, args, { deadline = soon(), cancelAfter, on = client } = {}) =>
  new Promise((resolve) => {
    const messages = [];
    const s = on.CallToolStream({ name, arguments: toStruct(args) }, new Metadata(), { deadline });
    s.on("data", (m) => {
      messages.push(response(m));
      if (messages.length === cancelAfter) s.cancel();
    });
    s.on("error", (error) => resolve({ messages, ...failed(error) }));
    s.on("end", () => resolve({ messages, code: "OK" }));
  });

const scenarios = {
  // Server reflection as grpc-js reflection clients ask it (v1alpha, the revision they speak): the
  // services, then the file declaring mcplite.MCPLite, decoded with protobufjs's descriptor extension.
  async reflection() {
    const path = fileURLToPath(new URL("../../../../proto/grpc/reflection/v1alpha/reflection.proto", import.meta.url));
    const { grpc } = loadPackageDefinition(loadSync(path, { keepCase: true, oneofs: true }));
    const reflection = new grpc.reflection.v1alpha.ServerReflection(address, credentials.createInsecure());
    const answers = await new Promise((resolve, reject) => {
      const got = [];
      const info = reflection.ServerReflectionInfo({ deadline: soon() });
      info.on("data", (answer) => got.push(answer));
      info.on("error", reject);
      info.on("end", () => resolve(got));
      info.write({ list_services: "" });
      info.write({ file_containing_symbol: "mcplite.MCPLite" });
      info.end();
    });
    reflection.close();
    const [listed, files] = answers;
    const decoded = files.file_descriptor_response.file_descriptor_proto.map((bytes) =>
      descriptor.FileDescriptorProto.decode(bytes)
    );
    const root = protobuf.Root.fromDescriptor({ file: decoded });
    const service = root.lookupService("mcplite.MCPLite");
    return {
      services: listed.list_services_response.service.map((s) => s.name),
      files: decoded.map((file) => file.name),
      methods: Object.values(service.methods).map((m) =>
        `${m.name}(${m.requestType}) ${m.responseStream ? "stream " : ""}${m.responseType}`
      ),
    };
  },
  async prompts() {
    const listed = await unary("GetPrompts", {});
    const got = await unary("GetPrompt", { name: "greet", arguments: toStruct({ name: "Ada" }) });
    const missing = await unary("GetPrompt", { name: "greet", arguments: toStruct({}) });
    const unknown = await unary("GetPrompt", { name: "nope", arguments: toStruct({}) });
    return {
      prompts: listed.prompts.map((p) => ({ name: p.name, description: p.description, arguments: p.arguments })),
      got: response(got),
      missing: { code: missing.code, message: missing.message },
      unknown: { code: unknown.code, message: unknown.message },
    };
  },
  async basic() {
    const tools = await unary("GetTools", {});
    const add = await call("add", { a: 2, b: 3 });
    const streamed = await stream("countdown", { count: 3 });
    const unknown = await call("ad", { a: 1 });
    const invalid = await call("add", { a: "x" });
    const failure = await call("fails", {});
    const withAuth = (value) => {
      const metadata = new Metadata();
      metadata.set("x-test-auth", value);
      return { metadata };
    };
    const promised = [await call("analyze_dataset", { n: 21 })];
    while (promised.length < 5 && promised.at(-1).meta?.responseType === "PROMISE") {
      promised.push(await call("redeem", { promise: promised.at(-1).meta.promiseToken }));
    }
    const denied = await call("add", { a: 1, b: 1 }, withAuth("deny"));
    const anonymous = await call("add", { a: 1, b: 1 }, withAuth("none"));
    return {
      tools: tools.tools.map((t) => ({
        name: t.name,
        type: t.type,
        description: t.description,
        inputSchema: fromStruct(t.inputSchema),
      })),
      add: response(add),
      stream: streamed,
      unknown,
      invalid,
      failure: response(failure),
      promised: promised.map(response),
      denied,
      anonymous,
    };
  },
  // SEP-3415 push as CallMethodStream (E5): events/stream from maxAgeMs back, read until a heartbeat, then cancelled.
  async push() {
    const request = {
      method: "events/stream",
      params: toStruct({ name: "order.shipped", arguments: { customerId: "c1" }, maxAgeMs: 60_000 }),
    };
    return await new Promise((resolve) => {
      const notifications = [];
      const s = client.CallMethodStream(request, new Metadata(), { deadline: soon() });
      s.on("data", (m) => {
        if (m.kind === "notification") notifications.push(fromStruct(m.notification));
        if (notifications.at(-1)?.method === "notifications/events/heartbeat") s.cancel();
      });
      s.on("error", (error) => resolve({ notifications, ...failed(error) }));
      s.on("end", () => resolve({ notifications, code: "OK" }));
    });
  },
  async cancel() {
    return await stream("ticks", { count: 1000, delayMs: 20 }, { cancelAfter: 3 });
  },
  async deadline() {
    // Deadlines of 2 s, so that a loaded server has started both handlers before they pass; the tools would
    // run for 20 s.
    const [unaryResult, streamResult] = await Promise.all([
      call("slow", { ms: 20_000 }, { deadline: soon(2000) }),
      stream("ticks", { count: 1000, delayMs: 20 }, { deadline: soon(2000) }),
    ]);
    return {
      unary: unaryResult,
      stream: { code: streamResult.code, count: streamResult.messages.length },
    };
  },
  // One backend client multiplexing many unary calls on one connection, as gRPC clients do: `channelArg`
  // calls of `gated` at once (300 by default), each answer's code counted; a refusal's details and
  // trailers (its retry information) kept from the first one. Each call is held until the test opens its gate
  // once every call is in (held or refused), so the first ones still run when the last arrive, however slowly a
  // loaded machine sends them (tests/bindings/grpc/budgets.test.ts).
  async concurrent() {
    const count = Number(channelArg ?? 300);
    const results = await Promise.all(
      Array.from({ length: count }, () =>
        new Promise((resolve) => {
          const metadata = new Metadata();
          const trailers = {};
          const c = client.CallTool({ name: "gated", arguments: toStruct({}) }, metadata, {
            deadline: soon(20_000),
          }, (error, reply) =>
            resolve(
              error
                ? { ...failed(error), trailers: error.metadata?.getMap() }
                : { code: "OK", text: fromStruct(reply.result).content?.[0]?.text },
            ));
          c.on("status", (s) => Object.assign(trailers, s.metadata.getMap()));
        })),
    );
    const codes = {};
    for (const r of results) codes[r.code] = (codes[r.code] ?? 0) + 1;
    const refused = results.find((r) => r.code !== "OK");
    return {
      codes,
      refused: refused &&
        {
          ...refused,
          trailers: Object.fromEntries(Object.entries(refused.trailers ?? {}).filter(([k]) => !k.endsWith("-bin"))),
        },
    };
  },
  async stress() {
    const sums = await Promise.all(
      Array.from(
        { length: 500 },
        (_, i) =>
          call("add", { a: i, b: 1000 }, { on: clients[i % channels] }).then((r) =>
            r.result ? fromStruct(r.result).structuredContent?.sum : r
          ),
      ),
    );
    const streams = await Promise.all(
      Array.from(
        { length: 50 },
        (_, i) =>
          stream("countdown", { count: 20 }, { on: clients[i % channels] }).then((r) => ({
            code: r.code,
            partials: r.messages.filter((m) => m.meta === null).length,
            final: r.messages.at(-1)?.result.content?.[0]?.text,
            type: r.messages.at(-1)?.meta?.responseType,
          })),
      ),
    );
    const big = "x".repeat(1 << 20);
    const large = await call("echo", { text: big });
    const largeText = large.result ? fromStruct(large.result).content[0].text : undefined;
    return {
      sumsOk: sums.every((s, i) => s === i + 1000),
      badSums: sums.map((s, i) => [i, s]).filter(([i, s]) => s !== i + 1000).slice(0, 3),
      streams: {
        ok:
          streams.filter((s) =>
            s.code === "OK" && s.partials === 21 && s.final?.endsWith("liftoff") && s.type === "ANSWER"
          ).length,
        sample: streams[0],
      },
      large: { ok: largeText === big, length: largeText?.length, error: large.code },
    };
  },
};

const timer = setTimeout(() => {
  console.log(JSON.stringify({ error: "timed out" }));
  process.exit(2);
}, 25_000);
try {
  console.log(JSON.stringify(await scenarios[scenario]()));
} catch (error) {
  console.log(JSON.stringify({ error: String(error?.stack ?? error) }));
}
clearTimeout(timer);
for (const c of clients) c.close();
