import type { LocalCredentials } from "../local-credentials.ts";
import { decodeUriComponent, type RequestAuth } from "./request.ts";
import {
  parseAuthorization,
  requireFreshSignature,
  SignatureError,
  type SignedMessage,
  verifySignature,
} from "./sigv4.ts";

export interface Authenticated extends RequestAuth {
  region: string;
}

/**
 * Authenticates a request as AWS does: a well-formed SigV4 Authorization header, a key this control plane issued,
 * a scope for the service being called in this control plane's region, a signing time within 15 minutes of `now`, and a signature that
 * `@smithy/signature-v4` recomputes to the same value with that key's secret.
 */
export async function authenticate(
  message: SignedMessage,
  query: URLSearchParams,
  /** The service the request is for; undefined accepts any scope (the control plane's own health check). */
  signingName: string | undefined,
  /** The control plane's region, the only one a credential scope may name. */
  region: string,
  credentials: LocalCredentials,
  now: number,
): Promise<Authenticated> {
  const auth = parseAuthorization(message.headers, query);
  const issued = credentials.find(auth.accessKeyId);
  if (!issued) {
    throw new SignatureError("unknown-key", `The access key ${auth.accessKeyId} was not issued by this control plane.`);
  }
  if (signingName !== undefined && auth.service !== signingName) {
    throw new SignatureError(
      "wrong-service",
      `Credential should be scoped to correct service: '${signingName}', not '${auth.service}'.`,
    );
  }
  if (auth.region !== region) {
    throw new SignatureError("wrong-region", `Credential should be scoped to a valid region, not '${auth.region}'.`, {
      Region: region,
      CredentialRegion: auth.region,
    });
  }
  requireFreshSignature(auth, now);
  const sign = await verifySignature(message, auth, issued.key, decodeUriComponent);
  return {
    principal: issued.principal,
    accessKeyId: auth.accessKeyId,
    signature: auth.signature,
    amzDate: auth.amzDate,
    scope: auth.scope,
    sign,
    region: auth.region,
  };
}
