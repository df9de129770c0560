"""One log line per request, and a request id on every line it causes.

The id is the proxy's (nginx sends `X-Request-ID: $request_id`, see
deploy/nginx/tiles.conf) when it looks like one, else a new one; it goes back
in the reply's X-Request-ID so a user's report can be found in the logs.
"""

import json
import logging
import re
import time
import uuid
from collections.abc import Callable
from contextvars import ContextVar
from datetime import UTC, datetime

from asgiref.sync import markcoroutinefunction

REQUEST_ID: ContextVar[str] = ContextVar("request_id", default="-")
# Anything else in the header (spaces, newlines) could forge log lines.
FROM_PROXY = re.compile(r"[A-Za-z0-9._-]{8,64}")

log = logging.getLogger("tiles.request")


class RequestLogMiddleware:
    sync_capable = False
    async_capable = True

    def __init__(self, get_response) -> None:
        self.get_response = get_response
        markcoroutinefunction(self)

    async def __call__(self, request):
        given = request.headers.get("X-Request-ID", "")
        request_id = given if FROM_PROXY.fullmatch(given) else uuid.uuid4().hex
        token = REQUEST_ID.set(request_id)
        started = time.perf_counter()
        try:
            response = await self.get_response(request)
            response["X-Request-ID"] = request_id
            status = response.status_code
            level = (
                logging.ERROR
                if status >= 500
                else logging.WARNING
                if status >= 400
                else logging.INFO
            )
            ms = (time.perf_counter() - started) * 1000
            log.log(
                level,
                "%s %s %s %.1fms",
                request.method,
                request.get_full_path(),
                status,
                ms,
            )
            return response
        finally:
            REQUEST_ID.reset(token)


class RequestIdFilter(logging.Filter):
    """Puts the current request's id on every record (`-` outside one)."""

    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = REQUEST_ID.get()
        return True


class ServerErrorsOnly(logging.Filter):
    """django.request repeats each 4xx reply the request line already
    shows; its 5xx records carry the traceback and are kept."""

    def filter(self, record: logging.LogRecord) -> bool:
        return getattr(record, "status_code", 500) >= 500


class UtcFormatter(logging.Formatter):
    """Times in UTC whatever the machine's zone, so hosts' logs line up."""

    converter: Callable[[float | None], time.struct_time] = time.gmtime


class JsonFormatter(logging.Formatter):
    """LOG_FORMAT=json: one JSON object a line with the line format's
    fields, for a log collector to read without a pattern. A traceback is
    a field of its own ("exc"), so a record stays one line."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": datetime.fromtimestamp(record.created, UTC)
            .isoformat(timespec="milliseconds")
            .replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, default=str)
