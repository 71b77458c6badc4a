import { ReviewQueueView } from "@/components/monitoring/review-queue.tsx";

export default async function EndpointReviewPage({ params }: { params: Promise<{ name: string }> }) {
  const { name } = await params;
  return <ReviewQueueView name={name} />;
}
