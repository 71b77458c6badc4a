import { CfnParameter } from "aws-cdk-lib";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import type { ConsoleSignIn } from "./console-sign-in.ts";

/**
 * Any OpenID Connect provider the team already has (Entra ID, Okta, Google Workspace, another Cognito pool): its
 * client is registered there with the console's callback, and its secret stored in Secrets Manager beforehand.
 */
export function issuerSignIn(scope: Construct): ConsoleSignIn {
  const parameter = (id: string, props: ConstructorParameters<typeof CfnParameter>[2]) =>
    new CfnParameter(scope, id, { type: "String", ...props }).valueAsString;
  const secretArn = parameter("OidcClientSecretArn", {
    allowedPattern: "^arn:aws[a-z-]*:secretsmanager:[a-z0-9-]+:[0-9]{12}:secret:.+-[A-Za-z0-9]{6}$",
    constraintDescription: "the complete ARN of a Secrets Manager secret (ending in its six-character suffix)",
    description: "A secret whose value is the client secret (plain text, not JSON)",
    // Not a secret itself, but its name says so and CloudFormation's validator asks for NoEcho on such names.
    noEcho: true,
  });
  return {
    issuer: parameter("OidcIssuer", {
      allowedPattern: "^https://[^\\s]+$",
      constraintDescription: "an https URL",
      description: "The provider's issuer URL (its /.well-known/openid-configuration is read at sign-in)",
    }),
    clientId: parameter("OidcClientId", { minLength: 1, description: "The console's client id at the provider" }),
    clientSecret: Secret.fromSecretCompleteArn(scope, "OidcClientSecret", secretArn),
    roleClaim: parameter("OidcRoleClaim", {
      default: "groups",
      minLength: 1,
      description: "The ID token claim whose value holds operator or viewer",
    }),
  };
}
