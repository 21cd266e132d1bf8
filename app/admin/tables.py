"""Plain, read-only table browsing under /admin/tables, by sqladmin: the generic part we do not hand-write.

Everything here is read-only (no create, edit, delete or export), so sqladmin renders no state-changing
form and needs no CSRF token of its own. Its login is ours: the authentication backend re-checks the
same admin session as every other admin page, and its own login/logout routes are shadowed by
redirects to ours (see app/admin/app.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

from fastapi import FastAPI
from sqladmin import Admin, ModelView
from sqladmin.authentication import AuthenticationBackend
from sqlalchemy.ext.asyncio import AsyncSession, async_sessionmaker
from starlette.datastructures import State
from starlette.requests import Request
from starlette.responses import RedirectResponse, Response

from app.admin.auth import admin_of
from app.models import (
    ApiKey,
    AuditEntry,
    GeneQuality,
    GeneStatusChange,
    Guard,
    Outcome,
    ProducerReputation,
    Trajectory,
)

TABLES_PATH = "/tables"
# Our sqladmin/index.html (a landing page with the way back) is found before sqladmin's own, empty one.
TEMPLATES = Path(__file__).parent / "templates" / "tables"


class RuntimeSessions(async_sessionmaker[AsyncSession]):
    """sqladmin wants a sessionmaker when the app is built; the engine only exists once the lifespan ran."""

    def __init__(self, state: State) -> None:
        super().__init__(class_=AsyncSession, expire_on_commit=False)
        self._state = state

    def __call__(self, **local_kw: Any) -> AsyncSession:
        return super().__call__(bind=self._state.runtime.engine, **local_kw)


class SessionAuth(AuthenticationBackend):
    """The admin pages' own session (its middleware is already installed on the admin app).

    sqladmin's login and logout routes are never reached: the admin app answers those paths first.
    """

    def __init__(self, login_path: str) -> None:
        self.middlewares = []
        self.login_path = login_path

    async def login(self, request: Request) -> Response | bool:
        return RedirectResponse(self.login_path, status_code=303)

    async def logout(self, request: Request) -> Response | bool:
        return RedirectResponse(self.login_path, status_code=303)

    async def authenticate(self, request: Request) -> Response | bool:
        if await admin_of(request) is None:
            return RedirectResponse(f"{self.login_path}?next={request.url.path}", status_code=303)
        return True

    async def get_user_id(self, request: Request) -> Any:
        return request.session.get("key_id")


class ReadOnly(ModelView):
    can_create = False
    can_edit = False
    can_delete = False
    can_export = False
    page_size = 50
    page_size_options: ClassVar[list[int]] = [25, 50, 100]


class KeyTable(ReadOnly, model=ApiKey):
    name = "API key"
    column_list: ClassVar[list[Any]] = [
        ApiKey.name,
        ApiKey.role,
        ApiKey.prefix,
        ApiKey.created_at,
        ApiKey.revoked_at,
        ApiKey.last_used_at,
    ]
    # The hash is not a secret one can log in with, but there is no reason to show it either.
    column_details_exclude_list: ClassVar[list[Any]] = [ApiKey.key_hash]
    column_searchable_list: ClassVar[list[Any]] = [ApiKey.name, ApiKey.prefix]


class TrajectoryTable(ReadOnly, model=Trajectory):
    name_plural = "Trajectories"
    column_list: ClassVar[list[Any]] = [
        Trajectory.id,
        Trajectory.task_id,
        Trajectory.task_family,
        Trajectory.producer_model,
        Trajectory.verifier_passed,
        Trajectory.state,
        Trajectory.result_gene_id,
        Trajectory.received_at,
    ]
    column_searchable_list: ClassVar[list[Any]] = [Trajectory.task_id, Trajectory.producer_model]
    column_sortable_list: ClassVar[list[Any]] = [Trajectory.received_at, Trajectory.state, Trajectory.task_id]


class OutcomeTable(ReadOnly, model=Outcome):
    column_list: ClassVar[list[Any]] = [
        Outcome.id,
        Outcome.gene_id,
        Outcome.asset_id,
        Outcome.consumer_model,
        Outcome.task_id,
        Outcome.success,
        Outcome.tokens_used,
        Outcome.baseline_tokens,
        Outcome.created_at,
    ]
    column_searchable_list: ClassVar[list[Any]] = [Outcome.gene_id, Outcome.consumer_model, Outcome.task_id]
    column_sortable_list: ClassVar[list[Any]] = [Outcome.created_at, Outcome.gene_id, Outcome.consumer_model]


class GuardTable(ReadOnly, model=Guard):
    column_list: ClassVar[list[Any]] = [
        Guard.id,
        Guard.gene_id,
        Guard.text,
        Guard.evidence_count,
        Guard.kept,
        Guard.last_seen_at,
    ]
    column_details_exclude_list: ClassVar[list[Any]] = [Guard.embedding]
    column_searchable_list: ClassVar[list[Any]] = [Guard.gene_id, Guard.text]
    column_sortable_list: ClassVar[list[Any]] = [Guard.evidence_count, Guard.last_seen_at, Guard.gene_id]


class QualityTable(ReadOnly, model=GeneQuality):
    name = "Gene quality"
    name_plural = "Gene quality"
    column_list: ClassVar[list[Any]] = [
        GeneQuality.gene_id,
        GeneQuality.consumer_model,
        GeneQuality.reports,
        GeneQuality.successes,
        GeneQuality.failures,
        GeneQuality.lower_bound,
        GeneQuality.demoted,
        GeneQuality.updated_at,
    ]
    column_searchable_list: ClassVar[list[Any]] = [GeneQuality.gene_id, GeneQuality.consumer_model]


class ReputationTable(ReadOnly, model=ProducerReputation):
    name = "Producer reputation"
    name_plural = "Producer reputation"
    column_list: ClassVar[list[Any]] = [
        ProducerReputation.producer_model,
        ProducerReputation.reports,
        ProducerReputation.successes,
        ProducerReputation.failures,
        ProducerReputation.as_of,
    ]


class StatusChangeTable(ReadOnly, model=GeneStatusChange):
    name = "Status change"
    column_list: ClassVar[list[Any]] = [
        GeneStatusChange.id,
        GeneStatusChange.gene_id,
        GeneStatusChange.from_status,
        GeneStatusChange.to_status,
        GeneStatusChange.reason,
        GeneStatusChange.actor,
        GeneStatusChange.created_at,
    ]
    column_searchable_list: ClassVar[list[Any]] = [GeneStatusChange.gene_id, GeneStatusChange.actor]


class AuditTable(ReadOnly, model=AuditEntry):
    name = "Audit entry"
    name_plural = "Audit log"
    column_list: ClassVar[list[Any]] = [
        AuditEntry.id,
        AuditEntry.at,
        AuditEntry.actor,
        AuditEntry.action,
        AuditEntry.target,
        AuditEntry.status,
        AuditEntry.client,
    ]
    column_searchable_list: ClassVar[list[Any]] = [AuditEntry.actor, AuditEntry.action, AuditEntry.target]
    column_sortable_list: ClassVar[list[Any]] = [AuditEntry.at, AuditEntry.status]


VIEWS: tuple[type[ModelView], ...] = (
    KeyTable,
    TrajectoryTable,
    OutcomeTable,
    GuardTable,
    QualityTable,
    ReputationTable,
    StatusChangeTable,
    AuditTable,
)


def mount_tables(admin_app: FastAPI, state: State, login_path: str) -> Admin:
    tables = Admin(
        admin_app,
        session_maker=RuntimeSessions(state),
        base_url=TABLES_PATH,
        title="Genebank tables",
        authentication_backend=SessionAuth(login_path),
        templates_dir=str(TEMPLATES),
        favicon_url="/admin/static/favicon.svg",
    )
    # Like the admin app itself, sqladmin's own Starlette app reads the registry's shared state.
    tables.admin.state = state
    for view in VIEWS:
        tables.add_view(view)
    return tables
