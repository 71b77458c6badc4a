"use client";

import { useQuery } from "@tanstack/react-query";
import type { ImageList } from "@/contract/images/images.ts";
import { fetchJson } from "../api/fetch-json.ts";

export function useImages() {
  return useQuery({
    queryKey: ["images"],
    queryFn: ({ signal }) => fetchJson<ImageList>("/api/images", { signal }),
  });
}
