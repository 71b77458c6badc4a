import type { Metadata } from "next";
import { DeployFormView } from "@/components/deploy/deploy-form.tsx";
import { PageHeader } from "@/components/ui/card.tsx";

export const metadata: Metadata = { title: "Deploy · Decision Console" };

function first(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export default async function DeployPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const params = await searchParams;
  return (
    <>
      <PageHeader
        title="Deploy an endpoint"
        description="Model, endpoint configuration and endpoint in one step. Images are deployed by digest only."
      />
      <DeployFormView
        prefill={{
          image: first(params.image),
          model: first(params.model),
          sha256: first(params.sha256),
          bytes: first(params.bytes),
          temperature: first(params.temperature),
          from: first(params.from),
          version: first(params.version),
        }}
      />
    </>
  );
}
