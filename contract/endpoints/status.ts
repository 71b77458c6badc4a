/** SageMaker's endpoint statuses, as DescribeEndpoint reports them. */
export const endpointStatuses = [
  "OutOfService",
  "Creating",
  "Updating",
  "SystemUpdating",
  "RollingBack",
  "InService",
  "Deleting",
  "Failed",
  "UpdateRollbackFailed",
] as const;
export type EndpointStatus = (typeof endpointStatuses)[number];

/** Statuses during which the console polls, and refuses delete and scale (SageMaker would refuse them too). */
export const transitionalStatuses: readonly EndpointStatus[] = [
  "Creating",
  "Updating",
  "SystemUpdating",
  "RollingBack",
  "Deleting",
];

/** Statuses an endpoint does not serve from and will not leave by itself. */
export const failedStatuses: readonly EndpointStatus[] = ["Failed", "UpdateRollbackFailed", "OutOfService"];

/** Statuses after which an endpoint that is being waited for will never be InService again. */
export const neverInServiceAgain: readonly EndpointStatus[] = ["Failed", "UpdateRollbackFailed", "Deleting"];

export function isTransitional(status: EndpointStatus): boolean {
  return transitionalStatuses.includes(status);
}

export function isFailed(status: EndpointStatus): boolean {
  return failedStatuses.includes(status);
}
