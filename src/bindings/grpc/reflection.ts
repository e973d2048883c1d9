/**
 * gRPC Server Reflection (grpc/grpc, doc/server-reflection.md), `grpc.reflection.v1` and the older
 * `grpc.reflection.v1alpha` that many tools still ask for first: `grpcurl list`/`describe`, `buf curl
 * --reflect` and grpc-js's reflection client learn the `mcplite.MCPLite` service and its messages
 * from the server, with no `.proto` at hand. The answers are the file descriptors embedded in
 * `src/gen` (protoc-gen-es), serialized once.
 *
 * @module
 */
// Connect documents its own types; `@ignore` tells `deno doc --lint` they are not ours to export.
/** @ignore */
import type { ConnectRouter } from "@connectrpc/connect";
import { type DescFile, toBinary } from "@bufbuild/protobuf";
import { nestedTypes } from "@bufbuild/protobuf/reflect";
import { FileDescriptorProtoSchema } from "@bufbuild/protobuf/wkt";
import { file_google_rpc_error_details } from "../../gen/google/rpc/error_details_pb.ts";
import * as v1 from "../../gen/grpc/reflection/v1/reflection_pb.ts";
import * as v1alpha from "../../gen/grpc/reflection/v1alpha/reflection_pb.ts";
import { file_mcplite_mcplite, MCPLite } from "../../gen/mcplite/mcplite_pb.ts";

/** The reflection services' paths' prefixes, as clients call them. */
export const REFLECTION_SERVICE_PATHS: readonly string[] = [
  `/${v1.ServerReflection.typeName}/`,
  `/${v1alpha.ServerReflection.typeName}/`,
];

/** gRPC status codes an `ErrorResponse` carries (gRPC status codes, doc/statuscodes.md). */
const INVALID_ARGUMENT = 3;
const NOT_FOUND = 5;

/** What a request asks (both revisions' `message_request`, alike on the wire). */
type Question = v1.ServerReflectionRequest["messageRequest"] | v1alpha.ServerReflectionRequest["messageRequest"];

/** The files a server describes, by name and by the symbols they declare. */
interface Catalog {
  readonly services: readonly string[];
  readonly byName: ReadonlyMap<string, DescFile>;
  readonly bySymbol: ReadonlyMap<string, DescFile>;
  /** Each message type's full name, for `all_extension_numbers_of_type` (none has extensions). */
  readonly messages: ReadonlySet<string>;
}

let catalog: Catalog | undefined;

/** The catalog, built on the first reflection request: the service's files, the details', reflection's own. */
function catalogOf(): Catalog {
  if (catalog !== undefined) return catalog;
  const byName = new Map<string, DescFile>();
  const bySymbol = new Map<string, DescFile>();
  const messages = new Set<string>();
  const add = (file: DescFile): void => {
    if (byName.has(file.name + ".proto")) return;
    byName.set(file.name + ".proto", file);
    for (const dependency of file.dependencies) add(dependency);
    for (const type of nestedTypes(file)) {
      bySymbol.set(type.typeName, file);
      if (type.kind === "service") {
        for (const method of type.methods) bySymbol.set(`${type.typeName}.${method.name}`, file);
      }
      if (type.kind === "message") {
        messages.add(type.typeName);
        for (const field of type.fields) bySymbol.set(`${type.typeName}.${field.name}`, file);
      }
      if (type.kind === "enum") {
        for (const value of type.values) bySymbol.set(`${type.typeName}.${value.name}`, file);
      }
    }
  };
  add(file_mcplite_mcplite);
  add(file_google_rpc_error_details); // ErrorInfo and BadRequest travel in error details: clients decode them
  add(v1.file_grpc_reflection_v1_reflection);
  add(v1alpha.file_grpc_reflection_v1alpha_reflection);
  const services = [MCPLite.typeName, v1.ServerReflection.typeName, v1alpha.ServerReflection.typeName];
  return catalog = { services, byName, bySymbol, messages };
}

/** A file's `FileDescriptorProto`, serialized once. */
const serialized = new WeakMap<DescFile, Uint8Array>();

function bytesOf(file: DescFile): Uint8Array {
  let bytes = serialized.get(file);
  if (bytes === undefined) serialized.set(file, bytes = toBinary(FileDescriptorProtoSchema, file.proto));
  return bytes;
}

/**
 * Answers one question of a stream. A file comes with the files it imports, transitively, except those
 * the stream was sent already, which the protocol allows a server to leave out (the file asked for is
 * always sent).
 */
function answer(question: Question, sent: Set<string>) {
  const { services, byName, bySymbol, messages } = catalogOf();
  const files = (file: DescFile | undefined, asked: string) => {
    if (file === undefined) return notFound(`${asked} is not known to this server`);
    const out: Uint8Array[] = [bytesOf(file)];
    sent.add(file.name);
    const visit = (dependency: DescFile): void => {
      if (sent.has(dependency.name)) return;
      sent.add(dependency.name);
      out.push(bytesOf(dependency));
      dependency.dependencies.forEach(visit);
    };
    file.dependencies.forEach(visit);
    return { case: "fileDescriptorResponse" as const, value: { fileDescriptorProto: out } };
  };
  switch (question.case) {
    case "listServices":
      return { case: "listServicesResponse" as const, value: { service: services.map((name) => ({ name })) } };
    case "fileByFilename":
      return files(byName.get(question.value), `the file ${question.value}`);
    case "fileContainingSymbol":
      return files(bySymbol.get(question.value), `the symbol ${question.value}`);
    case "fileContainingExtension": // no file here declares an extension
      return notFound(`no extension ${question.value.extensionNumber} of ${question.value.containingType} is known`);
    case "allExtensionNumbersOfType":
      return messages.has(question.value)
        ? { case: "allExtensionNumbersResponse" as const, value: { baseTypeName: question.value } }
        : notFound(`the type ${question.value} is not known to this server`);
    default:
      return {
        case: "errorResponse" as const,
        value: { errorCode: INVALID_ARGUMENT, errorMessage: "the request asks nothing (message_request is unset)" },
      };
  }
}

function notFound(message: string) {
  return { case: "errorResponse" as const, value: { errorCode: NOT_FOUND, errorMessage: message } };
}

/** Answers each request of one stream in order (either revision: their messages are alike). */
async function* reflect<R extends v1.ServerReflectionRequest | v1alpha.ServerReflectionRequest>(
  requests: AsyncIterable<R>,
) {
  const sent = new Set<string>();
  for await (const request of requests) {
    yield { validHost: request.host, originalRequest: request, messageResponse: answer(request.messageRequest, sent) };
  }
}

/**
 * Registers both revisions of the reflection service on a Connect router.
 *
 * @param router The router the `mcplite.MCPLite` service is on.
 */
export function addReflection(router: ConnectRouter): void {
  router.service(v1.ServerReflection, { serverReflectionInfo: reflect });
  router.service(v1alpha.ServerReflection, { serverReflectionInfo: reflect });
}
