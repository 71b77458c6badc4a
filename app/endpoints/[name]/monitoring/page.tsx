import { MonitoringView } from "@/components/monitoring/monitoring-view.tsx";

export default async function EndpointMonitoringPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <MonitoringView name={name} />;
}
