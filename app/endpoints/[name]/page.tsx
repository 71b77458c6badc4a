import { EndpointDetailView } from "@/components/endpoints/endpoint-detail-view.tsx";

export default async function EndpointPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <EndpointDetailView name={name} />;
}
