export * from "./chat.ts";
export * from "./common.ts";
export * from "./decision.ts";
export * from "./json-depth.ts";
export * from "./systemone.ts";
export * from "./systemone-jevbench.ts";
