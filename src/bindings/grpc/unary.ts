// HOT PATH: the work of every call on the direct unary paths, built once per server or listener.
/**
 * `CallTool` and `GetTools` as the direct paths run them, whatever the protocol: Connect's serialisers,
 * the one authentication call site (for a listener that authenticates itself), the method.
 *
 * @module
 */
import type { DescMessage, DescMethodUnary, MessageShape } from "@bufbuild/protobuf";
import { Code, ConnectError } from "@connectrpc/connect";
import {
  createMethodSerializationLookup,
  createMethodUrl,
  type validateUniversalHandlerOptions,
} from "@connectrpc/connect/protocol";
import { MCPLite } from "../../gen/mcplite/mcplite_pb.ts";
import { CacheSlot, registryOf, scoping } from "../../core/mod.ts";
import { type Host, type ServerCore, withCaller } from "../../server/mod.ts";
import type { AuthenticatedCall } from "./auth-interceptor.ts";
import { type ToolResponseInit, toolResponseJson, toolsList } from "./envelope.ts";
import { createCallTool, listToolsFor } from "./service.ts";
import { toolResponseBinary } from "./tool-response-binary.ts";
import type { UnaryCall } from "./unary-call.ts";

/** The serialised `GetTools` answers, per format and scope set. */
const ENCODED_LIST = new CacheSlot<Uint8Array>("grpc:tools:encoded");

/** Connect's handler options, validated (`validateUniversalHandlerOptions`). */
export type HandlerOptions = ReturnType<typeof validateUniversalHandlerOptions>;

/** An answer's message: bytes, or JSON text (which `Response` encodes natively). */
export type UnaryAnswer = Uint8Array | string;

/** Authenticates a call from its URL and metadata, as Connect's interceptor does (`callAuthenticator`). */
export type Authenticate = (url: string, header: Headers) => Promise<AuthenticatedCall>;

/** One unary method on the direct paths. */
export interface UnaryMethod {
  /**
   * Whether its binary answers are whole gRPC Length-Prefixed-Messages (`frame` given to
   * {@link createUnaryMethods}) rather than the message alone.
   */
  readonly framed?: boolean;
  /**
   * Parses the request message, authenticates the call when `authenticate` is given (after the
   * message, as Connect's interceptors run), runs the method and serialises its answer. The work ends
   * as soon as the call is cancelled or out of time. A method that answered at once (a synchronous
   * tool, no authentication) answers at once, with no promise; it may then throw synchronously.
   */
  invoke(
    bytes: Uint8Array,
    call: UnaryCall,
    binary: boolean,
    host: Host,
    authenticate?: Authenticate,
  ): UnaryAnswer | Promise<UnaryAnswer>;
}

/**
 * Creates the direct paths' unary methods of a server, by request path (`/mcplite.MCPLite/CallTool`,
 * `/mcplite.MCPLite/GetTools`).
 *
 * @param core The server's registry and options.
 * @param opt The options Connect's handler is built with.
 * @param frame Encodes a `CallTool` answer as a whole gRPC frame, for a wire that sends it as it is
 *   (that method is then `framed`).
 * @returns The methods by path.
 */
export function createUnaryMethods(
  core: ServerCore,
  opt: HandlerOptions,
  frame?: (response: ToolResponseInit) => Uint8Array,
): Map<string, UnaryMethod> {
  const registry = registryOf(core);
  const callTool = createCallTool(core);
  const getTools = MCPLite.method.getTools;
  const memoKeys = ["grpc:tools:json", "grpc:tools:proto"];
  const binaryAnswer = frame ?? toolResponseBinary;
  return new Map([
    [
      createMethodUrl("/", getTools),
      unaryMethod(getTools, opt, (_input, call, binary, host, encode) =>
        // The answer only changes with the tool table (and the caller's scope set, when tools have
        // scopes): serialised once per change, format and scope set.
        listToolsFor(registry, call, host, (auth) => {
          const key = memoKeys[binary ? 1 : 0] + scoping.key(scoping.ofTools(registry), auth);
          return registry.cached(ENCODED_LIST, key, () => encode(toolsList(registry, auth), binary));
        })),
    ],
    [
      createMethodUrl("/", MCPLite.method.callTool),
      unaryMethod(MCPLite.method.callTool, opt, (input, call, binary, host) => {
        // The call reads the request's headers and signal only if the handler asks for them; a
        // synchronous tool's response is encoded at once.
        const encode: (response: ToolResponseInit) => UnaryAnswer = binary ? binaryAnswer : toolResponseJson;
        const response = callTool(input, call, host);
        return response instanceof Promise ? response.then(encode) : encode(response);
      }, frame !== undefined),
    ],
  ]);
}

/** A method's work: the answer for a parsed request. */
type Run<I extends DescMessage, O extends DescMessage> = (
  input: MessageShape<I>,
  call: UnaryCall,
  binary: boolean,
  host: Host,
  encode: (message: MessageShape<O>, binary: boolean) => Uint8Array,
) => UnaryAnswer | Promise<UnaryAnswer>;

function unaryMethod<I extends DescMessage, O extends DescMessage>(
  method: DescMethodUnary<I, O>,
  opt: HandlerOptions,
  run: Run<I, O>,
  framed = false,
): UnaryMethod {
  const serialization = createMethodSerializationLookup(method, opt.binaryOptions, opt.jsonOptions, opt);
  const encode = (message: MessageShape<O>, binary: boolean) => serialization.getO(binary).serialize(message);
  return {
    framed,
    invoke(bytes, call, binary, host, authenticate) {
      let input: MessageShape<I>;
      try {
        input = serialization.getI(binary).parse(bytes);
      } catch (error) {
        throw malformed(error);
      }
      if (authenticate === undefined) return call.until(run(input, call, binary, host, encode));
      return (call.until(authenticate(call.url, call.headers)) as Promise<AuthenticatedCall>).then(
        ({ caller, stepUp }) => {
          const refused = (error: unknown): never => {
            throw stepUp(error);
          };
          try {
            const answer = call.until(run(input, call, binary, withCaller(host, caller), encode));
            return answer instanceof Promise ? answer.catch(refused) : answer;
          } catch (error) {
            return refused(error);
          }
        },
      );
    },
  };
}

/**
 * A request message that does not decode is the caller's error: `INVALID_ARGUMENT` (gRPC status codes:
 * "the client specified an invalid argument"), as connect-go answers it, where Connect-ES says
 * `INTERNAL` for binary messages (JSON ones are `INVALID_ARGUMENT` already).
 */
function malformed(error: unknown): unknown {
  if (!(error instanceof ConnectError) || error.code !== Code.Internal) return error;
  return new ConnectError(error.rawMessage, Code.InvalidArgument, undefined, undefined, error);
}
