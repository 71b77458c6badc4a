import { readdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { Route } from "./route.ts";

const ROUTE_FILE = /\.route\.(ts|js)$/;

/** Imports every `*.route.ts` (or built `*.route.js`) file under routes/, in file-name order. */
export async function loadRoutes(directory = path.join(path.dirname(fileURLToPath(import.meta.url)), "routes")) {
  const routes: Route[] = [];
  const files = readdirSync(directory)
    .filter((name) => ROUTE_FILE.test(name) && !name.endsWith(".d.ts"))
    .sort();
  for (const file of files) {
    const module = (await import(pathToFileURL(path.join(directory, file)).href)) as { default: Route | Route[] };
    routes.push(...(Array.isArray(module.default) ? module.default : [module.default]));
  }
  return routes;
}
