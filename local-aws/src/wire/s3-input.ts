import { AwsError } from "./aws-error.ts";
import { type S3InputShapesOperation, s3InputBindings, s3InputShapes } from "./generated/s3.ts";
import { inputViolations, memberName, ShapeTypeError, type Violation } from "./input-shapes.ts";
import { bindRestInput, type RestRequestParts } from "./rest-binding.ts";
import { malformedXml } from "./xml.ts";

/**
 * An S3 operation's input, bound from the request as S3's service model binds it (generated/s3.ts) and checked
 * against its shape, answered the way S3 answers a bad argument rather than with the JSON services' "n validation
 * errors detected": `InvalidArgument` naming the query parameter or header (ArgumentName, ArgumentValue), S3's own
 * code where it has one (InvalidStorageClass), and `MalformedXML` for a request body that breaks its schema.
 */
export function s3Input(
  operation: S3InputShapesOperation,
  request: RestRequestParts,
  payload?: Record<string, unknown>,
): Record<string, unknown> {
  const shape = s3InputShapes[operation];
  const bindings = s3InputBindings[operation];
  const input = bindRestInput(shape, bindings, { ...request, payload });
  const argument = (path: string) => {
    const member = Object.keys(bindings.members).find((name) => memberName(name) === path.split(".")[0]);
    return member ? bindings.members[member]!.name : undefined;
  };
  let violations: Violation[];
  try {
    violations = inputViolations(shape, input);
  } catch (error) {
    if (!(error instanceof ShapeTypeError)) throw error;
    const name = argument(error.path);
    if (!name) throw malformedXml();
    throw invalidArgument(`Provided ${name} not ${TYPE_WORDING[error.expected] ?? error.expected}`, name, error.value);
  }
  const [first] = violations;
  if (!first) return input;
  const name = argument(first.path);
  if (!name) throw malformedXml();
  if (name === "x-amz-storage-class") {
    throw new AwsError("InvalidStorageClass", "The storage class you specified is not valid", 400, {
      StorageClassRequested: String(first.value),
    });
  }
  const value = first.value === null ? "null" : String(first.value);
  throw invalidArgument(S3_WORDING[name] ?? `Invalid argument ${name}: ${first.constraint}`, name, value);
}

/** How S3 words a value outside an argument's enum, where local mode knows it; others name the model's constraint. */
const S3_WORDING: Record<string, string> = { "encoding-type": "Invalid Encoding Method specified in Request" };

/** S3's wording for max-keys that is not a number; the other types follow it. */
const TYPE_WORDING: Record<string, string> = {
  "an integer": "an integer or within integer range",
  "a boolean": "a boolean (true or false)",
  "a timestamp": "a timestamp in the format the API reference gives",
};

export function invalidArgument(message: string, name: string, value: unknown): AwsError {
  return new AwsError("InvalidArgument", message, 400, { ArgumentName: name, ArgumentValue: String(value) });
}
