import type { Metadata } from "next";
import { KeysView } from "@/components/gateway/keys-view.tsx";
import { PageHeader } from "@/components/ui/card.tsx";

export const metadata: Metadata = { title: "API keys · Decision Console" };

export default function KeysPage() {
  return (
    <>
      <PageHeader
        title="API keys"
        description="Keys for applications that call decisions through the console's gateway (/v1/systemone, /v1/decisions) with typesafe-sdk or openai: their endpoints, limits and usage. A key's secret is shown once, when it is created."
      />
      <KeysView />
    </>
  );
}
