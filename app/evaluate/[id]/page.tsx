import type { Metadata } from "next";
import { EvaluationView } from "@/components/evaluate/evaluation-view.tsx";

export const metadata: Metadata = { title: "Evaluation · Decision Console" };

export default async function EvaluationPage({ params }: { params: Promise<{ id: string }> }) {
  const { id } = await params;
  return <EvaluationView id={id} />;
}
