"""Validates every captured console request against AWS's own service models (botocore).

Reads the JSON Lines that server/aws/request-capture.ts writes ({service, operation, input}) from the files or
folders named on the command line, rebuilds the SDK v3 values botocore expects (dates, bytes), and checks each input
with botocore's ParamValidator (required members, unknown members, types, minimums), then with the model constraints
that ParamValidator leaves to the service (enums, maximums, patterns). Exits 1 on any violation, each printed with
its operation and member path; 2 when there is nothing to read.
"""

import datetime
import json
import re
import sys
import uuid
from collections import Counter
from pathlib import Path

import botocore.session
import regex
from botocore.validate import ParamValidator

# SDK v3's serviceId to botocore's service name; an id not listed here is looked up in every botocore model.
SERVICE_NAMES = {
    "SageMaker": "sagemaker",
    "SageMaker Runtime": "sagemaker-runtime",
    "CodeBuild": "codebuild",
    "ECR": "ecr",
    "S3": "s3",
    "CloudWatch": "cloudwatch",
    "CloudWatch Logs": "logs",
    "Application Auto Scaling": "application-autoscaling",
}

TAGS = ("$date", "$bytes", "$stream", "$longString")


class Notes(Counter):
    """What could not be checked exactly (stream bodies, Java-only patterns), counted and printed."""


def service_name(session, service_id):
    if service_id in SERVICE_NAMES:
        return SERVICE_NAMES[service_id]
    for name in session.get_available_services():
        if session.get_service_model(name).service_id == service_id:
            SERVICE_NAMES[service_id] = name
            return name
    raise LookupError(f"no botocore service model has serviceId {service_id!r}")


def decode(value, shape, notes):
    """JSON from the capture back into what botocore's validator expects for `shape` (None: a member unknown)."""
    kind = shape.type_name if shape is not None else None
    if isinstance(value, list):
        member = shape.member if kind == "list" else None
        return [decode(item, member, notes) for item in value]
    if not isinstance(value, dict):
        return value
    if kind not in ("structure", "map") and len(value) == 1 and next(iter(value)) in TAGS:
        return decode_tagged(value, notes)
    if kind == "structure":
        return {key: decode(item, shape.members.get(key), notes) for key, item in value.items()}
    if kind == "map":
        return {key: decode(item, shape.value, notes) for key, item in value.items()}
    return {key: decode(item, None, notes) for key, item in value.items()}


def decode_tagged(value, notes):
    (tag, detail), = value.items()
    if tag == "$date":
        if detail == "invalid":
            return "Invalid Date"
        return datetime.datetime.fromisoformat(detail.replace("Z", "+00:00"))
    if tag == "$bytes":
        return bytes(detail)
    if tag == "$longString":
        return "x" * detail
    notes["stream body (its bytes are not captured; the member's type is taken as a blob)"] += 1
    return b""


def fill_idempotency_tokens(params, shape):
    """SDK v3 fills a missing idempotency token before it sends, as botocore does; so does this check."""
    for name, member in shape.members.items():
        if member.metadata.get("idempotencyToken") and name not in params:
            params[name] = str(uuid.uuid4())


def constraint_errors(value, shape, path, notes):
    """Enum, maximum and pattern violations: constraints in the model that botocore's validator does not check."""
    if shape is None or value is None:
        return
    kind = shape.type_name
    meta = shape.metadata
    if kind == "structure" and isinstance(value, dict):
        for key, item in value.items():
            yield from constraint_errors(item, shape.members.get(key), f"{path}.{key}" if path else key, notes)
    elif kind == "list" and isinstance(value, (list, tuple)):
        if "max" in meta and len(value) > meta["max"]:
            yield f"{path}: {len(value)} items, more than the maximum {meta['max']}"
        for index, item in enumerate(value):
            yield from constraint_errors(item, shape.member, f"{path}[{index}]", notes)
    elif kind == "map" and isinstance(value, dict):
        if "max" in meta and len(value) > meta["max"]:
            yield f"{path}: {len(value)} entries, more than the maximum {meta['max']}"
        for key, item in value.items():
            yield from constraint_errors(key, shape.key, f"{path} key {key!r}", notes)
            yield from constraint_errors(item, shape.value, f"{path}[{key!r}]", notes)
    elif kind == "string" and isinstance(value, str):
        if shape.enum and value not in shape.enum:
            yield f"{path}: {value!r} is not one of the model's values {shape.enum}"
        if "max" in meta and len(value) > meta["max"]:
            yield f"{path}: length {len(value)}, more than the maximum {meta['max']}"
        if "pattern" in meta:
            pattern = compiled_pattern(meta["pattern"], notes)
            if pattern is not None and not pattern.fullmatch(value):
                yield f"{path}: {value!r} does not match the model's pattern {meta['pattern']}"
    elif kind in ("integer", "long", "float", "double") and isinstance(value, (int, float)):
        if "max" in meta and value > meta["max"]:
            yield f"{path}: {value} is more than the maximum {meta['max']}"
    elif kind == "blob" and isinstance(value, (bytes, bytearray)):
        if "max" in meta and len(value) > meta["max"]:
            yield f"{path}: {len(value)} bytes, more than the maximum {meta['max']}"


_patterns = {}

# Java regex constructs the models use, as the regex module writes them (POSIX classes are ASCII in Java).
JAVA_CLASSES = {r"\p{Print}": r"\x20-\x7E", r"\p{ASCII}": r"\x00-\x7F", r"\p{Alnum}": r"0-9A-Za-z"}
# Java matches UTF-16: a range of surrogate pairs is the range of supplementary code points.
SURROGATE_PAIRS = re.compile(r"\\u(D[89AB][0-9A-F]{2})\\u(D[C-F][0-9A-F]{2})-\\u(D[89AB][0-9A-F]{2})\\u(D[C-F][0-9A-F]{2})", re.I)


def code_point(high, low):
    return 0x10000 + ((int(high, 16) - 0xD800) << 10) + (int(low, 16) - 0xDC00)


def java_to_python(source):
    source = SURROGATE_PAIRS.sub(
        lambda m: f"\\U{code_point(m[1], m[2]):08X}-\\U{code_point(m[3], m[4]):08X}", source
    )
    out, in_class, i = "", False, 0
    while i < len(source):
        for java, python in JAVA_CLASSES.items():
            if source.startswith(java, i):
                out += python if in_class else f"[{python}]"
                i += len(java)
                break
        else:
            char = source[i]
            if char == "\\":
                escaped = source[i : i + 2]
                out += r"\Z" if escaped == r"\z" else escaped
                i += 2
                continue
            if char == "[":
                in_class = True
            elif char == "]":
                in_class = False
            out += char
            i += 1
    return out


def compiled_pattern(source, notes):
    """The model's pattern as Python reads it; None (and a note) for syntax this check cannot translate."""
    if source not in _patterns:
        try:
            # The services match a pattern against the whole value, as local mode does
            # (local-aws/src/wire/input-shapes.ts): SageMaker refuses "bad_name" for ^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,62}.
            _patterns[source] = regex.compile(java_to_python(source))
        except regex.error:
            _patterns[source] = None
    if _patterns[source] is None:
        notes[f"pattern not checked (syntax the regex module lacks): {source}"] += 1
    return _patterns[source]


def read_requests(paths):
    for path in paths:
        files = sorted(Path(path).glob("*.jsonl")) if Path(path).is_dir() else [Path(path)]
        for file in files:
            with file.open(encoding="utf-8") as lines:
                for number, line in enumerate(lines, 1):
                    if line.strip():
                        yield f"{file}:{number}", json.loads(line)


def validate(paths, out=sys.stdout):
    session = botocore.session.get_session()
    validator = ParamValidator()
    models = {}
    notes = Notes()
    operations = Counter()
    violations = []
    for where, request in read_requests(paths):
        label = f"{request.get('service')} {request.get('operation')}"
        try:
            name = service_name(session, request["service"])
            if name not in models:
                models[name] = session.get_service_model(name)
            operation = models[name].operation_model(request["operation"])
        except Exception as error:  # an unknown service or operation is itself a violation
            violations.append(f"{where}: {label}: {error}")
            continue
        operations[label] += 1
        shape = operation.input_shape
        if shape is None:
            if request.get("input"):
                violations.append(f"{where}: {label}: the operation takes no input, got {request['input']}")
            continue
        params = decode(request.get("input") or {}, shape, notes)
        fill_idempotency_tokens(params, shape)
        report = validator.validate(params, shape)
        if report.has_errors():
            violations.append(f"{where}: {label}:\n  " + report.generate_report().replace("\n", "\n  "))
        for error in constraint_errors(params, shape, "", notes):
            violations.append(f"{where}: {label}: {error}")
    total = sum(operations.values())
    print(f"aws-models: validated {total} requests, {len(operations)} distinct operations, "
          f"against botocore {botocore.__version__}", file=out)
    for label, count in sorted(operations.items()):
        print(f"  {count:6d}  {label}", file=out)
    for note, count in sorted(notes.items()):
        print(f"  note: {count} x {note}", file=out)
    for violation in violations:
        print(f"VIOLATION {violation}", file=out)
    print(f"aws-models: {len(violations)} violations", file=out)
    return total, violations


def main(argv):
    if len(argv) < 2:
        print("usage: validate_requests.py CAPTURE_FILE_OR_FOLDER...", file=sys.stderr)
        return 2
    total, violations = validate(argv[1:])
    if violations:
        return 1
    if total == 0:
        print("aws-models: no captured requests: was CONSOLE_REQUEST_CAPTURE set for the test run?", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
