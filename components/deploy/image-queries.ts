"use client";

import { useQuery } from "@tanstack/react-query";
import type { ImageList } from "@/contract/images/images.ts";
import { api } from "../api/console-client.ts";
import { queryKeys } from "../api/query-keys.ts";
import { shortDigest } from "../endpoints/endpoint-format.ts";

export function useImages() {
  return useQuery({
    queryKey: queryKeys.images,
    queryFn: async ({ signal }): Promise<ImageList> => {
      const answer = await api("images", { signal });
      // Without `tag` the route answers the list; one resolved image answers only a tag.
      if (!("images" in answer)) throw new Error("The console answered one image where the image list was asked for.");
      return answer;
    },
  });
}

/** How the forms list an image: repository, tags, short digest and the API it serves. */
export function imageOptionLabel(image: ImageList["images"][number]): string {
  const tags = image.tags.length > 0 ? ` (${image.tags.join(", ")})` : "";
  return `${image.repository}${tags} ${shortDigest(image.digest)} · ${image.apiMode}`;
}
