/**
 * Grants on a JWT instead of a user at a browser: the JWT-bearer grant (RFC 7523 §2.1) with a
 * workload's platform-issued JWT (workload identity federation, SEP-1933) or with an ID-JAG obtained
 * by token exchange (RFC 8693) of the user's identity assertion at the enterprise IdP
 * (enterprise-managed authorization, SEP-990).
 *
 * @module
 */
import * as o4w from "oauth4webapi";
import { authorizationError } from "../errors.ts";
import { env } from "../../runtime/env.ts";
import {
  clientAuthFor,
  clientCredentialsRequest,
  type GrantContext,
  grantParameters,
  type GrantResult,
  tokenOptions,
  tokenRequest,
  toOauthClient,
} from "./grants.ts";
import type { EnterpriseAuthOptions, WorkloadIdentityOptions } from "./oauth-options.ts";
import type { StoredClient } from "./token-store.ts";

/** RFC 7523 §2.1. */
export const JWT_BEARER = "urn:ietf:params:oauth:grant-type:jwt-bearer";
/** RFC 7523 §2.2. */
const CLIENT_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer";
/** RFC 8693 §2.1. */
const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
/** RFC 8693 §3. */
const ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token";
/** The Identity Assertion JWT Authorization Grant's token type (SEP-990). */
const ID_JAG_TYPE = "urn:ietf:params:oauth:token-type:id-jag";

/**
 * The JWT-bearer grant (RFC 7523 §2.1): `assertion` is the JWT, with the scope and the resource
 * (RFC 8707). A refusal (`invalid_grant`, `invalid_scope`, `unauthorized_client`) is thrown, not retried.
 *
 * @param assertion The JWT.
 * @param client The client and how it authenticates.
 * @param auth The client authentication.
 * @param ctx The grant's context.
 * @returns The tokens.
 */
async function jwtBearerGrant(
  assertion: string,
  client: StoredClient,
  auth: o4w.ClientAuth,
  ctx: GrantContext,
): Promise<GrantResult> {
  const parameters = { ...grantParameters(ctx), assertion };
  const oc = toOauthClient(client);
  const tokens = await tokenRequest(() =>
    o4w.genericTokenEndpointRequest(ctx.as, oc, auth, JWT_BEARER, parameters, tokenOptions(ctx))
      .then((response) => o4w.processGenericTokenEndpointResponse(ctx.as, oc, response))
  );
  return { client, tokens };
}

/**
 * Workload identity federation (SEP-1933): the platform's JWT as the JWT-bearer grant's assertion, or
 * as the `client_assertion` of a client-credentials grant (RFC 7523 §2.2).
 *
 * @param options The client id and the token source.
 * @param ctx The grant's context.
 * @returns The tokens.
 */
export async function workloadGrant(options: WorkloadIdentityOptions, ctx: GrantContext): Promise<GrantResult> {
  const jwt = await readWorkloadToken(options.token);
  const client: StoredClient = { clientId: options.clientId };
  if (options.use !== "client_assertion") return await jwtBearerGrant(jwt, client, o4w.None(), ctx);
  const auth: o4w.ClientAuth = (_as, oc, body) => {
    body.set("client_id", oc.client_id);
    body.set("client_assertion_type", CLIENT_ASSERTION_TYPE);
    body.set("client_assertion", jwt);
  };
  return await clientCredentialsRequest(client, auth, ctx);
}

/**
 * Enterprise-managed authorization (SEP-990): the user's ID token is exchanged at the IdP for an
 * ID-JAG whose audience is the MCP server's authorization server and whose resource is the MCP server
 * (RFC 8693 §2.1), then the ID-JAG is the JWT-bearer grant's assertion there.
 *
 * @param options The IdP, the ID token, the client at the authorization server.
 * @param ctx The grant's context.
 * @returns The tokens.
 */
export async function enterpriseGrant(options: EnterpriseAuthOptions, ctx: GrantContext): Promise<GrantResult> {
  const { idp } = options;
  const endpoint = new URL(idp.tokenEndpoint);
  const idpAs: o4w.AuthorizationServer = { issuer: endpoint.origin, token_endpoint: endpoint.href };
  const idpClient = toOauthClient({ clientId: idp.clientId });
  const idToken = typeof options.idToken === "function" ? await options.idToken() : options.idToken;
  const parameters: Record<string, string> = {
    requested_token_type: ID_JAG_TYPE,
    audience: ctx.as.issuer,
    subject_token: idToken,
    subject_token_type: ID_TOKEN_TYPE,
    ...grantParameters(ctx),
  };
  const idpAuth = clientAuthFor({ clientId: idp.clientId, clientSecret: idp.clientSecret }, idpAs);
  const exchanged = await tokenRequest(() =>
    o4w.genericTokenEndpointRequest(
      idpAs,
      idpClient,
      idpAuth,
      TOKEN_EXCHANGE,
      parameters,
      tokenOptions({
        as: idpAs,
        http: ctx.http,
      }),
    ).then((response) =>
      // The ID-JAG is no access token: its token_type is "N_A" (RFC 8693 §2.2.1).
      o4w.processGenericTokenEndpointResponse(idpAs, idpClient, response, {
        recognizedTokenTypes: { n_a: () => {} },
      })
    )
  );
  if (exchanged.issued_token_type !== ID_JAG_TYPE) {
    throw authorizationError(`The IdP issued a ${String(exchanged.issued_token_type)}, not an ID-JAG (${ID_JAG_TYPE})`);
  }
  const client: StoredClient = { clientId: options.clientId, clientSecret: options.clientSecret };
  return await jwtBearerGrant(exchanged.access_token, client, clientAuthFor(client, ctx.as), ctx);
}

/**
 * Reads the workload's JWT from its source, afresh on each grant (platforms rotate them).
 *
 * @param source The callback, environment variable or file.
 * @returns The JWT, trimmed.
 */
async function readWorkloadToken(source: WorkloadIdentityOptions["token"]): Promise<string> {
  let jwt: string | undefined;
  if (typeof source === "function") {
    jwt = await source();
  } else if ("env" in source) {
    jwt = env(source.env);
    if (jwt === undefined) throw authorizationError(`The workload token variable ${source.env} is not set`);
  } else {
    const fs = await import("node:fs/promises");
    jwt = await fs.readFile(source.file, "utf8").catch((error) => {
      throw authorizationError(`The workload token file ${source.file} cannot be read`, { cause: error });
    });
  }
  return jwt.trim();
}
