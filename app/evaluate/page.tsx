import type { Metadata } from "next";
import { EvaluateHome } from "@/components/evaluate/evaluate-home.tsx";

export const metadata: Metadata = { title: "Evaluate · Decision Console" };

export default function EvaluatePage() {
  return <EvaluateHome />;
}
