import { Aws, CfnOutput, CfnParameter, Duration, RemovalPolicy, SecretValue, Validations } from "aws-cdk-lib";
import {
  AccountRecovery,
  type CfnUserPoolClient,
  FeaturePlan,
  Mfa,
  OAuthScope,
  StandardThreatProtectionMode,
  UserPool,
  UserPoolClientIdentityProvider,
} from "aws-cdk-lib/aws-cognito";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";
import { consoleApi } from "../../../contract/api.ts";
import type { Role } from "../../../contract/auth/session.ts";
import { requireCognitoRegion } from "./cognito-regions.ts";
import type { ConsoleSignIn } from "./console-sign-in.ts";

/** The console grants the role a group is named after (CONSOLE_OIDC_ROLE_CLAIM `cognito:groups`). */
const ROLE_GROUPS: Record<Role, { precedence: number; description: string }> = {
  operator: { precedence: 0, description: "Console operators: build, deploy, scale and delete, and what viewers do" },
  viewer: { precedence: 1, description: "Console viewers: endpoints, the playground and evaluations" },
};

/**
 * A user pool for the console's team: no self sign-up (an administrator invites each person), sign-in by e-mail,
 * a 14-character password of every character class, and an authenticator app (TOTP) required of everyone: the
 * console can deploy and delete SageMaker endpoints, and TOTP costs nothing where SMS would. The Plus feature plan
 * turns on threat protection (compromised credentials, risky sign-ins), billed per monthly active user.
 */
export function createCognitoSignIn(scope: Construct, consoleOrigin: string): ConsoleSignIn {
  requireCognitoRegion(scope);
  const domainPrefix = new CfnParameter(scope, "CognitoDomainPrefix", {
    type: "String",
    allowedPattern: "^[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?$",
    constraintDescription: "lower-case letters, digits and hyphens, without aws, amazon or cognito in it",
    description: "The sign-in page's address: https://<prefix>.auth.<region>.amazoncognito.com (unique per Region)",
  });
  const userPool = new UserPool(scope, "Users", {
    selfSignUpEnabled: false,
    signInAliases: { email: true },
    autoVerify: { email: true },
    standardAttributes: { email: { required: true, mutable: true } },
    mfa: Mfa.REQUIRED,
    mfaSecondFactor: { otp: true, sms: false },
    passwordPolicy: {
      minLength: 14,
      requireLowercase: true,
      requireUppercase: true,
      requireDigits: true,
      requireSymbols: true,
      tempPasswordValidity: Duration.days(3),
    },
    accountRecovery: AccountRecovery.EMAIL_ONLY,
    featurePlan: FeaturePlan.PLUS,
    standardThreatProtectionMode: StandardThreatProtectionMode.FULL_FUNCTION,
    deletionProtection: true,
    removalPolicy: RemovalPolicy.RETAIN,
  });
  for (const [role, group] of Object.entries(ROLE_GROUPS)) {
    userPool.addGroup(`${role}Group`, { groupName: role, ...group });
  }
  const domain = userPool.addDomain("SignInDomain", { cognitoDomain: { domainPrefix: domainPrefix.valueAsString } });
  const client = userPool.addClient("Console", {
    generateSecret: true,
    oAuth: {
      flows: { authorizationCodeGrant: true },
      scopes: [OAuthScope.OPENID, OAuthScope.EMAIL, OAuthScope.PROFILE],
      callbackUrls: [`${consoleOrigin}${consoleApi.oidcCallback.path}`],
      logoutUrls: [`${consoleOrigin}/`],
    },
    supportedIdentityProviders: [UserPoolClientIdentityProvider.COGNITO],
    preventUserExistenceErrors: true,
    enableTokenRevocation: true,
  });
  const clientSecret = new Secret(scope, "OidcClientSecret", {
    description: "The console's Cognito app client secret (CONSOLE_OIDC_CLIENT_SECRET)",
    secretStringValue: SecretValue.resourceAttribute((client.node.defaultChild as CfnUserPoolClient).attrClientSecret),
  });

  Validations.of(clientSecret).acknowledge({
    id: "AwsSolutions-SMG4",
    reason:
      "The value is Cognito's own secret of the app client; a new one comes from Cognito (a new app client), not from a rotation function",
  });
  new CfnOutput(scope, "UserPoolId", { value: userPool.userPoolId, description: "Invite the team here" });
  new CfnOutput(scope, "SignInUrl", { value: domain.baseUrl(), description: "Cognito's sign-in pages" });
  return {
    issuer: `https://cognito-idp.${Aws.REGION}.${Aws.URL_SUFFIX}/${userPool.userPoolId}`,
    clientId: client.userPoolClientId,
    clientSecret,
    roleClaim: "cognito:groups",
  };
}
