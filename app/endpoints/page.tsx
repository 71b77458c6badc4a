import type { Metadata } from "next";
import { EndpointsView } from "@/components/endpoints/endpoints-view.tsx";

export const metadata: Metadata = { title: "Endpoints · Decision Console" };

export default function EndpointsPage() {
  return <EndpointsView />;
}
