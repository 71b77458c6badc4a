import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { STACK_POLICIES_PATH, serialise, synthesiseStackPolicies } from "./stack-policies.ts";

const target = join(import.meta.dirname, "..", "..", STACK_POLICIES_PATH);
writeFileSync(target, serialise(synthesiseStackPolicies()));
console.log(`wrote ${STACK_POLICIES_PATH}`);
