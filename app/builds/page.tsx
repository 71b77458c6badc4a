import type { Metadata } from "next";
import { BuildsView } from "@/components/builds/builds-view.tsx";

export const metadata: Metadata = { title: "Builds · Decision Console" };

export default function BuildsPage() {
  return <BuildsView />;
}
