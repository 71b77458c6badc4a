"""Counts the AWS API calls a boto3 session makes, and the error responses it gets, through botocore's events.

The handlers only read what botocore emits; they never change a request or a response.
"""

from collections import Counter


class ApiCalls:
    def __init__(self):
        self.by_operation = Counter()
        self.http_requests = 0
        self.errors = Counter()

    def attach(self, boto_session):
        """Registers on the session's event system; clients created from the session afterwards inherit it."""
        events = boto_session.events
        events.register("before-call", self._before_call)
        events.register("before-send", self._before_send)
        events.register("after-call", self._after_call)

    def _before_call(self, model, **_):
        self.by_operation[f"{model.service_model.service_name}.{model.name}"] += 1

    def _before_send(self, **_):
        self.http_requests += 1

    def _after_call(self, model, http_response, parsed, **_):
        if http_response.status_code >= 400:
            code = parsed.get("Error", {}).get("Code")
            self.errors[f"{model.service_model.service_name}.{model.name} {http_response.status_code} {code}"] += 1

    def summary(self):
        return {
            "total": sum(self.by_operation.values()),
            "httpRequests": self.http_requests,
            "byOperation": dict(sorted(self.by_operation.items())),
            "errors": dict(sorted(self.errors.items())),
        }
