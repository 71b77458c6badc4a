"""Drives the adapter with the official decision clients, unchanged: TypeSafe's `typesafe-sdk` (System One) and
OpenAI's `openai` (`client.decisions.create`). Usage: drive_clients.py <adapter URL>. Prints one JSON object with
what each client returned (or the error it raised), for adapter/test/decision-clients.model.test.ts to check."""

import json
import sys

import openai
from typesafe_sdk import Choice, Noul, RetryPolicy, Score, TypeSafeAPIError, TypeSafeClient

url = sys.argv[1]
STATE = {"ticket": "I was charged twice for my subscription, please return one payment."}


def api_error(error: Exception) -> dict:
    status = getattr(error, "status", None) or getattr(error, "status_code", None)
    return {
        "error": type(error).__name__,
        "status": status,
        "message": str(error),
        "body": getattr(error, "body", None),
        "request_id": getattr(error, "request_id", None),
    }


def typesafe(client: TypeSafeClient) -> dict:
    out: dict = {}
    result = client.system_one(
        STATE,
        {
            "refund": Noul(instructions="Does the customer ask for money back?"),
            "team": Choice(instructions="Which team handles it?", criteria={"billing": "Charges", "technical": None}),
            "urgency": Score(instructions="How urgent is it?", criteria=["can wait", "today", "blocking"]),
        },
        model="jev-latest",
    )
    out["all_types"] = {
        "model": result.model,
        "noul": result.nouls["refund"].noul,
        "choice": result.choices["team"].choice,
        "choice_probabilities": dict(result.choices["team"].probabilities),
        "choice_confidence": result.choices["team"].confidence,
        "score": result.scores["urgency"].score,
        "score_probabilities": {str(k): v for k, v in result.scores["urgency"].probabilities.items()},
        "input_tokens": result.usage.input_tokens,
        "request_id": result.request_id,
    }
    structured = client.system_one(
        ["first message", {"from": "customer", "text": "still charged twice"}],
        {
            "same": Noul(instructions={"question": "Is `other` the same person?", "other": {"name": "Ann"}}),
            "spam": Noul(criteria={"true": "Unsolicited advertising"}),
            "team": Choice(instructions=["Which team?"], criteria={"billing": {"handles": ["refunds"]}, "tech": ["bugs"]}),
            "size": Score(criteria=[{"level": "small"}, ["large", "huge"]]),
        },
        model="jev-latest",
    )
    out["structured"] = sorted(structured.answers.keys())
    many = {f"option {i}": f"the ticket is about topic number {i}" for i in range(255)}
    try:
        answered = client.system_one("A short ticket.", {"topic": Choice(instructions="Which topic?", criteria=many)})
        out["choices_255"] = {"answered": len(answered.choices["topic"].probabilities)}
    except TypeSafeAPIError as error:
        out["choices_255"] = api_error(error)
    try:
        client.system_one("s", {"s": Score(instructions="How much?", criteria=[f"level {i}" for i in range(11)])})
        out["score_11"] = {"answered": True}
    except TypeSafeAPIError as error:
        out["score_11"] = api_error(error)
    try:
        client.system_one("word " * 6000, {"q": Noul(instructions="Is it long?")})
        out["too_long"] = {"answered": True}
    except TypeSafeAPIError as error:
        out["too_long"] = api_error(error)
    out["models"] = [{"name": m.name, "release_date": m.release_date} for m in client.models.list().models]
    return out


def openai_decisions(client: openai.OpenAI) -> dict:
    out: dict = {}
    decision = client.decisions.create(
        model="gpt-6-luna",
        input="I was charged twice for my subscription, please return one payment.",
        questions=[
            {"type": "predicate", "name": "refund", "instructions": "The customer asks for money back."},
            {
                "type": "choice",
                "name": "team",
                "instructions": "Which team handles it?",
                "choices": [{"value": "billing", "description": "Charges"}, {"value": True}, {"value": "true"}],
            },
            {
                "type": "score",
                "instructions": [{"type": "input_text", "text": "How urgent is it?"}],
                "levels": [{"label": "low"}, {"label": "medium"}, {"label": "high", "description": "Blocking"}],
            },
        ],
        prompt_cache_key="ticket-42",
    )
    out["all_types"] = json.loads(decision.model_dump_json())
    messages = client.decisions.create(
        model="gpt-6-luna",
        input=[
            {"role": "system", "content": "You route support tickets."},
            {"role": "user", "content": [{"type": "input_text", "text": "Charged twice."}, {"type": "input_json", "data": {"plan": "pro"}}]},
            {"role": "assistant", "content": "Let me check."},
        ],
        questions=[{"type": "predicate", "instructions": "The customer mentions a charge."}],
        prompt_cache_key="ticket-42",
    )
    out["messages"] = json.loads(messages.model_dump_json())
    try:
        client.decisions.create(
            model="gpt-6-luna",
            input=[{"role": "user", "content": [{"type": "input_image", "image_url": "data:image/png;base64,iVBORw0KGgo="}]}],
            questions=[{"type": "predicate", "instructions": "Is there a dog?"}],
        )
        out["image"] = {"answered": True}
    except openai.APIStatusError as error:
        out["image"] = api_error(error)
    try:
        client.decisions.create(
            model="gpt-6-luna",
            input="x",
            questions=[{"type": "choice", "instructions": "Pick", "choices": [{"value": "only"}]}],
        )
        out["one_choice"] = {"answered": True}
    except openai.APIStatusError as error:
        out["one_choice"] = api_error(error)
    out["models"] = [model.id for model in client.models.list().data]
    return out


typesafe_client = TypeSafeClient(api_key="unused-by-the-adapter", base_url=url, retry=RetryPolicy(max_retries=0), timeout=120)
openai_client = openai.OpenAI(api_key="unused-by-the-adapter", base_url=f"{url}/v1", max_retries=0, timeout=120)
print(json.dumps({"typesafe": typesafe(typesafe_client), "openai": openai_decisions(openai_client)}))
