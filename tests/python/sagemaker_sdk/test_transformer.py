"""Transformer.transform on a JSON Lines object of decisions, with the model the console deployed, and wait()."""

import json

from sagemaker.transformer import Transformer

from decisions import answer_of, variant


def test_transform_json_lines(session, settings, console_model, observed):
    requests = [settings.decision, variant(settings.decision, 1), variant(settings.decision, 2)]
    # The stack's execution role reads batch/inputs/* and writes batch/outputs/* only.
    prefix = f"batch/inputs/sdk-{settings.run_id}"
    input_uri = session.upload_string_as_file_body(
        "".join(f"{json.dumps(request)}\n" for request in requests),
        bucket=settings.bucket,
        key=f"{prefix}/decisions.jsonl",
    )
    output_path = f"s3://{settings.bucket}/batch/outputs/sdk-{settings.run_id}"
    transformer = Transformer(
        model_name=console_model["name"],
        instance_count=1,
        instance_type="ml.c6i.large",
        output_path=output_path,
        accept="application/jsonlines",
        assemble_with="Line",
        sagemaker_session=session,
        # Without it the SDK derives the job's name from the image, which is invalid for a digest-pinned image.
        base_transform_job_name=f"dc-sdk-{settings.run_id}",
    )
    transformer.transform(input_uri, content_type="application/jsonlines", split_type="Line")
    transformer.wait()

    job = session.sagemaker_client.describe_transform_job(TransformJobName=transformer.latest_transform_job.name)
    assert job["TransformJobStatus"] == "Completed"
    lines = session.read_s3_file(settings.bucket, f"batch/outputs/sdk-{settings.run_id}/decisions.jsonl.out")
    answers = [answer_of(json.loads(line)) for line in lines.splitlines()]
    assert [answer["id"] for answer in answers] == [request["decision"]["id"] for request in requests]
    expected_options = [option["id"] for option in settings.decision["decision"]["options"]]
    for answer in answers:
        assert answer["option_ids"] == expected_options
        assert abs(sum(answer["probabilities"]) - 1) < 1e-9
    observed["transform"] = {"jobName": job["TransformJobName"], "answers": answers}
