"""SQLAlchemy models, one module per table. Importing this package registers them all on Base.metadata."""

from app.models.base import Base
from app.models.gene import Gene, GeneStatus
from app.models.gene_version import GeneVersion, ProvenanceKind
from app.models.trajectory import Trajectory, TrajectoryState, version_trajectories

__all__ = [
    "Base",
    "Gene",
    "GeneStatus",
    "GeneVersion",
    "ProvenanceKind",
    "Trajectory",
    "TrajectoryState",
    "version_trajectories",
]
