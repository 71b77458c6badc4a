"""Drives the console's decision gateway with the official decision clients, unchanged: TypeSafe's `typesafe-sdk`
(System One) and OpenAI's `openai` (`client.decisions.create`), each with `base_url` and `api_key` only.
Usage: drive_gateway.py <console URL> <JSON: model, alias, outside, and the keys good, wrong, revoked, expired, limited>.
Prints one JSON object with what each client returned or raised, for tests/integration/gateway.model.test.ts."""

import json
import sys

import openai
from typesafe_sdk import Choice, Noul, RetryPolicy, Score, TypeSafeAPIError, TypeSafeClient

url = sys.argv[1]
keys = json.loads(sys.argv[2])
MODEL = keys["model"]
STATE = {"ticket": "I was charged twice for my subscription, please return one payment."}
QUESTIONS = {
    "refund": Noul(instructions="Does the customer ask for money back?"),
    "team": Choice(instructions="Which team handles it?", criteria={"billing": "Charges", "technical": None}),
    "urgency": Score(instructions="How urgent is it?", criteria=["can wait", "today", "blocking"]),
}
OPENAI_QUESTIONS = [
    {"type": "predicate", "name": "refund", "instructions": "The customer asks for money back."},
    {"type": "choice", "name": "team", "instructions": "Which team?", "choices": [{"value": "billing"}, {"value": "technical"}]},
    {"type": "score", "name": "urgency", "instructions": "How urgent?", "levels": [{"label": "low"}, {"label": "high"}]},
]


def typesafe_client(key: str) -> TypeSafeClient:
    # The SDK's default compression: zstd (the venv has the `zstd` extra), as a user on Python 3.14 sends.
    return TypeSafeClient(api_key=key, base_url=url, retry=RetryPolicy(max_retries=0), timeout=120)


def openai_client(key: str) -> openai.OpenAI:
    return openai.OpenAI(api_key=key, base_url=f"{url}/v1", max_retries=0, timeout=120)


def typesafe_refusal(key: str, model: str = MODEL) -> dict:
    try:
        typesafe_client(key).system_one(STATE, {"refund": QUESTIONS["refund"]}, model=model)
        return {"answered": True}
    except TypeSafeAPIError as error:
        return {"error": type(error).__name__, "status": error.status, "message": str(error),
                "retry_after": error.headers.get("retry-after"), "request_id": error.request_id}


def openai_refusal(key: str, model: str = MODEL) -> dict:
    try:
        openai_client(key).decisions.create(model=model, input="Charged twice.", questions=OPENAI_QUESTIONS[:1])
        return {"answered": True}
    except openai.APIStatusError as error:
        return {"error": type(error).__name__, "status": error.status_code, "message": str(error),
                "retry_after": error.response.headers.get("retry-after")}


good = keys["good"]
answered = typesafe_client(good).system_one(STATE, QUESTIONS, model=MODEL)
decision = openai_client(good).decisions.create(model=keys["alias"], input=STATE["ticket"], questions=OPENAI_QUESTIONS)
out = {
    "typesafe": {
        "noul": answered.nouls["refund"].noul,
        "choice": answered.choices["team"].choice,
        "choice_probabilities": dict(answered.choices["team"].probabilities),
        "score": answered.scores["urgency"].score,
        "input_tokens": answered.usage.input_tokens,
        "models": [m.name for m in typesafe_client(good).models.list().models],
        "request_id": answered.request_id,
    },
    "openai": {
        "decision": json.loads(decision.model_dump_json()),
        "request_id": decision._request_id,
        "models": [m.id for m in openai_client(good).models.list().data],
    },
    "refused": {
        name: {"typesafe": typesafe_refusal(keys[name]), "openai": openai_refusal(keys[name])}
        for name in ("wrong", "revoked", "expired")
    },
    "out_of_scope": {"typesafe": typesafe_refusal(good, keys["outside"]), "openai": openai_refusal(good, keys["outside"])},
    "limited": [typesafe_refusal(keys["limited"]), openai_refusal(keys["limited"]), typesafe_refusal(keys["limited"]),
                openai_refusal(keys["limited"])],
}
print(json.dumps(out))
