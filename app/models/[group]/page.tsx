import { ModelGroupView } from "@/components/models/model-group-view.tsx";

export default async function ModelGroupPage({ params }: { params: Promise<{ group: string }> }) {
  const { group } = await params;
  return <ModelGroupView group={decodeURIComponent(group)} />;
}
