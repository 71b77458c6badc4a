import { BuildDetailView } from "@/components/builds/build-detail-view.tsx";

/** Next.js hands pages their path segment still percent-encoded (`project%3Aid`); route handlers get it decoded. */
export default async function BuildPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  // The proxy has already refused paths that are not valid percent-encoding.
  return <BuildDetailView id={decodeURIComponent(id)} />;
}
