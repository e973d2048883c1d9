/**
 * `toolsFromOpenAPI()`: an OpenAPI 3.0 or 3.1 document as tools, one per operation, that call the API
 * it describes. References are resolved with `@apidevtools/json-schema-ref-parser` (local ones always,
 * external ones through the `load` option).
 *
 * @module
 */
import { $RefParser } from "@apidevtools/json-schema-ref-parser";
import type { CallContext } from "../../core/call/call-context.ts";
import type { JsonSchema, StandardSchemaV1 } from "../../core/schema.ts";
import type { AnyTool, ToolAnnotations } from "../../core/definitions/tool.ts";
import { isObject } from "../../internal/is-object.ts";
import type { HeadersLike } from "../../internal/headers-like.ts";
import { defineTool } from "../define-tool.ts";
import { buildRequest, resultFromResponse } from "./http-call.ts";
import { jsonSchemaInput } from "./json-schema-input.ts";
import { operationInput } from "./operation-input.ts";
import { operationOutput, outputCheck } from "./operation-output.ts";
import { SchemaConverter } from "./schema-dialect.ts";
import { ToolNames } from "./tool-names.ts";

/** One operation of the document, as `include` and `nameOf` see it. */
export interface OpenApiOperation {
  /** The HTTP method, lower case (`get`, `post`, `put`, `patch`, `delete`). */
  readonly method: string;
  /** The path template, e.g. `/pets/{id}`. */
  readonly path: string;
  /** Its `operationId`, if it has one. */
  readonly operationId: string | undefined;
  /** Its summary. */
  readonly summary: string | undefined;
  /** Its tags. */
  readonly tags: readonly string[];
}

/** Options of {@link toolsFromOpenAPI}. */
export interface ToolsFromOpenApiOptions {
  /** Where the API is, e.g. `https://api.example.com/v1`: each operation's path is appended to it. */
  readonly baseUrl: string;
  /**
   * Headers sent with every request: the credentials this server is configured with (`{ authorization:
   * "Bearer …" }`), or a function that gives them per call. The MCP caller's own token is never forwarded
   * unless this function does so from `ctx.meta.headers`.
   */
  readonly headers?: HeadersLike | ((ctx: CallContext) => HeadersLike | Promise<HeadersLike>);
  /** The `fetch` to call the API with (default: the global one); a server's own `fetch` works too. */
  readonly fetch?: (request: Request) => Promise<Response>;
  /** Which operations become tools (default: every GET, POST, PUT, PATCH and DELETE). */
  readonly include?: (operation: OpenApiOperation) => boolean;
  /**
   * Names a tool (default: its `operationId`, else `{method}_{path}`). Names are then made valid
   * (1-64 of `A-Z a-z 0-9 _ . -`, other characters become `_`; a longer name keeps its first 23 and last
   * 31 characters around an 8-digit hash of the whole) and unique (`_2`, `_3`, … in document order).
   */
  readonly nameOf?: (operation: OpenApiOperation) => string | undefined;
  /** Loads the document an external `$ref` points at (a URL); without it only local references are resolved. */
  readonly load?: (url: string) => Promise<unknown>;
  /**
   * How a `deepObject` query parameter or form body property writes an array, which OpenAPI 3.1.0
   * §4.8.12.4 leaves undefined (as it does nested objects, always written `a[k][j]=v`): `"indexed"`
   * (default) `line_items[0][price]=p&expand[0]=x`, the PHP/Rails bracket convention Stripe expects, or
   * `"brackets"` `expand[]=x&line_items[][price]=p`.
   */
  readonly deepObjectArrays?: "indexed" | "brackets";
  /**
   * What a call does with an argument the operation does not describe (neither a parameter nor a
   * property of its body). `"refuse"` (default): the call fails as invalid arguments before any request
   * leaves, naming the argument and the closest described name (`Unknown argument "lables" … did you
   * mean "labels"?`), on open bodies as on closed ones; a model's typo is otherwise dropped by the API
   * without a word. `"forward"`: the argument joins the JSON, form or multipart object body when that
   * body is open (no `additionalProperties: false`), for APIs that take more than their document says;
   * an operation without such a body still refuses it. A body's own `additionalProperties` schema is
   * always honoured: what it describes is forwarded, validated against it.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer } from "../../../mod.ts";
   * import { toolsFromOpenAPI } from "./tools-from-openapi.ts";
   * const json = { schema: { type: "object", properties: { title: { type: "string" } } } };
   * const document = {
   *   openapi: "3.0.3",
   *   info: { title: "Issues", version: "1" },
   *   paths: { "/issues": { post: { operationId: "createIssue", requestBody: { content: { "application/json": json } }, responses: {} } } },
   * };
   * const sent: string[] = [];
   * const fetch = async (request: Request) => (sent.push(await request.text()), Response.json({ number: 1 }));
   * const [refusing] = await toolsFromOpenAPI(document, { baseUrl: "http://issues.test", fetch });
   * const strict = createServer({ name: "strict", version: "1.0.0" }).tool(refusing);
   * await assert.rejects(strict.call("createIssue", { title: "Bug", titel: "Bug" }), /did you mean "title"\?/);
   * assert.equal(sent.length, 0);
   * const [forwarding] = await toolsFromOpenAPI(document, { baseUrl: "http://issues.test", fetch, unknownArguments: "forward" });
   * const lenient = createServer({ name: "lenient", version: "1.0.0" }).tool(forwarding);
   * await lenient.call("createIssue", { title: "Bug", milestone: 2 });
   * assert.deepEqual(JSON.parse(sent[0]), { title: "Bug", milestone: 2 });
   * ```
   */
  readonly unknownArguments?: "refuse" | "forward";
  /**
   * Whether each tool lists the `outputSchema` of its operation's success response (`200`, else `201`, the other
   * `2xx`, `2XX`, else `default` when no success code is declared; OpenAPI 3.1.1 §4.8.16) and answers its JSON
   * body as `structuredContent`. A body that is not an object (an array, a string) is wrapped, `{ "result": body }`,
   * as MCP 2025-11-25 (Tools, Output Schema) wants an object schema, and the text content is that object's JSON too.
   * An operation without a JSON success response, or with a success response whose body may be other than JSON (a
   * `204` beside a `201`, `text/plain` beside `application/json`), lists none and answers as without this option.
   *
   * - `"enforce"` (default): each 2xx body is checked against the schema, as MCP requires ("Servers MUST provide
   *   structured results that conform to this schema"); one that does not match is a tool error (`isError`) naming
   *   the first mismatch, `HTTP 200: the response does not match the 200 response the operation documents at
   *   /owner/login: …`, with `structuredContent: { status, body }`, so the caller still sees what the API said.
   * - `"list"`: listed and answered, not checked, for an API trusted to keep to its document: a body that drifted
   *   reaches the client unchecked (a client that checks, as the official SDKs do, then refuses it itself).
   * - `false`: no output schemas; a 2xx JSON object is the structured result, any other JSON value its text.
   *
   * A 2xx body that is not JSON, or not the object the schema describes, is a tool error in both listing modes.
   *
   * @example
   * ```ts
   * import assert from "node:assert/strict";
   * import { createServer } from "../../../mod.ts";
   * import { toolsFromOpenAPI } from "./tools-from-openapi.ts";
   * const labels = { type: "array", items: { type: "object", properties: { name: { type: "string" } } } };
   * const document = {
   *   openapi: "3.1.0",
   *   info: { title: "Issues", version: "1" },
   *   paths: { "/labels": { get: { operationId: "listLabels", responses: { "200": { description: "The labels", content: { "application/json": { schema: labels } } } } } } },
   * };
   * let answer: unknown = [{ name: "bug" }];
   * const fetch = () => Promise.resolve(Response.json(answer));
   * const [listLabels] = await toolsFromOpenAPI(document, { baseUrl: "http://issues.test", fetch });
   * assert.deepEqual(listLabels.output?.jsonSchema, { type: "object", properties: { result: labels }, required: ["result"] });
   * const server = createServer({ name: "issues", version: "1.0.0" }).tool(listLabels);
   * const listed = await server.call("listLabels", {});
   * assert.deepEqual(listed.kind === "answer" && listed.result.structuredContent, { result: [{ name: "bug" }] });
   * answer = [{ name: 7 }];
   * const drifted = await server.call("listLabels", {});
   * assert.match(drifted.kind === "failure" ? JSON.stringify(drifted.result.content) : "", /at \/result\/0\/name/);
   * ```
   */
  readonly outputSchemas?: "enforce" | "list" | false;
  /**
   * The most characters of JSON one parameter's, body's or response's schema takes (default 12,288). A schema
   * over it is cut level by level, breadth first, to what fits, at least its top-level properties' types and descriptions, and
   * marked `x-digest: true`; what is cut accepts any value, so a cut schema still accepts every body the whole one
   * did. A large API's schemas repeat what they share in every place they are used: Microsoft Graph's `GET /me`
   * answers a 7 MB schema whole, which every `tools/list` would carry. `Infinity` keeps every schema whole.
   */
  readonly maxSchemaBytes?: number;
}

const METHODS = ["get", "post", "put", "patch", "delete"] as const;

/**
 * Turns an OpenAPI document into tools, one per operation, to register with `server.tool()`. Each tool's
 * input merges the operation's path, query and header parameters and its request body into one object
 * (a parameter whose name is taken becomes `{name}__{in}`); the arguments are validated against that
 * JSON Schema before any request leaves, and one the operation does not describe is refused, naming the
 * closest described name, whether or not its body is closed (see `unknownArguments`). A call builds the HTTP request
 * (query parameters per `style`, `explode` and `allowReserved`, OpenAPI 3.1.0 §4.8.12.4; form and
 * multipart bodies per each property's Encoding Object, §4.8.15), forwards `ctx.signal`, and answers the
 * 2xx JSON body as its structured result, conforming to the `outputSchema` each tool lists from its success
 * response (see `outputSchemas`), or a failure `HTTP {status}: {message}` with the message the
 * error body carries (RFC 9457 `detail`, `{"error":{"message"}}`, `message`, `error_description`).
 *
 * @param document The OpenAPI 3.0.x or 3.1.x document, parsed (JSON or YAML).
 * @param options Where the API is, the credentials, the `fetch`, and which operations to take and how to name them.
 * @returns The tools, in document order.
 * @throws {TypeError} (rejects) When the document is not OpenAPI 3.x, or a `$ref` cannot be resolved.
 *
 * @example
 * ```ts
 * import assert from "node:assert/strict";
 * import { toolsFromOpenAPI } from "./tools-from-openapi.ts";
 * const document = {
 *   openapi: "3.0.3",
 *   info: { title: "Pets", version: "1" },
 *   paths: { "/pets/{id}": { get: { operationId: "getPet", parameters: [{ name: "id", in: "path", required: true, schema: { type: "integer" } }], responses: { "200": { description: "A pet" } } } } },
 * };
 * const fetch = (request: Request) => Promise.resolve(Response.json({ id: 7, url: request.url }));
 * const [getPet] = await toolsFromOpenAPI(document, { baseUrl: "http://pets.test", fetch });
 * assert.equal(getPet.name, "getPet");
 * assert.equal(getPet.annotations?.readOnlyHint, true);
 * ```
 *
 * @example A form body with `deepObject` properties (Stripe's convention), and a closed body
 * ```ts
 * import assert from "node:assert/strict";
 * import { createServer } from "../../../mod.ts";
 * import { toolsFromOpenAPI } from "./tools-from-openapi.ts";
 * const form = {
 *   schema: { type: "object", additionalProperties: false, properties: { email: { type: "string" }, metadata: { type: "object" } } },
 *   encoding: { metadata: { style: "deepObject", explode: true } },
 * };
 * const document = {
 *   openapi: "3.1.0",
 *   info: { title: "Shop", version: "1" },
 *   paths: { "/customers": { post: { operationId: "createCustomer", requestBody: { content: { "application/x-www-form-urlencoded": form } }, responses: {} } } },
 * };
 * const sent: string[] = [];
 * const fetch = async (request: Request) => (sent.push(await request.text()), Response.json({ id: "cus_1" }));
 * const [createCustomer] = await toolsFromOpenAPI(document, { baseUrl: "http://shop.test", fetch });
 * const server = createServer({ name: "shop", version: "1.0.0" }).tool(createCustomer);
 * await server.call("createCustomer", { email: "ada@example.com", metadata: { order_id: "6735" } });
 * assert.equal(decodeURIComponent(sent[0]), "email=ada@example.com&metadata[order_id]=6735");
 * await assert.rejects(server.call("createCustomer", { emial: "ada@example.com" }), /Unknown argument "emial".*did you mean "email"\?/);
 * assert.equal(sent.length, 1);
 * ```
 */
export async function toolsFromOpenAPI(document: unknown, options: ToolsFromOpenApiOptions): Promise<AnyTool[]> {
  if (!isObject(document) || typeof document.openapi !== "string" || !/^3\.[01]\./.test(document.openapi)) {
    throw new TypeError("toolsFromOpenAPI: expected an OpenAPI 3.0 or 3.1 document (its `openapi` field)");
  }
  const resolved = await dereference(document, options.load);
  const converter = new SchemaConverter(document.openapi, resolved, options.maxSchemaBytes ?? 12_288);
  const names = new ToolNames();
  const tools: AnyTool[] = [];
  for (const [path, item] of Object.entries(isObject(resolved.paths) ? resolved.paths : {})) {
    if (!isObject(item)) continue;
    for (const method of METHODS) {
      const operation = item[method];
      if (!isObject(operation)) continue;
      const described: OpenApiOperation = {
        method,
        path,
        operationId: typeof operation.operationId === "string" ? operation.operationId : undefined,
        summary: typeof operation.summary === "string" ? operation.summary : undefined,
        tags: Array.isArray(operation.tags) ? operation.tags.filter((t) => typeof t === "string") : [],
      };
      if (options.include !== undefined && !options.include(described)) continue;
      const name = names.claim(options.nameOf?.(described) ?? described.operationId ?? `${method}_${path}`);
      tools.push(toolOf(name, described, item.parameters, operation, converter, options));
    }
  }
  return tools;
}

async function dereference(
  document: Record<string, unknown>,
  load: ToolsFromOpenApiOptions["load"],
): Promise<Record<string, unknown>> {
  const loader = load === undefined ? {} : {
    loader: { order: 1, canRead: true, read: async (file: { url: string }) => JSON.stringify(await load(file.url)) },
  };
  try {
    return await new $RefParser().dereference(document as never, {
      mutateInputSchema: false,
      resolve: { external: load !== undefined, file: false, http: false, ...loader },
      // A recursive schema keeps its `$ref`; the converter makes it permissive.
      dereference: { circular: "ignore" },
    }) as unknown as Record<string, unknown>;
  } catch (error) {
    throw new TypeError(`toolsFromOpenAPI: cannot resolve the document's references: ${(error as Error).message}`, {
      cause: error,
    });
  }
}

function toolOf(
  name: string,
  operation: OpenApiOperation,
  pathParameters: unknown,
  definition: Record<string, unknown>,
  converter: SchemaConverter,
  options: ToolsFromOpenApiOptions,
): AnyTool {
  const input = operationInput(pathParameters, definition, converter, options.unknownArguments);
  const description =
    [operation.summary, typeof definition.description === "string" ? definition.description : undefined]
      .filter((part): part is string => part !== undefined && part.trim() !== "")
      .join("\n\n") || `${operation.method.toUpperCase()} ${operation.path}`;
  const send = options.fetch ?? ((request: Request) => fetch(request));
  const mode = options.outputSchemas ?? "enforce";
  const output = mode === false ? undefined : operationOutput(definition.responses, converter);
  let builder = defineTool(name).describe(description).input(jsonSchemaInput(input.schema))
    .annotations(annotationsOf(operation));
  if (operation.summary !== undefined) builder = builder.title(operation.summary);
  const answering = output === undefined ? undefined : {
    wrapped: output.wrapped,
    status: output.status,
    check: mode === "enforce" ? outputCheck(output.schema) : undefined,
  };
  // The handler has checked (or, with "list", deliberately not) what it answers: the schema is listed as is.
  if (output !== undefined) builder = builder.output(listedSchema(output.schema)) as unknown as typeof builder;
  return builder.handle(async (args, ctx) => {
    const headers = new Headers(
      typeof options.headers === "function" ? await options.headers(ctx) : options.headers,
    );
    const { method, path } = operation;
    const { url, init } = buildRequest(options.baseUrl, method, path, input, args, headers, options.deepObjectArrays);
    return await resultFromResponse(await send(new Request(url, { ...init, signal: ctx.signal })), answering);
  });
}

/** An output schema listed as given, its values passed as they are (the handler answers only conforming ones). */
function listedSchema(schema: JsonSchema): StandardSchemaV1<Record<string, unknown>> {
  return {
    "~standard": {
      version: 1,
      vendor: "mcplite-openapi",
      validate: (value: unknown) => ({ value: value as Record<string, unknown> }),
      jsonSchema: { input: () => schema, output: () => schema },
    },
  };
}

/** MCP tool annotations from the method's semantics (RFC 9110 §9.2): safe, idempotent or destructive. */
function annotationsOf(operation: OpenApiOperation): ToolAnnotations {
  const annotations: ToolAnnotations = { openWorldHint: true };
  if (operation.summary !== undefined) annotations.title = operation.summary;
  if (operation.method === "get") annotations.readOnlyHint = true;
  else annotations.readOnlyHint = false;
  if (operation.method === "delete") annotations.destructiveHint = true;
  if (operation.method === "put" || operation.method === "delete") annotations.idempotentHint = true;
  return annotations;
}
