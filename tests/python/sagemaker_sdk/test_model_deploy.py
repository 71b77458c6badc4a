"""Model(...).deploy(): the SDK's own calls, names and waiters create an endpoint; predict on it, then delete it."""

import botocore.exceptions
import pytest
from sagemaker.deserializers import JSONDeserializer
from sagemaker.model import Model
from sagemaker.predictor import Predictor
from sagemaker.serializers import JSONSerializer

from decisions import answer_of


def error_code(call):
    with pytest.raises(botocore.exceptions.ClientError) as raised:
        call()
    return raised.value.response["Error"]["Code"]


def console_model_copy(session, settings, console_model, **names):
    """The console's model, as a user would copy it from its endpoint: same image, artifact and environment."""
    return Model(
        image_uri=console_model["image"],
        model_data=console_model["model_data"],
        role=settings.role_arn,
        env=console_model["environment"],
        predictor_cls=Predictor,
        sagemaker_session=session,
        **names,
    )


def test_names_the_sdk_derives_from_a_digest_pinned_image_are_refused_as_sagemaker_refuses_them(
    session, settings, console_model
):
    # The console pins images by digest (repo@sha256:...); the SDK's base_name_from_image keeps "repo@sha256", and
    # CreateModel refuses the name by the ModelName pattern of SageMaker's service model, before anything exists.
    assert "@sha256:" in console_model["image"]
    model = console_model_copy(session, settings, console_model)
    with pytest.raises(botocore.exceptions.ClientError) as raised:
        model.deploy(initial_instance_count=1, instance_type=console_model["instance_type"])
    assert raised.value.operation_name == "CreateModel"
    assert raised.value.response["Error"]["Code"] == "ValidationException"
    assert "@sha256-" in raised.value.response["Error"]["Message"]
    assert "failed to satisfy constraint: Member must satisfy regular expression pattern" in str(raised.value)


def test_deploy_predict_delete(session, settings, console_model, observed):
    # Named, so the SDK derives the endpoint's and configuration's names from it (see the test above).
    model = console_model_copy(session, settings, console_model, name=f"dc-sdk-{settings.run_id}")
    predictor = model.deploy(
        initial_instance_count=1,
        instance_type=console_model["instance_type"],
        serializer=JSONSerializer(),
        deserializer=JSONDeserializer(),
    )
    client = session.sagemaker_client
    endpoint = predictor.endpoint_name
    assert client.describe_endpoint(EndpointName=endpoint)["EndpointStatus"] == "InService"
    observed["deploy"] = {**answer_of(predictor.predict(settings.decision)), "endpoint": endpoint, "model": model.name}

    config = client.describe_endpoint(EndpointName=endpoint)["EndpointConfigName"]
    predictor.delete_model()
    predictor.delete_endpoint()
    client.get_waiter("endpoint_deleted").wait(EndpointName=endpoint, WaiterConfig={"Delay": 2, "MaxAttempts": 60})
    assert error_code(lambda: client.describe_endpoint(EndpointName=endpoint)) == "ValidationException"
    assert error_code(lambda: client.describe_endpoint_config(EndpointConfigName=config)) == "ValidationException"
    assert error_code(lambda: client.describe_model(ModelName=model.name)) == "ValidationException"
