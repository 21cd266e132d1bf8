"""The genes domain's errors: what a client reads when a Gene is missing, revoked or not theirs."""

from __future__ import annotations

from app.errors import Conflict, Forbidden, Gone, NotFound


class GeneNotFound(NotFound):
    code = "gene-not-found"
    title = "Gene not found"


class GeneRevoked(Gone):
    code = "gene-revoked"
    title = "Gene revoked"

    @classmethod
    def of(cls, gene_id: str, message: str | None) -> GeneRevoked:
        return cls(
            f"gene {gene_id} was revoked" + (f": {message}" if message else ""), extra={"gene_id": gene_id}
        )


class NotOwner(Forbidden):
    code = "not-owner"
    title = "Not the Gene's owner"


class StaleParent(Conflict):
    code = "stale-parent"
    title = "Parent is not the Gene's current version"
