export * from "./common.ts";
export * from "./decision.ts";
