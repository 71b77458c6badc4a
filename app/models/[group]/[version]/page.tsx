import { notFound } from "next/navigation";
import { ModelVersionView } from "@/components/models/model-version-view.tsx";

export default async function ModelVersionPage({ params }: { params: Promise<{ group: string; version: string }> }) {
  const { group, version } = await params;
  if (!/^[1-9]\d{0,8}$/.test(version)) notFound();
  return <ModelVersionView group={decodeURIComponent(group)} version={Number(version)} />;
}
