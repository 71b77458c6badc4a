import fs from "node:fs";
import path from "node:path";
import { locateBotocore, TEST_VENV_PYTHON } from "./aws-shapes/botocore-models.ts";
import { GENERATED_DIR, renderService } from "./aws-shapes/render.ts";
import { servedServices } from "./aws-shapes/served-operations.ts";

/**
 * npm run gen:aws-shapes: local mode's input shapes from the pinned botocore's service models
 * (scripts/aws-shapes/served-operations.ts lists the operations), written to local-aws/src/wire/generated/.
 * Needs the Python test environment (`npm run py:env`), which pins botocore in requirements/tests.txt.
 */
const root = path.resolve(import.meta.dirname, "..");
const botocore = locateBotocore(root);
if (!botocore) {
  console.error(`gen:aws-shapes: no ${TEST_VENV_PYTHON}; run npm run py:env first`);
  process.exit(1);
}
fs.mkdirSync(path.join(root, GENERATED_DIR), { recursive: true });
for (const served of servedServices) {
  const file = path.join(root, GENERATED_DIR, served.file);
  fs.writeFileSync(file, renderService(root, botocore, served));
  console.log(
    `gen:aws-shapes: ${path.relative(root, file)} (${served.operations.length} operations, botocore ${botocore.version})`,
  );
}
