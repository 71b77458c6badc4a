"use client";

import { useEffect, useState } from "react";
import type { startJobProblems } from "./start-job-problems.ts";

type StartJobCheck = typeof startJobProblems;

/**
 * The start form's check, loaded after the page: it needs the request schema, and so zod, which the batch page does
 * not bring in its first load. Null until it has loaded (or if it could not be): the server checks the same schema.
 */
export function useStartJobCheck(): StartJobCheck | null {
  const [check, setCheck] = useState<StartJobCheck | null>(null);
  useEffect(() => {
    let live = true;
    import("./start-job-problems.ts").then(
      (module) => {
        if (live) setCheck(() => module.startJobProblems);
      },
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, []);
  return check;
}
