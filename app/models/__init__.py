"""SQLAlchemy models, one module per table. Importing this package registers them all on Base.metadata."""

from app.models.a2a import A2AAsset, A2AMessage, A2ANode
from app.models.api_key import SYSTEM_KEY_ID, SYSTEM_KEY_NAME, ApiKey
from app.models.audit import AuditEntry
from app.models.base import Base
from app.models.evolution_event import EventKind, EvolutionEvent
from app.models.feed import FeedEvent
from app.models.gene import Gene, GeneStatus
from app.models.gene_version import PROVENANCE_COLUMNS, GeneTaskKey, GeneVersion, ProvenanceKind
from app.models.guard import Guard, GuardState, guard_backers, guard_evidence
from app.models.idempotency_key import TrajectoryKey
from app.models.outcome import GeneQuality, GeneStatusChange, Outcome, ProducerReputation
from app.models.trajectory import EvidenceRole, Trajectory, TrajectoryState, version_trajectories
from app.models.webhook import EVENT_TYPES, WebhookDelivery, WebhookSubscription

__all__ = [
    "EVENT_TYPES",
    "PROVENANCE_COLUMNS",
    "SYSTEM_KEY_ID",
    "SYSTEM_KEY_NAME",
    "A2AAsset",
    "A2AMessage",
    "A2ANode",
    "ApiKey",
    "AuditEntry",
    "Base",
    "EventKind",
    "EvidenceRole",
    "EvolutionEvent",
    "FeedEvent",
    "Gene",
    "GeneQuality",
    "GeneStatus",
    "GeneStatusChange",
    "GeneTaskKey",
    "GeneVersion",
    "Guard",
    "GuardState",
    "Outcome",
    "ProducerReputation",
    "ProvenanceKind",
    "Trajectory",
    "TrajectoryKey",
    "TrajectoryState",
    "WebhookDelivery",
    "WebhookSubscription",
    "guard_backers",
    "guard_evidence",
    "version_trajectories",
]
