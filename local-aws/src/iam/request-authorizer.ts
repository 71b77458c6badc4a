import type { LocalPrincipal } from "../local-credentials.ts";
import { accessDenied, type Denial, type LocalAuthorizer } from "./authorize.ts";
import type { AuthorizationQuery } from "./evaluate.ts";
import type { RequestFacts } from "./requests/facts.ts";
import { jsonActionPrefix, jsonAuthorization } from "./requests/index.ts";
import { type S3Request, s3Authorization, s3MissingKeyAuthorization } from "./requests/s3.ts";
import { type RuntimeOperation, runtimeAuthorization } from "./requests/sagemaker.ts";

/**
 * The one entry point per wire protocol: JSON services (in handleJsonRpc, once the input is parsed), SageMaker
 * Runtime (in handleRuntime, once the endpoint name is known) and S3 (in handleS3, once bucket and key are
 * located). Each throws AWS's AccessDenied error for the protocol; `admin` is never restricted.
 */
export class RequestAuthorizer {
  constructor(
    private readonly authorizer: LocalAuthorizer,
    private readonly factsFor: (region: string) => RequestFacts,
    /** Told of every denial before it is answered (the control plane logs them). */
    private readonly denied: (denial: Denial) => void = () => undefined,
  ) {}

  get executionRoleArn(): string {
    return this.authorizer.executionRoleArn;
  }

  json(principal: LocalPrincipal, target: string, operation: string, input: Record<string, unknown>, region: string) {
    const rules = jsonAuthorization[target];
    const mapping = rules && Object.hasOwn(rules, operation) ? rules[operation] : undefined;
    // Fail closed: an operation served without an authorisation rule is a bug, never an open door.
    if (!mapping) throw new Error(`No IAM authorisation rule for ${target}.${operation}`);
    this.authorizer.authorize(principal, region, mapping(input, this.factsFor(region)), "json", this.denied);
  }

  /**
   * The queries the principal may not perform, each told to `denied`; none for `admin`. For a service that checks a
   * caller's permissions on another service before it acts (Application Auto Scaling's permission validation).
   */
  missingPermissions(principal: LocalPrincipal, region: string, queries: readonly AuthorizationQuery[]): Denial[] {
    const missing = queries.flatMap((query) => this.authorizer.check(principal, region, [query]) ?? []);
    for (const denial of missing) this.denied(denial);
    return missing;
  }

  facts(region: string): RequestFacts {
    return this.factsFor(region);
  }

  /**
   * An operation of a served service that local mode does not serve: AccessDenied, as AWS would answer it, unless
   * the principal's policies may allow the action (then the caller learns it is not served).
   */
  unserved(principal: LocalPrincipal, target: string, operation: string, region: string) {
    const prefix = jsonActionPrefix[target];
    if (!prefix) throw new Error(`No IAM service prefix for ${target}`);
    const denial = this.authorizer.checkAction(principal, region, `${prefix}:${operation}`);
    if (!denial) return;
    this.denied(denial);
    throw accessDenied(denial, "json");
  }

  runtime(
    principal: LocalPrincipal,
    region: string,
    operation: RuntimeOperation,
    endpointName: string,
    targetModel: string | undefined,
  ) {
    const queries = runtimeAuthorization(operation, endpointName, targetModel, this.factsFor(region));
    this.authorizer.authorize(principal, region, queries, "rest-json", this.denied);
  }

  /** Whether the stack's execution role may pull the repository's images (undefined: a role of no known policy). */
  executionRoleMayPull(roleArn: string, repositoryArn: string): boolean | undefined {
    return this.authorizer.executionRoleAllows(roleArn, {
      action: "ecr:BatchGetImage",
      resource: repositoryArn,
      context: {},
    });
  }

  /** An S3 request SageMaker makes with a model's execution role; the denial (logged) or `unknown`, else undefined. */
  executionRoleS3(roleArn: string, session: string, region: string, request: S3Request) {
    const denial = this.authorizer.checkExecutionRole(roleArn, session, region, s3Authorization(request));
    if (denial && denial !== "unknown") this.denied(denial);
    return denial;
  }

  s3(principal: LocalPrincipal, region: string, request: S3Request) {
    this.authorizer.authorize(principal, region, s3Authorization(request), "s3", this.denied);
  }

  /** Before S3 answers that a key does not exist: AccessDenied unless the principal may list it. */
  s3MissingKey(principal: LocalPrincipal, region: string, bucket: string, key: string) {
    this.authorizer.authorize(principal, region, s3MissingKeyAuthorization(bucket, key), "s3", this.denied);
  }
}
