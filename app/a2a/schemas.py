"""Bodies of the GEP hub: the gep-a2a envelope, and the admin API's node answers.

The /a2a bodies are parsed by hand (app/a2a/service.py), not by FastAPI, so that every refusal is
the `{"error": …}` JSON a GEP client reads, with the code the wire contract names.
"""

from __future__ import annotations

import re
import uuid
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from pydantic import BaseModel, Field

from app.a2a.errors import A2AError
from app.a2a.node_secrets import NODE_ID
from app.schemas import Name, StrictModel

PROTOCOL = "gep-a2a"
PROTOCOL_VERSION = "1.0.0"
# "msg_<ms>_<8hex>" from the client's core, "msg_<base36>" from its validator and tasks.
MESSAGE_ID = re.compile(r"^msg_[A-Za-z0-9_]{1,100}$")


@dataclass(frozen=True)
class Envelope:
    message_type: str
    message_id: str
    sender_id: str
    payload: dict[str, Any]


def parse_envelope(body: Any, message_type: str) -> Envelope:
    """The seven-field gep-a2a envelope of `message_type`, or A2AError 422."""
    if not isinstance(body, dict):
        raise A2AError(422, "invalid_envelope", "the body must be a gep-a2a envelope (a JSON object)")
    protocol, version = body.get("protocol"), body.get("protocol_version")
    if protocol != PROTOCOL or version != PROTOCOL_VERSION:
        raise A2AError(
            422,
            "unsupported_protocol",
            f"this hub speaks {PROTOCOL} {PROTOCOL_VERSION}, "
            f"not {str(protocol)[:40]!r} {str(version)[:20]!r}",
        )
    if body.get("message_type") != message_type:
        raise A2AError(422, "invalid_envelope", f"message_type must be {message_type!r} on this endpoint")
    message_id = body.get("message_id")
    if not isinstance(message_id, str) or not MESSAGE_ID.fullmatch(message_id):
        raise A2AError(422, "invalid_envelope", "message_id must look like msg_<ms>_<hex>")
    sender_id = sender(body.get("sender_id"))
    if not isinstance(body.get("timestamp"), str):
        raise A2AError(422, "invalid_envelope", "timestamp must be an ISO 8601 string")
    payload = body.get("payload")
    if not isinstance(payload, dict):
        raise A2AError(422, "invalid_envelope", "payload must be a JSON object")
    return Envelope(message_type, message_id, sender_id, payload)


def sender(value: Any) -> str:
    if not isinstance(value, str) or not NODE_ID.fullmatch(value):
        raise A2AError(422, "invalid_sender_id", "sender_id must be a node id: node_ and 12 to 32 hex digits")
    return value


class NodeIn(StrictModel):
    key_id: uuid.UUID = Field(strict=False, description="the key that owns the node: it acts with its role")
    name: Name | None = None


class NodeRead(BaseModel):
    node_id: str
    key_id: uuid.UUID
    name: str | None
    secret_version: int
    open_registration: bool = Field(description="registered by its own hello: its reviews never count")
    created_at: datetime
    rotated_at: datetime | None
    revoked_at: datetime | None
    last_seen_at: datetime | None


class NodeCreated(NodeRead):
    node_secret: str = Field(description="A2A_NODE_SECRET: shown this once, stored only hashed")
