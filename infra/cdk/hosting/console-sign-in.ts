import type { ISecret } from "aws-cdk-lib/aws-secretsmanager";

/**
 * What the console's OpenID Connect support reads (server/auth/oidc.ts): the issuer it discovers, its client, the
 * client's secret (passed as an ECS secret, never in the environment), and the claim that names a console role.
 */
export interface ConsoleSignIn {
  issuer: string;
  clientId: string;
  clientSecret: ISecret;
  roleClaim: string;
}

/** `cognito`: the stack creates a user pool; `issuer`: any OpenID Connect provider, given as parameters. */
export type SignInKind = "cognito" | "issuer";
