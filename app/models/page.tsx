import type { Metadata } from "next";
import { ModelsView } from "@/components/models/models-view.tsx";

export const metadata: Metadata = { title: "Models · Decision Console" };

export default function ModelsPage() {
  return <ModelsView />;
}
