/** SageMaker's rule for endpoint, endpoint config and model names (its API reference: this pattern, at most 63). */
export const resourceNamePattern = /^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}$/;
export const MAX_RESOURCE_NAME_LENGTH = 63;

export const resourceNameRule =
  "must be a SageMaker endpoint name: 1-63 letters, digits and hyphens, starting and ending with a letter or digit";

export function isResourceName(name: string): boolean {
  return name.length <= MAX_RESOURCE_NAME_LENGTH && resourceNamePattern.test(name);
}
