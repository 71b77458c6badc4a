import { z } from "zod";

/** `arn:aws:sagemaker:<region>:<account>:model-package/<group>/<version>`: a model version, never a bare name. */
export const modelVersionArnSchema = z
  .string()
  .regex(
    /^arn:aws[a-z-]*:sagemaker:[a-z0-9-]+:\d{12}:model-package\/[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}\/\d{1,9}$/,
    "must be a model version ARN: arn:aws:sagemaker:<region>:<account>:model-package/<group>/<version>",
  );
