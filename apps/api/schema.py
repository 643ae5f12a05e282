"""Schema post-processing: every operation documents the JSON error it may answer (apps.api.errors), and a
recommendation's columns are all optional (``fields=`` answers a subset)."""

from __future__ import annotations

from typing import Any

ERROR = {
    "type": "object",
    "properties": {
        "detail": {"type": "string", "description": "what is wrong and where, in one line"},
        "where": {"type": "string", "description": "the request's method and path"},
        "errors": {"type": "object", "additionalProperties": True, "description": "messages per parameter or field"},
    },
    "required": ["detail"],
}
_ERRORS = {
    "400": "a bad parameter or body field, named in detail",
    "401": "not authenticated",
    "403": "not allowed: signed in as a viewer where an admin is needed, or no credentials",
    "404": "no such target, run, segment or plan",
    "429": "this address presented too many bad API tokens: locked out until the cool-off ends (Retry-After)",
}
_WRITE_ERRORS = {"413": "the request body is over the upload limit", "503": "the task broker did not answer"}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    result.setdefault("components", {}).setdefault("schemas", {})["Error"] = ERROR
    ref = {"$ref": "#/components/schemas/Error"}
    for methods in result.get("paths", {}).values():
        for method, operation in methods.items():
            codes = {**_ERRORS, **(_WRITE_ERRORS if method != "get" else {})}
            responses = operation.setdefault("responses", {})
            for code, description in codes.items():
                responses.setdefault(code, {"description": description})
                responses[code].setdefault("content", {"application/json": {"schema": ref}})
            for code, response in responses.items():
                if code[0] in "45" and "content" not in response:
                    response["content"] = {"application/json": {"schema": ref}}
    recommendation = result["components"]["schemas"].get("Recommendation")
    if recommendation:
        recommendation.pop("required", None)
    return result
