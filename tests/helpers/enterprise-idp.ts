/**
 * An enterprise IdP for tests, mounted under `/idp` of any 127.0.0.1 listener: it signs users' ID tokens (its single
 * sign-on, done), and its token endpoint does the token exchange (RFC 8693) of an ID token for an ID-JAG (SEP-990:
 * `typ` `oauth-id-jag+jwt`, `aud` the authorization server asked for, `resource`, `client_id` the client there,
 * `scope`, `jti`), checking the ID token with jose. Its keys are published at `/idp/jwks` and named by its RFC 8414
 * metadata, so an authorization server can trust it by its issuer alone.
 */
import { exportJWK, generateKeyPair, jwtVerify, SignJWT } from "jose";

/** The client at the IdP. */
export const IDP_CLIENT_ID = "mcp-desktop-at-idp";

const TOKEN_EXCHANGE = "urn:ietf:params:oauth:grant-type:token-exchange";
const ID_JAG = "urn:ietf:params:oauth:token-type:id-jag";

/** The IdP, once its listener's origin is known. */
export interface EnterpriseIdp {
  /** Its issuer: `<origin>/idp`. */
  readonly issuer: string;
  /** Its token endpoint. */
  readonly tokenEndpoint: string;
  /** Where it publishes its keys. */
  readonly jwksUri: string;
  /** The key its ID tokens and ID-JAGs verify with. */
  readonly publicKey: CryptoKey;
  /** Signs an ID token for a user, as its single sign-on would (audience: the client at the IdP). */
  idToken(user: string): Promise<string>;
  /** Signs an ID-JAG as its token endpoint would, with claims over the usual ones (a test's refused shapes). */
  idJag(claims: Record<string, unknown>, header?: Record<string, unknown>): Promise<string>;
  /** Answers its token endpoint, its keys and its metadata; `undefined` for any other path. */
  fetch(request: Request): Promise<Response> | undefined;
}

/**
 * Makes the IdP.
 *
 * @param origin The origin of the listener it is mounted on (read at each request: the listener starts after).
 * @param asClientId The client's id at the authorization server, put in each ID-JAG's `client_id`.
 */
export async function enterpriseIdp(origin: () => string, asClientId: string): Promise<EnterpriseIdp> {
  const keys = await generateKeyPair("ES256");
  const jwk = { ...(await exportJWK(keys.publicKey)), kid: "idp-1", alg: "ES256", use: "sig" };
  const issuer = () => `${origin()}/idp`;
  const error = (code: string) => Response.json({ error: code }, { status: 400 });
  const idJag = (claims: Record<string, unknown>, header: Record<string, unknown> = {}) =>
    new SignJWT({ client_id: asClientId, ...claims })
      .setProtectedHeader({ alg: "ES256", typ: "oauth-id-jag+jwt", kid: "idp-1", ...header })
      .setIssuer(issuer()).setIssuedAt().setExpirationTime("5m").setJti(crypto.randomUUID())
      .sign(keys.privateKey);

  async function token(body: URLSearchParams): Promise<Response> {
    if (body.get("grant_type") !== TOKEN_EXCHANGE || body.get("requested_token_type") !== ID_JAG) {
      return error("unsupported_grant_type");
    }
    if (body.get("subject_token_type") !== "urn:ietf:params:oauth:token-type:id_token") return error("invalid_request");
    let sub: unknown;
    try {
      sub = (await jwtVerify(body.get("subject_token") ?? "", keys.publicKey, { audience: IDP_CLIENT_ID })).payload.sub;
    } catch {
      return error("invalid_grant");
    }
    const jag = await idJag({
      sub,
      aud: body.get("audience") ?? "",
      resource: body.get("resource"),
      ...(body.has("scope") ? { scope: body.get("scope") } : {}),
    });
    return Response.json({ access_token: jag, issued_token_type: ID_JAG, token_type: "N_A", expires_in: 300 });
  }

  return {
    get issuer() {
      return issuer();
    },
    get tokenEndpoint() {
      return `${issuer()}/token`;
    },
    get jwksUri() {
      return `${issuer()}/jwks`;
    },
    publicKey: keys.publicKey,
    idToken: (user) =>
      new SignJWT({ email: `${user}@example.com` }).setProtectedHeader({ alg: "ES256", kid: "idp-1" })
        .setIssuer(issuer()).setSubject(user).setAudience(IDP_CLIENT_ID).setIssuedAt().setExpirationTime("1h")
        .sign(keys.privateKey),
    idJag,
    fetch(request) {
      const { pathname } = new URL(request.url);
      if (request.method === "POST" && pathname === "/idp/token") {
        return request.text().then((text) => token(new URLSearchParams(text)));
      }
      if (pathname === "/idp/jwks") return Promise.resolve(Response.json({ keys: [jwk] }));
      if (pathname === "/.well-known/oauth-authorization-server/idp") {
        return Promise.resolve(Response.json({
          issuer: issuer(),
          token_endpoint: `${issuer()}/token`,
          jwks_uri: `${issuer()}/jwks`,
          grant_types_supported: [TOKEN_EXCHANGE],
        }));
      }
      return undefined;
    },
  };
}
