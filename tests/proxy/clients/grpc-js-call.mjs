// A gRPC client on @grpc/grpc-js, run under Node by the proxy's tests:
//   node grpc-js-call.mjs <host:port> <tool> <arguments as JSON> [bearer token]
// It calls CallTool once (10 s deadline) and prints one JSON line: the result, or the status code.
import { credentials, loadPackageDefinition, Metadata, status } from "@grpc/grpc-js";
import { loadSync } from "@grpc/proto-loader";
import { fileURLToPath } from "node:url";

const [address, tool, json, token] = process.argv.slice(2);
const metadata = new Metadata();
if (token) metadata.set("authorization", `Bearer ${token}`);
const protoPath = fileURLToPath(new URL("../../../proto/mcplite/mcplite.proto", import.meta.url));
const definition = loadSync(protoPath, { keepCase: false, longs: String, enums: String, defaults: true, oneofs: true });
const { mcplite } = loadPackageDefinition(definition);
const client = new mcplite.MCPLite(address, credentials.createInsecure());

const toValue = (v) =>
  v === null
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
const fromValue = (v) =>
  v.kind === "structValue"
    ? fromStruct(v.structValue)
    : v.kind === "listValue"
    ? (v.listValue.values ?? []).map(fromValue)
    : v.kind === "nullValue"
    ? null
    : v[v.kind];
const fromStruct = (s) => Object.fromEntries(Object.entries(s?.fields ?? {}).map(([k, v]) => [k, fromValue(v)]));

client.CallTool(
  { name: tool, arguments: toStruct(JSON.parse(json)) },
  metadata,
  { deadline: new Date(Date.now() + 10_000) },
  (error, reply) => {
    console.log(
      JSON.stringify(
        error ? { code: status[error.code], message: error.details } : { result: fromStruct(reply.result) },
      ),
    );
    client.close();
  },
);
