"""Predictor with JSON serializers on the real-time endpoint the console deployed."""

import botocore.exceptions
import pytest
from sagemaker.deserializers import JSONDeserializer
from sagemaker.predictor import Predictor
from sagemaker.serializers import JSONSerializer

from decisions import answer_of


def json_predictor(name, session):
    return Predictor(name, sagemaker_session=session, serializer=JSONSerializer(), deserializer=JSONDeserializer())


def test_predict_answers_the_decision(session, settings, observed):
    body = json_predictor(settings.realtime_endpoint, session).predict(settings.decision)
    observed["predictor"] = answer_of(body)
    assert observed["predictor"]["id"] == settings.decision["decision"]["id"]


def test_predict_on_a_missing_endpoint_raises_what_sagemaker_raises(session, settings):
    missing = f"dc-sdk-missing-{settings.run_id}"
    with pytest.raises(botocore.exceptions.ClientError) as raised:
        json_predictor(missing, session).predict(settings.decision)
    # SageMaker Runtime's own code for an unknown endpoint (ValidationError, not SageMaker's ValidationException).
    assert raised.value.response["Error"]["Code"] == "ValidationError"
    assert f"Endpoint {missing} of account" in raised.value.response["Error"]["Message"]
