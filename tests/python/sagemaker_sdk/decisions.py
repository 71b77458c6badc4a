"""Decision requests and the part of the adapter's answer the tests compare."""

import copy


def answer_of(body):
    """The option ids and probabilities of one adapter answer (`{"result": {...}}`)."""
    result = body["result"]
    return {"id": result["id"], "option_ids": result["option_ids"], "probabilities": result["probabilities"]}


def variant(request, index):
    """The request's decision with its own id and a state that differs, for inputs with several records."""
    other = copy.deepcopy(request)
    other["decision"]["id"] = f"{request['decision']['id']}-v{index}"
    other["decision"]["state"] = f"{request['decision']['state']} (variant {index})"
    return other
