"use client";

import Link from "next/link";
import { useRouter } from "next/navigation";
import { useCallback, useEffect, useState } from "react";
import { isTransitional } from "@/contract/endpoints/status.ts";
import type { DeployableImage } from "@/contract/images/images.ts";
import { ErrorAlert } from "../api/error-text.tsx";
import { useConsoleSettings } from "../api/settings-queries.ts";
import { useBuilds, useStartBuild } from "../builds/build-queries.ts";
import { useImages } from "../deploy/image-queries.ts";
import { Alert } from "../ui/alert.tsx";
import { Button, buttonClasses } from "../ui/button.tsx";
import { Card, PageHeader } from "../ui/card.tsx";
import { useDeploy, useEndpoints } from "./endpoint-queries.ts";
import { EndpointsTable } from "./endpoints-table.tsx";
import {
  adapterImage,
  FIRST_ENDPOINT_NAME,
  firstDeployRequest,
  SEEDED_MODEL,
  seededModelBuild,
} from "./first-deploy.ts";

export function EndpointsView() {
  const { data, error, isPending } = useEndpoints();
  const firstRunLimits = useConsoleSettings().data?.firstRunLimits ?? [];
  const changing = data?.endpoints.filter((endpoint) => isTransitional(endpoint.status)).length ?? 0;
  return (
    <>
      <PageHeader
        title="Endpoints"
        description={
          changing > 0
            ? `${changing} endpoint${changing === 1 ? " is" : "s are"} changing; this list refreshes every few seconds.`
            : "SageMaker endpoints serving decision and chat models."
        }
        actions={
          <Link href="/deploy" className={buttonClasses()}>
            Deploy an endpoint
          </Link>
        }
      />
      {firstRunLimits.length > 0 && (
        <div className="mb-4">
          <Alert tone="warning" title="This console started with limits">
            <ul className="ml-5 list-disc space-y-1">
              {firstRunLimits.map((limit) => (
                <li key={limit}>{limit}</li>
              ))}
            </ul>
          </Alert>
        </div>
      )}
      {error && <ErrorAlert title="Could not list endpoints" error={error} />}
      {isPending && <p className="text-sm text-slate-700">Loading endpoints…</p>}
      {data && data.endpoints.length === 0 && <EmptyState />}
      {data && data.endpoints.length > 0 && <EndpointsTable endpoints={data.endpoints} pricesAsOf={data.pricesAsOf} />}
    </>
  );
}

/**
 * One click for a newcomer: the seeded SmolLM2 deployed (the adapter image built first when there is none yet), then
 * the playground open on it.
 */
function FirstDeploy() {
  const builds = useBuilds();
  const images = useImages();
  const startBuild = useStartBuild();
  const deploy = useDeploy();
  const router = useRouter();
  const [imageBuildId, setImageBuildId] = useState<string | null>(null);
  const model = seededModelBuild(builds.data?.builds);
  const image = adapterImage(images.data?.images);
  const imageBuild = builds.data?.builds.find((build) => build.id === imageBuildId) ?? null;
  const go = useCallback(
    (ready: DeployableImage) => {
      if (!model) return;
      deploy.mutateAsync(firstDeployRequest(model, ready)).then(
        () => router.push(`/playground?endpoint=${encodeURIComponent(FIRST_ENDPOINT_NAME)}`),
        () => undefined,
      );
    },
    [model, deploy, router],
  );
  const refetchImages = images.refetch;
  const built = imageBuild?.status === "SUCCEEDED";
  useEffect(() => {
    if (built && !image) void refetchImages();
  }, [built, image, refetchImages]);
  useEffect(() => {
    if (built && image && deploy.isIdle) go(image);
  }, [built, image, deploy.isIdle, go]);
  if (!model) return null;
  const working = startBuild.isPending || (imageBuildId !== null && !deploy.isError) || deploy.isPending;
  return (
    <div className="mb-4 flex flex-col gap-2">
      <p className="text-sm text-slate-800">
        {SEEDED_MODEL} is packaged and ready: deploy it on a CPU instance and try decisions in the playground
        {image ? "." : " (the adapter image is built first)."}
      </p>
      <div>
        <Button
          disabled={working || deploy.isSuccess}
          onClick={() => {
            if (image) return go(image);
            startBuild.mutate({ kind: "image", variant: "cpu" }, { onSuccess: (build) => setImageBuildId(build.id) });
          }}
        >
          {imageBuild && !built
            ? `Building the adapter image (${imageBuild.currentPhase ?? imageBuild.status})…`
            : deploy.isPending
              ? "Deploying…"
              : `Deploy ${SEEDED_MODEL} and open the playground`}
        </Button>
      </div>
      {imageBuild && ["FAILED", "FAULT", "STOPPED", "TIMED_OUT"].includes(imageBuild.status) && (
        <Alert title="The adapter image was not built">
          Build {imageBuild.id} ended {imageBuild.status}: see its log on the Builds page.
        </Alert>
      )}
      {startBuild.error && <ErrorAlert title="The adapter image build did not start" error={startBuild.error} />}
      {deploy.error && <ErrorAlert title="The first endpoint was not deployed" error={deploy.error} />}
      <p className="text-sm text-slate-700">Or the long way, with your own model:</p>
    </div>
  );
}

function EmptyState() {
  return (
    <Card title="No endpoints yet">
      <FirstDeploy />
      <ol className="ml-5 list-decimal space-y-1 text-sm text-slate-800">
        <li>
          <Link href="/builds" className="text-blue-800 underline">
            Package a model
          </Link>{" "}
          (a pinned GGUF from a preset or your own repository) and build the adapter image.
        </li>
        <li>
          <Link href="/deploy" className="text-blue-800 underline">
            Deploy
          </Link>{" "}
          the image and the model on a CPU instance type or an ordered GPU instance pool.
        </li>
        <li>
          Try decisions in the{" "}
          <Link href="/playground" className="text-blue-800 underline">
            playground
          </Link>{" "}
          once the endpoint is InService.
        </li>
      </ol>
    </Card>
  );
}
