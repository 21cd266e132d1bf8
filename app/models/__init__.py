"""SQLAlchemy models, one module per table. Importing this package registers them all on Base.metadata."""

from app.models.api_key import ApiKey
from app.models.audit import AuditEntry
from app.models.base import Base
from app.models.evolution_event import EventKind, EvolutionEvent
from app.models.gene import Gene, GeneStatus
from app.models.gene_version import GeneVersion, ProvenanceKind
from app.models.guard import Guard, guard_evidence
from app.models.idempotency_key import TrajectoryKey
from app.models.outcome import GeneQuality, GeneStatusChange, Outcome, ProducerReputation
from app.models.trajectory import Trajectory, TrajectoryState, version_trajectories

__all__ = [
    "ApiKey",
    "AuditEntry",
    "Base",
    "EventKind",
    "EvolutionEvent",
    "Gene",
    "GeneQuality",
    "GeneStatus",
    "GeneStatusChange",
    "GeneVersion",
    "Guard",
    "Outcome",
    "ProducerReputation",
    "ProvenanceKind",
    "Trajectory",
    "TrajectoryKey",
    "TrajectoryState",
    "guard_evidence",
    "version_trajectories",
]
