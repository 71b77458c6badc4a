import type { Metadata } from "next";
import { PlaygroundView } from "@/components/playground/playground-view.tsx";

export const metadata: Metadata = { title: "Playground · Decision Console" };

export default async function PlaygroundPage({
  searchParams,
}: {
  searchParams: Promise<Record<string, string | string[] | undefined>>;
}) {
  const { endpoint } = await searchParams;
  return <PlaygroundView initialEndpoint={typeof endpoint === "string" ? endpoint : undefined} />;
}
