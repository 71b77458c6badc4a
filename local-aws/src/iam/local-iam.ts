import type { Db } from "../database.ts";
import type { SageMakerStore } from "../sagemaker-store.ts";
import { scalableTargetFacts } from "../services/application-auto-scaling.ts";
import type { LocalStackFixture } from "../stack-fixture.ts";
import { DEFAULT_REGION, LOCAL_ACCOUNT_ID } from "../wire/request.ts";
import { type Denial, LocalAuthorizer } from "./authorize.ts";
import { RequestAuthorizer } from "./request-authorizer.ts";
import type { RequestFacts } from "./requests/facts.ts";
import { loadStackPolicies } from "./stack-policies.ts";

/** The stack's default prefix (infra/cdk/cdk.json), which local mode is "deployed" with unless told otherwise. */
export const DEFAULT_LOCAL_PREFIX = "dc-";

/** What an authorisation decision reads from the control plane's state: the stored resources' tags. */
export function localRequestFacts(sageMaker: SageMakerStore, db: Db): (region: string) => RequestFacts {
  return (region) => ({
    region,
    accountId: LOCAL_ACCOUNT_ID,
    sageMakerTags: (arn) => Object.fromEntries(sageMaker.tags(arn).map((tag) => [tag.Key, tag.Value])),
    scalableTarget: (namespace, resourceId, dimension) => scalableTargetFacts(db, namespace, resourceId, dimension),
  });
}

/** One JSON line on stderr per denial, so an operator sees which call of which principal the policy refused. */
function logDenial({ principalArn, query, decision }: Denial) {
  console.warn(
    JSON.stringify({
      level: "warn",
      msg: "local IAM denied",
      principal: principalArn,
      action: query.action,
      resource: query.resource,
      decision,
    }),
  );
}

/**
 * Local IAM as the control plane uses it: the stack's policies for the local account, the default region, the
 * console's prefix (CONSOLE_RESOURCE_PREFIX) and the local bucket, evaluated against the control plane's state.
 */
export function localIam(
  sageMaker: SageMakerStore,
  db: Db,
  fixture: Pick<LocalStackFixture, "stack" | "bucket">,
  namePrefix = DEFAULT_LOCAL_PREFIX,
): RequestAuthorizer {
  const policies = loadStackPolicies(fixture.stack, {
    accountId: LOCAL_ACCOUNT_ID,
    region: DEFAULT_REGION,
    namePrefix,
    bucketName: fixture.bucket,
  });
  return new RequestAuthorizer(
    new LocalAuthorizer(policies, LOCAL_ACCOUNT_ID),
    localRequestFacts(sageMaker, db),
    logDenial,
  );
}
