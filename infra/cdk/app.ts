import { App } from "aws-cdk-lib";
import { DecisionConsoleStack } from "./decision-console-stack.ts";

// Synthesises offline (no AWS call): `npm run synth` writes cdk.out/; `cdk deploy` runs this same file.
const app = new App({ outdir: process.env.CDK_OUTDIR ?? "cdk.out" });
new DecisionConsoleStack(app, app.node.tryGetContext("stackName") ?? "DecisionConsole", {
  sageMakerNamePrefix: app.node.tryGetContext("sageMakerNamePrefix"),
  repositoryName: app.node.tryGetContext("repositoryName"),
  description: "Decision Console: artifact bucket, adapter image repository, CodeBuild projects, least-privilege roles",
});
app.synth();
