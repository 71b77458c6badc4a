import { EndpointDetailView } from "@/components/endpoints/endpoint-detail-view.tsx";

export default async function EndpointPage({
  params,
  searchParams,
}: {
  params: Promise<{ name: string }>;
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { name } = await params;
  const { temperature } = await searchParams;
  // `?temperature=T` (the evaluate page's "update this endpoint with T") opens the update form with T.
  const updateTemperature = Array.isArray(temperature) ? temperature[0] : temperature;
  return <EndpointDetailView name={name} updateTemperature={updateTemperature} />;
}
