"""The SageMaker Python SDK configured as a user configures it: AWS's own environment variables (endpoint URL,
shared credentials and config files, profile, region) and a boto3 session built from them. Nothing in the SDK is
patched. What the tests act on comes from SDK_TEST_* variables (docs/python-tests.md); what they saw is written
as JSON to SDK_TEST_RESULTS for the Playwright spec that runs them to compare with the console.
"""

import json
import os
import threading
import uuid
from dataclasses import dataclass

import boto3
import pytest
import sagemaker

from api_calls import ApiCalls

_calls = ApiCalls()
_results = {"tests": {}, "observed": {}}


@dataclass(frozen=True)
class Settings:
    realtime_endpoint: str
    async_endpoint: str
    decision: dict
    bucket: str
    role_arn: str
    run_id: str


def _required(name):
    value = os.environ.get(name)
    if not value:
        raise pytest.UsageError(f"{name} is not set (docs/python-tests.md lists what these tests read)")
    return value


@pytest.fixture(scope="session")
def settings():
    return Settings(
        realtime_endpoint=_required("SDK_TEST_REALTIME_ENDPOINT"),
        async_endpoint=_required("SDK_TEST_ASYNC_ENDPOINT"),
        decision=json.loads(_required("SDK_TEST_DECISION")),
        bucket=_required("SDK_TEST_BUCKET"),
        role_arn=_required("SDK_TEST_ROLE_ARN"),
        run_id=os.environ.get("SDK_TEST_RUN_ID") or uuid.uuid4().hex[:12],
    )


@pytest.fixture(scope="session")
def session(settings):
    boto_session = boto3.Session()
    _calls.attach(boto_session)
    # The stack's bucket, named so the SDK does not derive sagemaker-<region>-<account> (STS) or create one.
    return sagemaker.Session(boto_session=boto_session, default_bucket=settings.bucket)


@pytest.fixture(scope="session")
def console_model(session, settings):
    """The model behind the endpoint the console deployed, as DescribeEndpoint, -Config and -Model show it."""
    client = session.sagemaker_client
    config_name = client.describe_endpoint(EndpointName=settings.realtime_endpoint)["EndpointConfigName"]
    variant = client.describe_endpoint_config(EndpointConfigName=config_name)["ProductionVariants"][0]
    model = client.describe_model(ModelName=variant["ModelName"])
    container = model["PrimaryContainer"]
    return {
        "name": model["ModelName"],
        "image": container["Image"],
        "model_data": container["ModelDataUrl"],
        "environment": container.get("Environment", {}),
        "instance_type": variant["InstanceType"],
    }


@pytest.fixture(scope="session")
def observed():
    """What each test saw, keyed by the test's own name; written to SDK_TEST_RESULTS at the end."""
    return _results["observed"]


def pytest_runtest_logreport(report):
    if report.when == "call" or report.outcome != "passed":
        _results["tests"][report.nodeid] = {
            "outcome": report.outcome,
            "message": str(report.longrepr)[-2000:] if report.failed else None,
        }


def pytest_sessionfinish(session, exitstatus):
    # AsyncPredictor's waiter threads poll the other location until their attempts run out: count those calls too.
    for thread in threading.enumerate():
        if thread is not threading.main_thread() and not thread.daemon:
            thread.join(timeout=180)
    path = os.environ.get("SDK_TEST_RESULTS")
    if path:
        with open(path, "w", encoding="utf-8") as file:
            json.dump({**_results, "exitStatus": int(exitstatus), "calls": _calls.summary()}, file, indent=2)
