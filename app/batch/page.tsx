import type { Metadata } from "next";
import { BatchView } from "@/components/batch/batch-view.tsx";

export const metadata: Metadata = { title: "Batch jobs · Decision Console" };

export default function BatchPage() {
  return <BatchView />;
}
