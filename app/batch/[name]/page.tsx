import { JobDetailView } from "@/components/batch/job-detail-view.tsx";

/** Next.js hands pages their path segment still percent-encoded; job names need none, but decode as the others do. */
export default async function BatchJobPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <JobDetailView name={decodeURIComponent(name)} />;
}
