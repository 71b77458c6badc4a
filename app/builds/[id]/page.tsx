import { BuildDetailView } from "@/components/builds/build-detail-view.tsx";

export default async function BuildPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <BuildDetailView id={id} />;
}
