import { Validations } from "aws-cdk-lib";
import { Secret } from "aws-cdk-lib/aws-secretsmanager";
import type { Construct } from "constructs";

/** CONSOLE_SESSION_SECRET: 64 random letters and digits (the console asks for at least 32 characters). */
export function createSessionSecret(scope: Construct): Secret {
  const secret = new Secret(scope, "SessionSecret", {
    description: "Signs the Decision Console's session cookies (CONSOLE_SESSION_SECRET)",
    generateSecretString: { passwordLength: 64, excludePunctuation: true },
  });
  Validations.of(secret).acknowledge({
    id: "AwsSolutions-SMG4",
    reason:
      "A new key signs everyone out, and tasks read it only when they start; rotate it by hand (infra/README.md) and start a new deployment",
  });
  return secret;
}
