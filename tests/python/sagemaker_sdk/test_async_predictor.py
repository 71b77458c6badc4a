"""AsyncPredictor on the asynchronous endpoint the console deployed: predict_async, then the SDK's own waiting."""

import uuid

from sagemaker.async_inference import AsyncInferenceResponse, WaiterConfig
from sagemaker.deserializers import JSONDeserializer
from sagemaker.predictor import Predictor
from sagemaker.predictor_async import AsyncPredictor
from sagemaker.serializers import JSONSerializer

from decisions import answer_of


def test_predict_async_then_get_result(session, settings, observed):
    predictor = AsyncPredictor(
        Predictor(
            settings.async_endpoint,
            sagemaker_session=session,
            serializer=JSONSerializer(),
            deserializer=JSONDeserializer(),
        )
    )
    # The stack's execution role reads asynchronous requests only under async/*/in/ (the SDK's default location,
    # async-endpoint-inputs/, is denied to it), and AsyncPredictor sends no ContentType unless told.
    input_path = f"s3://{settings.bucket}/async/{settings.async_endpoint}/in/sdk-{settings.run_id}-{uuid.uuid4()}.json"
    response = predictor.predict_async(
        settings.decision, input_path=input_path, initial_args={"ContentType": "application/json"}
    )
    assert isinstance(response, AsyncInferenceResponse)
    assert response.output_path.startswith(f"s3://{settings.bucket}/")
    body = response.get_result(WaiterConfig(max_attempts=60, delay=1))
    observed["async"] = {**answer_of(body), "outputPath": response.output_path, "failurePath": response.failure_path}
