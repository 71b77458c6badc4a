import type { Served } from "../wire/served-members.ts";

const DOCKER_MANIFEST = "application/vnd.docker.distribution.manifest.v2+json";

/**
 * The members of each ECR operation the local control plane acts on; any other member of the service model is
 * refused with ECR's InvalidParameterException (wire/served-members.ts). Not served: filtering by image status
 * (local images are all active), and a BatchGetImage whose accepted media types leave out the Docker v2 manifest
 * local images are described with.
 */
export const ecrServedMembers: Record<string, Served> = {
  DescribeRepositories: "served",
  DescribeImages: {
    registryId: "served",
    repositoryName: "served",
    imageIds: "served",
    nextToken: "served",
    maxResults: "served",
    filter: { tagStatus: "served" },
  },
  ListImages: {
    registryId: "served",
    repositoryName: "served",
    nextToken: "served",
    maxResults: "served",
    filter: { tagStatus: "served" },
  },
  BatchGetImage: {
    registryId: "served",
    repositoryName: "served",
    imageIds: "served",
    acceptedMediaTypes: (value, path) =>
      Array.isArray(value) && value.includes(DOCKER_MANIFEST) ? null : `${path} without ${DOCKER_MANIFEST}`,
  },
};
