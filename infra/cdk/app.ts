import { App } from "aws-cdk-lib";
import { DecisionConsoleStack } from "./decision-console-stack.ts";
import { DecisionConsoleHostingStack } from "./hosting/hosting-stack.ts";

// Synthesises offline (no AWS call): `npm run synth` writes cdk.out/; `cdk deploy` runs this same file.
const app = new App({ outdir: process.env.CDK_OUTDIR ?? "cdk.out" });
const context = (key: string): string | undefined => app.node.tryGetContext(key)?.toString();
const consoleStack = new DecisionConsoleStack(app, context("stackName") ?? "DecisionConsole", {
  sageMakerNamePrefix: context("sageMakerNamePrefix"),
  repositoryName: context("repositoryName"),
  description: "Decision Console: artifact bucket, adapter image repository, CodeBuild projects, least-privilege roles",
});
// -c hosting=true: the console itself, for a team (infra/README.md, "Hosting the console for a team").
if (context("hosting") === "true") {
  const signIn = context("signIn") ?? "cognito";
  if (signIn !== "cognito" && signIn !== "issuer") throw new Error(`signIn must be cognito or issuer, not ${signIn}`);
  new DecisionConsoleHostingStack(app, context("hostingStackName") ?? "DecisionConsoleHosting", {
    consoleStack,
    natGateways: Number(context("natGateways") ?? 1),
    signIn,
    description: "Decision Console for a team: Fargate behind HTTPS, OpenID Connect sign-in, PostgreSQL",
  });
}
app.synth();
