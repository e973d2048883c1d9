/**
 * The token endpoint (RFC 6749 §3.2): a form-encoded POST, read within bounds, each parameter once, the
 * client authenticated, then the grant: the JWT-bearer grant (RFC 7523 §2.1) with an ID-JAG (SEP-990) or a
 * workload's JWT (SEP-1933), or client credentials (§4.4; a workload's JWT or the client's own as its
 * `client_assertion`). DPoP proofs bind the token (RFC 9449 §5); refusals are RFC 6749 §5.2's.
 *
 * @module
 */
import { decodeProtectedHeader } from "jose";
import { ProtocolError } from "../errors/error.ts";
import { readBody } from "../server/read-body.ts";
import { accessTokenResponse, type TokenGrant } from "./access-token.ts";
import { authenticateClient, type ClientIdentity, invalidClient } from "./client-auth.ts";
import type { RegisteredClient, ServerConfig } from "./server-config.ts";
import { ID_JAG_TYP, redeemIdJag, served } from "./id-jag.ts";
import { JWT_BEARER } from "./as-metadata.ts";
import { useOnce } from "./replay.ts";
import { grantedScopes, parseScope } from "./granted-scopes.ts";
import type { SigningKeys } from "./signing-keys.ts";
import type { TokenDpop } from "./token-dpop.ts";
import { TokenError, tokenErrorResponse } from "./oauth-error.ts";
import { unverifiedClaims } from "./verify-assertion.ts";
import { verifyWorkload } from "./workload.ts";

/** The largest token request read: assertions are a few KiB. */
const MAX_BODY_BYTES = 64 * 1024;
/** The longest a token request's body may take to arrive. */
const BODY_TIMEOUT_MS = 10_000;

/** What the token endpoint needs beside its configuration. */
export interface TokenEndpointParts {
  readonly config: ServerConfig;
  readonly dpop: TokenDpop;
  readonly keys: () => Promise<SigningKeys>;
}

/**
 * Answers a token request.
 *
 * @param request The request.
 * @param parts The configuration, the DPoP checks and the signing keys.
 * @returns The token response, or the error response.
 */
export async function tokenEndpoint(request: Request, parts: TokenEndpointParts): Promise<Response> {
  try {
    const form = await readForm(request);
    const grant = await grantOf(request, form, parts);
    return await accessTokenResponse(grant, await parts.keys(), parts.config.issuer, parts.config.accessTokenTtlSec);
  } catch (error) {
    if (error instanceof TokenError) return tokenErrorResponse(error);
    throw error;
  }
}

/** Reads the form: POST, `application/x-www-form-urlencoded`, bounded, every parameter once (§3.2). */
async function readForm(request: Request): Promise<URLSearchParams> {
  if (request.method !== "POST") {
    throw new TokenError("invalid_request", "the token endpoint takes POST", {
      status: 405,
      headers: { allow: "POST" },
    });
  }
  const type = request.headers.get("content-type")?.split(";")[0].trim().toLowerCase();
  if (type !== "application/x-www-form-urlencoded") {
    throw new TokenError("invalid_request", "send the parameters as application/x-www-form-urlencoded");
  }
  let text: string;
  try {
    text = await readBody(request, { maxBodyBytes: MAX_BODY_BYTES, bodyTimeoutMs: BODY_TIMEOUT_MS });
  } catch (error) {
    const code = error instanceof ProtocolError ? error.code : undefined;
    const status = code === "payload_too_large" ? 413 : code === "request_timeout" ? 408 : 400;
    throw new TokenError("invalid_request", "the request body is too large, too slow or not UTF-8", { status });
  }
  const form = new URLSearchParams(text);
  const seen = new Set<string>();
  for (const name of form.keys()) {
    if (seen.has(name)) {
      if (name === "resource") throw new TokenError("invalid_target", "ask for one resource per token request");
      throw new TokenError("invalid_request", `the parameter ${name} is sent more than once`);
    }
    seen.add(name);
  }
  return form;
}

/** Checks the request's grant and says what token it earns. */
async function grantOf(request: Request, form: URLSearchParams, parts: TokenEndpointParts): Promise<TokenGrant> {
  const { config } = parts;
  const grantType = form.get("grant_type");
  if (grantType === null) throw new TokenError("invalid_request", "grant_type is missing");
  if (grantType !== JWT_BEARER && grantType !== "client_credentials") {
    throw new TokenError("unsupported_grant_type", `this server takes ${JWT_BEARER} and client_credentials`);
  }
  const proof = await parts.dpop.proofOf(request);
  const identity = await authenticateClient(request, form, config);
  const requested = { resource: form.get("resource") ?? undefined, scope: form.get("scope") ?? undefined };
  let grant: TokenGrant;
  let once: Parameters<typeof useOnce>[1] | undefined;
  if (grantType === JWT_BEARER) {
    const assertion = form.get("assertion");
    if (assertion === null || assertion === "") throw new TokenError("invalid_request", "assertion is missing");
    if (assertionKind(assertion, config) === "id-jag") {
      const client = idJagClient(identity, config);
      const redeemed = await redeemIdJag(assertion, client, requested, config);
      // §8.6.2: an ID-JAG bound to a key is redeemed only with a proof by that key.
      if (redeemed.jkt !== undefined && redeemed.jkt !== proof?.jkt) {
        throw new TokenError("invalid_grant", "the ID-JAG is bound to a key: send a DPoP proof by that key");
      }
      grant = { subject: redeemed.subject, clientId: client.id, resource: redeemed.resource, scopes: redeemed.scopes };
      once = redeemed.once;
    } else {
      const named = identity.kind === "authenticated" ? identity.client.id : identity.clientId;
      const { client, subject } = await verifyWorkload(assertion, config, named);
      grant = { subject, clientId: client.id, ...resourceAndScopes(requested, config) };
    }
  } else {
    if (identity.kind !== "authenticated") {
      throw invalidClient("the client-credentials grant needs client authentication");
    }
    const { client, workloadSubject } = identity;
    const allowed = client.grants.has("client_credentials") ||
      (workloadSubject !== undefined && client.grants.has("workload"));
    if (!allowed) throw new TokenError("unauthorized_client", `the client ${client.id} may not use client_credentials`);
    grant = { subject: workloadSubject ?? client.id, clientId: client.id, ...resourceAndScopes(requested, config) };
  }
  if (proof !== undefined) await parts.dpop.use(proof);
  if (once !== undefined) await useOnce(config.store, once, config.toleranceSec);
  return proof === undefined ? grant : { ...grant, jkt: proof.jkt };
}

/**
 * What the JWT-bearer grant's assertion is (unverified: the rest is checked when it is verified): an ID-JAG
 * by its `typ` (draft-ietf-oauth-identity-assertion-authz-grant §3.1; explicit typing, RFC 8725 §3.11),
 * else a workload's JWT. One from an issuer trusted for ID-JAGs and not for workloads is an ID-JAG with
 * another `typ`, refused as one.
 */
function assertionKind(assertion: string, config: ServerConfig): "id-jag" | "workload" {
  let typ: string | undefined;
  try {
    typ = decodeProtectedHeader(assertion).typ?.toLowerCase();
  } catch {
    throw new TokenError("invalid_grant", "the assertion is not a JWT");
  }
  if (typ === ID_JAG_TYP || typ === `application/${ID_JAG_TYP}`) return "id-jag";
  const { iss } = unverifiedClaims(assertion, "the assertion");
  const accepts = typeof iss === "string" ? config.issuers.get(iss)?.accepts : undefined;
  if (accepts?.has("id-jag") && !accepts.has("workload")) {
    throw new TokenError("invalid_grant", `the ID-JAG's typ is not ${ID_JAG_TYP}`);
  }
  return "workload";
}

/** The client redeeming an ID-JAG: authenticated, and allowed the profile (confidential clients only, §8.1). */
function idJagClient(identity: ClientIdentity, config: ServerConfig): RegisteredClient {
  if (identity.kind === "authenticated") {
    if (!identity.client.grants.has("id-jag")) {
      throw new TokenError("unauthorized_client", `the client ${identity.client.id} may not redeem ID-JAGs`);
    }
    return identity.client;
  }
  const named = identity.clientId === undefined ? undefined : config.clients.get(identity.clientId);
  if (named !== undefined && named.method === "none") {
    throw new TokenError("unauthorized_client", "ID-JAGs are redeemed by confidential clients only");
  }
  throw invalidClient("redeeming an ID-JAG needs client authentication");
}

/** The resource (the request's, or the only one served) and the scopes (the request's, all offered by it). */
function resourceAndScopes(
  requested: { readonly resource: string | undefined; readonly scope: string | undefined },
  config: ServerConfig,
): { resource: string; scopes: string[] } {
  let resource: string | undefined;
  if (requested.resource !== undefined) {
    resource = served(requested.resource, config);
    if (resource === undefined) {
      throw new TokenError("invalid_target", `this server issues no tokens for ${requested.resource}`);
    }
  } else if (config.resources.size === 1) {
    [resource] = config.resources.keys();
  } else {
    throw new TokenError("invalid_target", "this server serves several resources: send resource");
  }
  const scopes = grantedScopes(parseScope(requested.scope), undefined, config.resources.get(resource!)!, resource!);
  return { resource: resource!, scopes };
}
