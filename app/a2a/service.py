"""Rules of the GEP hub: nodes as principals, and the /a2a messages mapped onto the registry's own services.

A node belongs to a Genebank key and acts with that key's role: a publish is GeneService.publish by
that key, a review or report is OutcomeService.report by that key (same sybil rules as the API), a
failed Capsule is a failed run for the evolution worker (TrajectoryService.submit), search is
SearchService. Nothing here commits: the request's session does, or rolls everything back.
"""

from __future__ import annotations

import hashlib
import time
import uuid
from dataclasses import dataclass
from typing import Any

import psycopg
from pydantic import ValidationError
from sqlalchemy.ext.asyncio import AsyncSession

from app.a2a.errors import A2AError
from app.a2a.node_secrets import (
    SECRET,
    mint,
    new_node_id,
    publish_signature_ok,
    secret_hash,
    solidify_signature_ok,
)
from app.a2a.repository import AssetRepository, NodeRepository
from app.a2a.schemas import Envelope
from app.auth.keys import generate
from app.auth.principal import SYSTEM, Principal, Role
from app.auth.repository import KeyRepository
from app.auth.service import key_service
from app.config import Settings
from app.cpu import THREADS, CpuPool
from app.embeddings import EmbeddingService
from app.errors import AppError
from app.genes.repository import GeneRepository
from app.genes.schemas import PublishRequest
from app.genes.service import gene_service
from app.gep.canonical import canonical_json, compute_asset_id, js_number
from app.gep.document import LEGACY_FIELDS
from app.models import A2ANode, GeneStatus
from app.outcomes.lifecycle import lifecycle_service
from app.outcomes.repository import OutcomeRepository
from app.outcomes.schemas import OutcomeIn
from app.outcomes.service import ReportConflict, SelfReport, outcome_service
from app.redaction import Redactor
from app.search.schemas import SearchRequest
from app.search.service import search_service
from app.trajectories.schemas import TrajectoryIn
from app.trajectories.service import trajectory_service

MAX_FETCH_IDS = 50
SEARCH_K = 10
# verify-solidify carries the client's clock (ms); a grant is for now, not for a replayed old request.
SOLIDIFY_MAX_SKEW_MS = 15 * 60 * 1000
PRODUCER_AGENT = "gep-a2a node"
UNKNOWN_MODEL = "unknown"


@dataclass(frozen=True)
class NodeCaller:
    """An authenticated node: its owner key as the principal every registry service sees."""

    node_id: str
    principal: Principal
    open_registration: bool
    secret_hash: str
    hmac_inner: str
    hmac_outer: str


def _bearer(authorization: str | None) -> str | None:
    if authorization is None:
        return None
    scheme, _, token = authorization.partition(" ")
    if scheme.lower() != "bearer" or not SECRET.fullmatch(token.strip().lower()):
        raise A2AError(401, "invalid_secret", "Authorization must be Bearer <64-hex node secret>")
    return token.strip().lower()


def _node_fields(node: A2ANode) -> dict[str, Any]:
    return {
        "node_id": node.node_id,
        "key_id": node.key_id,
        "name": node.name,
        "secret_version": node.secret_version,
        "open_registration": node.open_registration,
        "created_at": node.created_at,
        "rotated_at": node.rotated_at,
        "revoked_at": node.revoked_at,
        "last_seen_at": node.last_seen_at,
    }


def _text(value: Any, limit: int) -> str | None:
    if value is None:
        return None
    text = value if isinstance(value, str) else canonical_json(value)
    text = text.strip()
    return text[:limit] if text else None


class NodeService:
    # Nodes: minted by an admin for a key, or by their own first hello under open registration.

    async def create(
        self,
        session: AsyncSession,
        key_id: uuid.UUID,
        *,
        name: str | None = None,
        node_id: str | None = None,
        open_registration: bool = False,
    ) -> tuple[A2ANode, str]:
        """A node for an active key, and its secret (returned this once, stored only hashed)."""
        key = await KeyRepository(session).get(key_id)
        if key is None or key.revoked_at is not None or key.id == SYSTEM.key_id:
            raise A2AError(422, "invalid_key", f"key {key_id} is not an active key of this registry")
        secret = mint()
        node = A2ANode(
            node_id=node_id or new_node_id(),
            key_id=key.id,
            name=name,
            secret_hash=secret.hash,
            hmac_inner=secret.inner,
            hmac_outer=secret.outer,
            open_registration=open_registration,
        )
        return await NodeRepository(session).add(node), secret.secret

    async def list(self, session: AsyncSession) -> list[dict[str, Any]]:
        return [_node_fields(node) for node in await NodeRepository(session).list()]

    async def revoke(self, session: AsyncSession, node_id: str) -> dict[str, Any]:
        repo = NodeRepository(session)
        node = await repo.get(node_id, lock=True)
        if node is None:
            raise A2AError(404, "node_not_found", f"no node {node_id}")
        if node.revoked_at is not None:
            raise A2AError(409, "node_revoked", f"node {node_id} was already revoked")
        await repo.revoke(node_id)
        node = await repo.get(node_id)
        assert node is not None
        return _node_fields(node)

    def fields(self, node: A2ANode) -> dict[str, Any]:
        return _node_fields(node)

    async def seen(self, session: AsyncSession, node_id: str) -> None:
        await NodeRepository(session).seen(node_id)

    async def authenticate(
        self, session: AsyncSession, authorization: str | None, sender_id: str | None
    ) -> NodeCaller:
        token = _bearer(authorization)
        if token is None:
            raise A2AError(
                401, "node_secret_required", "send the node secret: Authorization: Bearer <node_secret>"
            )
        found = await NodeRepository(session).with_key(secret_hash(token))
        if found is None:
            raise A2AError(401, "invalid_secret", "unknown node secret")
        node, key = found
        if sender_id is not None and node.node_id != sender_id:
            raise A2AError(403, "sender_mismatch", "sender_id is not the node this secret belongs to")
        if node.revoked_at is not None:
            raise A2AError(403, "node_revoked", f"node {node.node_id} was revoked")
        if key.revoked_at is not None:
            raise A2AError(403, "key_revoked", f"the key that owns node {node.node_id} was revoked")
        principal = Principal(
            key_id=key.id, name=key.name, role=Role[key.role], consumer_model=key.consumer_model
        )
        return NodeCaller(
            node_id=node.node_id,
            principal=principal,
            open_registration=node.open_registration,
            secret_hash=node.secret_hash,
            hmac_inner=node.hmac_inner,
            hmac_outer=node.hmac_outer,
        )

    async def hello(
        self, session: AsyncSession, envelope: Envelope, authorization: str | None, settings: Settings
    ) -> tuple[dict[str, Any], Principal]:
        """Register (open registration only), acknowledge, or rotate the secret (`rotate_secret`)."""
        repo = NodeRepository(session)
        node_id = envelope.sender_id
        rotate = envelope.payload.get("rotate_secret") is True
        node = await repo.get(node_id, lock=True)
        if node is None:
            if not settings.a2a_open_registration:
                raise A2AError(
                    403,
                    "node_not_registered",
                    f"{node_id} is not a node of this hub: an admin mints one with "
                    "`genebank nodes create --key-id …` (set A2A_NODE_ID and A2A_NODE_SECRET)",
                )
            name = _text(envelope.payload.get("name"), 200)
            key = await key_service.create(
                session,
                name=f"a2a open node {node_id}",
                role=Role.producer,
                created_by=None,
                new=generate(),  # never shown: the node authenticates with its own secret
            )
            node, minted = await self.create(
                session, key.key.id, name=name, node_id=node_id, open_registration=True
            )
            owner = Principal(key_id=key.key.id, name=key.key.name, role=Role.producer)
            return self._secret_answer(minted, node.secret_version, registered=True), owner
        token = _bearer(authorization)
        owner = await self._owner(session, node)
        if token is None:
            if rotate:
                raise A2AError(401, "rotation_requires_current_secret", "a rotation needs the current secret")
            # A node that keeps its secret in A2A_NODE_SECRET: nothing to hand out, nothing disclosed.
            return {"payload": {"status": "acknowledged", "node_secret_version": node.secret_version}}, owner
        if secret_hash(token) != node.secret_hash:
            raise A2AError(401, "node_secret_invalid", "that is not this node's current secret")
        if node.revoked_at is not None:
            raise A2AError(403, "node_revoked", f"node {node_id} was revoked")
        if not rotate:
            await repo.seen(node_id)
            return {"payload": {"status": "acknowledged", "node_secret_version": node.secret_version}}, owner
        secret = mint()
        version = await repo.rotate(node_id, secret.hash, secret.inner, secret.outer)
        return self._secret_answer(secret.secret, version, registered=False), owner

    @staticmethod
    async def _owner(session: AsyncSession, node: A2ANode) -> Principal:
        key = await KeyRepository(session).get(node.key_id)
        assert key is not None
        if key.revoked_at is not None:
            raise A2AError(403, "key_revoked", f"the key that owns node {node.node_id} was revoked")
        return Principal(key_id=key.id, name=key.name, role=Role[key.role], consumer_model=key.consumer_model)

    @staticmethod
    def _secret_answer(secret: str, version: int, *, registered: bool) -> dict[str, Any]:
        return {
            "payload": {
                "status": "registered" if registered else "acknowledged",
                "node_secret": secret,
                "node_secret_version": version,
            }
        }


# --- publish -----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Bundle:
    gene: dict[str, Any]
    capsule: dict[str, Any]
    event: dict[str, Any] | None

    @property
    def assets(self) -> list[dict[str, Any]]:
        return [self.gene, self.capsule] + ([self.event] if self.event is not None else [])

    @property
    def bundle_id(self) -> str:
        ids = "|".join(sorted(str(asset["asset_id"]) for asset in self.assets))
        return "bundle_" + hashlib.sha256(ids.encode()).hexdigest()[:32]

    @property
    def success(self) -> bool:
        outcome = self.capsule.get("outcome")
        return isinstance(outcome, dict) and outcome.get("status") == "success"


def _bundle(payload: dict[str, Any]) -> Bundle:
    assets = payload.get("assets")
    if not isinstance(assets, list) or not 2 <= len(assets) <= 3:
        raise A2AError(
            422, "invalid_bundle", "assets must be [Gene, Capsule] or [Gene, Capsule, EvolutionEvent]"
        )
    by_type: dict[str, list[dict[str, Any]]] = {}
    for asset in assets:
        if not isinstance(asset, dict) or not isinstance(asset.get("type"), str):
            raise A2AError(422, "invalid_bundle", "every asset is a JSON object with a type")
        by_type.setdefault(asset["type"], []).append(asset)
    genes, capsules = by_type.pop("Gene", []), by_type.pop("Capsule", [])
    events = by_type.pop("EvolutionEvent", [])
    if len(genes) != 1 or len(capsules) != 1 or len(events) > 1 or by_type:
        raise A2AError(
            422, "invalid_bundle", "a bundle is one Gene, one Capsule and at most one EvolutionEvent"
        )
    for asset in assets:
        if not isinstance(asset.get("asset_id"), str):
            raise A2AError(
                422, "asset_id_missing", f"{asset['type']} {str(asset.get('id'))[:80]!r} has no asset_id"
            )
        if not isinstance(asset.get("id"), str) or not asset["id"].strip():
            raise A2AError(422, "invalid_bundle", f"every {asset['type']} needs a string id")
    return Bundle(genes[0], capsules[0], events[0] if events else None)


def _check_hashes(bundle: Bundle) -> None:
    """Each asset_id must be the hash of its asset as sent: a tampered asset is refused."""
    for asset in bundle.assets:
        expected = compute_asset_id(asset)
        if asset["asset_id"] != expected:
            raise A2AError(
                422,
                "asset_id_mismatch",
                f"{asset['type']} {asset['id'][:80]!r}: asset_id does not match its content",
                extra={
                    "asset_type": asset["type"],
                    "local_id": asset["id"][:200],
                    "expected_asset_id": expected,
                },
            )


def _steps(capsule: dict[str, Any], success: bool) -> list[dict[str, Any]]:
    trace = capsule.get("execution_trace")
    steps = []
    if isinstance(trace, list):
        for entry in trace[:500]:
            if isinstance(entry, dict):
                action = _text(entry.get("cmd") or entry.get("stage") or entry.get("action"), 4000)
                ok = entry.get("exit") == 0 if "exit" in entry else success
            else:
                action, ok = None, success
            steps.append(
                {
                    "action": action or _text(entry, 4000) or "step",
                    "observation": _text(entry, 20_000),
                    "ok": bool(ok),
                }
            )
    if not steps:
        action = _text(capsule.get("content"), 4000) or _text(capsule.get("summary"), 4000) or capsule["id"]
        steps.append({"action": action, "ok": success})
    return steps


def _run(bundle: Bundle, node_id: str) -> dict[str, Any]:
    """The Capsule as a run of the registry: task, producer model, verifier result and steps."""
    capsule, gene = bundle.capsule, bundle.gene
    outcome = capsule.get("outcome") if isinstance(capsule.get("outcome"), dict) else {}
    assert isinstance(outcome, dict)
    score = outcome.get("score")
    model = _text(gene.get("model_name"), 200) or _text(capsule.get("model_name"), 200) or UNKNOWN_MODEL
    description = (
        _text(capsule.get("summary"), 4000)
        or _text(capsule.get("content"), 4000)
        or _text(gene.get("summary"), 4000)
        or capsule["id"]
    )
    return {
        "producer_model": model,
        "task": {"id": capsule["id"][:200], "description": description},
        "verifier": {
            "name": "gep-capsule",
            "passed": bundle.success,
            "score": float(score)
            if isinstance(score, (int, float)) and not isinstance(score, bool)
            else None,
            "details": {
                "capsule_asset_id": capsule["asset_id"],
                "outcome_status": _text(outcome.get("status"), 100),
                "node_id": node_id,
            },
        },
        "steps": _steps(capsule, bundle.success),
    }


def _publish_request(bundle: Bundle, run: dict[str, Any]) -> PublishRequest:
    # POST /v1/genes converts these older Genebank fields, which changes the asset_id: over /a2a the
    # Gene is stored under the id the node signed, so a GEP Gene is taken only as it is.
    if legacy := [name for name in LEGACY_FIELDS if name in bundle.gene]:
        raise A2AError(
            422,
            "invalid_gene",
            "not GEP Gene fields: " + ", ".join(legacy) + " (guards go in anti_patterns)",
            extra={"errors": [{"path": "/" + name, "message": "not a GEP Gene field"} for name in legacy]},
        )
    provenance: dict[str, Any] = {"kind": "manual", "producer_model": run["producer_model"]}
    if bundle.success:
        provenance = {
            "kind": "verified_trajectory",
            "producer_model": run["producer_model"],
            "verifier": run["verifier"],
            "task": run["task"],
            "trajectory": {"steps": run["steps"], "producer_agent": PRODUCER_AGENT},
        }
    try:
        return PublishRequest.model_validate({"gene": bundle.gene, "provenance": provenance})
    except ValidationError as exc:
        errors = [
            {"path": "/" + "/".join(str(part) for part in error["loc"]), "message": error["msg"][:300]}
            for error in exc.errors(include_url=False)[:20]
        ]
        raise A2AError(
            422, "invalid_gene", "the Gene does not pass the registry's rules", extra={"errors": errors}
        ) from None


def _secret_scan(bundle: Bundle) -> None:
    scanner = Redactor()
    for asset in bundle.assets[1:]:
        scanner.json(asset)
    if scanner.kinds:
        raise A2AError(
            422,
            "contains_secret",
            "an asset contains what looks like a secret (" + ", ".join(sorted(scanner.kinds)) + "): "
            "assets are served as sent, so remove it and publish again",
        )


class HubService:
    async def publish(
        self,
        session: AsyncSession,
        caller: NodeCaller,
        envelope: Envelope,
        embeddings: EmbeddingService,
        *,
        dry_run: bool,
        cpu: CpuPool = THREADS,
    ) -> dict[str, Any]:
        """Check a bundle (signature, hashes, Gene rules); store and index it unless `dry_run`."""
        if not caller.principal.at_least(Role.producer):
            raise A2AError(
                403,
                "forbidden",
                f"node {caller.node_id} belongs to a {caller.principal.role.name} key: "
                "publishing needs a producer key",
            )
        bundle = _bundle(envelope.payload)
        signature = envelope.payload.get("signature")
        signed = [bundle.gene["asset_id"], bundle.capsule["asset_id"]]
        if not isinstance(signature, str) or not publish_signature_ok(
            caller.hmac_inner, caller.hmac_outer, signed, signature
        ):
            raise A2AError(
                403, "invalid_signature", "signature is not HMAC-SHA256(node_secret, sorted asset ids)"
            )
        _check_hashes(bundle)
        if bundle.capsule.get("gene") != bundle.gene["id"]:
            raise A2AError(422, "gene_mismatch", "the Capsule's gene must be the Gene's id")
        run = _run(bundle, caller.node_id)
        request = _publish_request(bundle, run)
        _secret_scan(bundle)
        asset_ids = [asset["asset_id"] for asset in bundle.assets]
        if dry_run:
            return {
                "payload": {"valid": True, "ok": True, "asset_ids": asset_ids, "bundle_id": bundle.bundle_id}
            }
        nodes = NodeRepository(session)
        if not await nodes.remember_message(caller.node_id, envelope.message_id, "publish"):
            raise A2AError(409, "duplicate_message_id", f"message {envelope.message_id} was already received")
        published = await gene_service.publish(session, request, embeddings, actor=caller.principal, cpu=cpu)
        version = published.version
        assets = AssetRepository(session)
        capsule_known = await assets.get(bundle.capsule["asset_id"]) is not None
        trajectory_id = None
        if not capsule_known and (not bundle.success or not published.created):
            # A failed Capsule is a failed run (guards for the worker); a successful one for a version
            # that already existed is more evidence for it, through the worker too.
            trajectory_id = await self._submit_run(session, caller, bundle, run, cpu)
        stored = []
        for asset in bundle.assets:
            stored.append(
                await assets.add_if_absent(
                    {
                        "asset_id": asset["asset_id"],
                        "asset_type": asset["type"],
                        "local_id": asset["id"],
                        "gene_id": version.gene_id,
                        "gene_asset_id": version.asset_id,
                        "document": asset,  # as sent: served back unchanged
                        "node_id": caller.node_id,
                        "bundle_id": bundle.bundle_id,
                        "trajectory_id": trajectory_id if asset is bundle.capsule else None,
                    }
                )
            )
        created = any(stored)
        return {
            "payload": {
                "status": "accepted",
                "decision": "accept",
                "asset_ids": asset_ids,
                "bundle_id": bundle.bundle_id,
                "receipt_id": "rcpt_" + envelope.message_id.removeprefix("msg_"),
                "already_published": not created and not published.created,
                "gene_id": version.gene_id,
                "version": version.version,
                "trajectory_id": str(trajectory_id) if trajectory_id else None,
            }
        }

    @staticmethod
    async def _submit_run(
        session: AsyncSession, caller: NodeCaller, bundle: Bundle, run: dict[str, Any], cpu: CpuPool
    ) -> uuid.UUID:
        body = TrajectoryIn.model_validate(
            {
                "task": run["task"],
                "producer": {"model": run["producer_model"], "agent": PRODUCER_AGENT},
                "steps": run["steps"],
                "verifier": run["verifier"],
                "gene_id": bundle.gene["id"],
            }
        )
        submitted = await trajectory_service.submit(session, body, submitter=caller.principal, cpu=cpu)
        return submitted.id

    # --- fetch ---------------------------------------------------------------------------------

    async def fetch(
        self,
        session: AsyncSession,
        conn: psycopg.AsyncConnection[Any],
        payload: dict[str, Any],
        embeddings: EmbeddingService,
        settings: Settings,
    ) -> dict[str, Any]:
        if payload.get("tasks_only") is True or payload.get("validation_only") is True:
            return {"payload": {"results": [], "tasks": [], "validation_tasks": []}}
        extra: dict[str, Any] = {"tasks": []} if payload.get("include_tasks") is True else {}
        asset_ids = payload.get("asset_ids")
        if asset_ids is not None:
            if not isinstance(asset_ids, list) or not all(isinstance(a, str) for a in asset_ids):
                raise A2AError(422, "invalid_payload", "asset_ids must be a list of asset ids")
            if len(asset_ids) > MAX_FETCH_IDS:
                raise A2AError(422, "invalid_payload", f"at most {MAX_FETCH_IDS} asset_ids at once")
            documents = await self.documents(session, conn, asset_ids)
            return {"payload": {"results": [documents[a] for a in asset_ids if a in documents], **extra}}
        signals = payload.get("signals")
        clean = []
        if isinstance(signals, list):
            clean = [s[:260] for s in signals if isinstance(s, str) and s.strip()][:32]
        if not clean:
            return {"payload": {"results": [], **extra}}
        rows = await self.search_rows(session, conn, clean, embeddings, settings)
        if payload.get("search_only") is True:
            return {"payload": {"results": rows, **extra}}
        documents = await self.documents(session, conn, [row["asset_id"] for row in rows])
        return {
            "payload": {
                "results": [documents[r["asset_id"]] for r in rows if r["asset_id"] in documents],
                **extra,
            }
        }

    async def documents(
        self, session: AsyncSession, conn: psycopg.AsyncConnection[Any], asset_ids: list[str]
    ) -> dict[str, dict[str, Any]]:
        """Stored assets by id, as sent: Gene versions from the registry, the rest from the hub's store."""
        found: dict[str, dict[str, Any]] = {}
        for asset_id in dict.fromkeys(asset_ids):
            try:
                view = await gene_service.read_version(conn, asset_id=asset_id)
            except AppError:
                continue
            found[asset_id] = view.document()
        rest = [a for a in asset_ids if a not in found]
        if rest:
            for asset_id, row in (await AssetRepository(session).many(rest)).items():
                if row.asset_type != "Gene":  # a Gene is served only while its version is (not revoked)
                    found[asset_id] = row.document
        return found

    async def search_rows(
        self,
        session: AsyncSession,
        conn: psycopg.AsyncConnection[Any],
        signals: list[str],
        embeddings: EmbeddingService,
        settings: Settings,
    ) -> list[dict[str, Any]]:
        """Genebank's search as the client's metadata rows (see docs/a2a.md, "Search rows").

        Only results Genebank calls `found` are rows; `confidence` is the calibrated quality (the
        lower quantile of the Gene's success posterior), `reputation_score` its producer's reputation
        ×100, `success_streak` its latest successes in a row.
        """
        response = await search_service.search(
            conn, SearchRequest(signals=signals, k=SEARCH_K, explain=True), embeddings, settings
        )
        results = [
            r for r in response.results if r.confidence == "found" and not r.demoted_for_consumer_model
        ]
        if not results:
            return []
        streaks = await AssetRepository(session).success_streaks([r.gene_id for r in results])
        outcomes = OutcomeRepository(session)
        now = await GeneRepository(session).now()
        reputations: dict[str, float] = {}
        sources = await AssetRepository(session).many([r.asset_id for r in results])
        documents = await self.documents(session, conn, [r.asset_id for r in results])
        rows = []
        for result in results:
            if result.producer_model not in reputations:
                reputations[result.producer_model] = await outcome_service.prior_mean(
                    outcomes, result.producer_model, now, settings
                )
            document = documents.get(result.asset_id, {})
            assert result.explain is not None
            row: dict[str, Any] = {
                "asset_id": result.asset_id,
                "asset_type": "Gene",
                "type": "Gene",
                "local_id": result.gene_id,
                "summary": result.summary,
                "category": result.category,
                "signals_match": document.get("signals_match", []),
                "confidence": round(result.explain.quality, 4),
                "success_streak": streaks.get(result.gene_id, 0),
                "reputation_score": round(reputations[result.producer_model] * 100),
                "status": result.status,
                "genebank": {
                    "gene_id": result.gene_id,
                    "version": result.version,
                    "rank_score": result.score,
                    "relevance": result.confidence,
                    "signal_hits": result.signal_hits,
                },
            }
            if (source := sources.get(result.asset_id)) is not None:
                row["source_node_id"] = source.node_id
            rows.append(row)
        return rows

    # --- verification, reviews and reports -------------------------------------------------------

    def verify_solidify(self, caller: NodeCaller, body: dict[str, Any]) -> dict[str, Any]:
        fields = [body.get(name) for name in ("gene_id", "signals_hash", "mutation_hash")]
        ts, signature = body.get("ts"), body.get("client_signature")
        if not all(isinstance(f, str) and f for f in fields) or not isinstance(signature, str):
            raise A2AError(
                422, "invalid_payload", "needs gene_id, signals_hash, mutation_hash, ts and client_signature"
            )
        if not isinstance(ts, (int, float)) or isinstance(ts, bool):
            raise A2AError(422, "invalid_payload", "ts must be the client's time in milliseconds")
        if abs(time.time() * 1000 - ts) > SOLIDIFY_MAX_SKEW_MS:
            raise A2AError(403, "stale_request", "ts is more than 15 minutes from the hub's clock")
        message = "|".join([caller.node_id, *[str(f) for f in fields], js_number(ts)])
        if not solidify_signature_ok(caller.secret_hash, message, signature):
            raise A2AError(403, "invalid_signature", "client_signature does not verify")
        return {"ok": True, "status": "ok"}

    async def _target(self, session: AsyncSession, asset_id: str) -> tuple[str, str] | None:
        """(gene_id, version asset_id) of a Gene version, or of the version a Capsule was published with."""
        version = await GeneRepository(session).version_by_asset(asset_id)
        if version is not None:
            return version.gene_id, version.asset_id
        row = await AssetRepository(session).get(asset_id)
        if row is not None and row.gene_id is not None and row.gene_asset_id is not None:
            return row.gene_id, row.gene_asset_id
        return None

    async def _report(
        self,
        session: AsyncSession,
        caller: NodeCaller,
        asset_id: str,
        outcome: dict[str, Any],
        settings: Settings,
    ) -> dict[str, Any]:
        target = await self._target(session, asset_id)
        if target is None:
            raise A2AError(404, "asset_not_found", f"no asset {asset_id[:80]} in this hub")
        if caller.open_registration:
            return {"status": "ok", "counted": False, "reason": "open_registration"}
        gene_id, version_asset = target
        body = OutcomeIn.model_validate(
            {
                "asset_id": version_asset,
                "consumer_model": caller.principal.consumer_model or UNKNOWN_MODEL,
                **outcome,
            }
        )
        try:
            reported = await outcome_service.report(session, gene_id, body, caller.principal, settings)
        except SelfReport:
            return {"status": "ok", "counted": False, "reason": "self_report"}
        return {
            "status": "ok",
            "counted": True,
            "created": reported.created,
            "gene_id": gene_id,
            "gene_status": reported.outcome.status,
        }

    async def review(
        self,
        session: AsyncSession,
        caller: NodeCaller,
        asset_id: str,
        body: dict[str, Any],
        settings: Settings,
    ) -> dict[str, Any]:
        rating, content = body.get("rating"), body.get("content")
        if not isinstance(rating, int) or isinstance(rating, bool) or not 1 <= rating <= 5:
            raise A2AError(422, "invalid_payload", "rating must be an integer from 1 to 5")
        outcome: dict[str, Any] = {"task_id": f"a2a-review:{caller.node_id}", "success": rating >= 4}
        if rating == 3:
            outcome.update(reason="partial", score=0.5)
        if isinstance(content, str) and content.strip():
            outcome["note"] = content.strip()[:500]
        try:
            answer = await self._report(session, caller, asset_id, outcome, settings)
        except ReportConflict:
            raise A2AError(409, "already_reviewed", "this node already reviewed this asset") from None
        if answer.get("counted") and not answer.get("created"):
            raise A2AError(409, "already_reviewed", "this node already reviewed this asset")
        return answer

    async def report(
        self, session: AsyncSession, caller: NodeCaller, envelope: Envelope, settings: Settings
    ) -> dict[str, Any]:
        await self._remember(session, caller, envelope)
        payload = envelope.payload
        target = payload.get("target_asset_id")
        report = payload.get("validation_report")
        verdict = None
        for source in (report if isinstance(report, dict) else {}, payload):
            for name in ("overall_ok", "ok", "success", "passed"):
                if isinstance(source.get(name), bool):
                    verdict = source[name]
                    break
            if verdict is not None:
                break
        if not isinstance(target, str) or verdict is None:
            # A validator's task report, or a report without a verdict: acknowledged, not counted.
            return {"status": "ok", "counted": False}
        outcome: dict[str, Any] = {"task_id": f"a2a-report:{envelope.message_id}", "success": verdict}
        return await self._report(session, caller, target, outcome, settings)

    async def decision(self, session: AsyncSession, caller: NodeCaller, envelope: Envelope) -> dict[str, Any]:
        await self._remember(session, caller, envelope)
        # A node's own accept/reject/quarantine verdict on an asset: recorded in the audit log only.
        return {"status": "ok", "applied": False}

    async def revoke(self, session: AsyncSession, caller: NodeCaller, envelope: Envelope) -> dict[str, Any]:
        await self._remember(session, caller, envelope)
        target = envelope.payload.get("target_asset_id")
        if not isinstance(target, str):
            raise A2AError(422, "invalid_payload", "target_asset_id is required")
        version = await GeneRepository(session).version_by_asset(target)
        if version is None:
            if await AssetRepository(session).get(target) is None:
                raise A2AError(404, "asset_not_found", f"no asset {target[:80]} in this hub")
            return {"status": "ok", "applied": False}
        reason = _text(envelope.payload.get("reason"), 1000) or ""
        if len(reason) < 3:
            reason = f"revoked by node {caller.node_id}"
        gene = await GeneRepository(session).get_gene(version.gene_id)
        if gene is not None and gene.status == GeneStatus.revoked:
            return {"status": "ok", "applied": False, "gene_status": "revoked"}
        change = await lifecycle_service.set_status(
            session, version.gene_id, "revoked", reason, caller.principal
        )
        return {"status": "ok", "applied": True, "gene_id": change.gene_id, "gene_status": change.status}

    @staticmethod
    async def _remember(session: AsyncSession, caller: NodeCaller, envelope: Envelope) -> None:
        if not await NodeRepository(session).remember_message(
            caller.node_id, envelope.message_id, envelope.message_type
        ):
            raise A2AError(409, "duplicate_message_id", f"message {envelope.message_id} was already received")

    # --- sync ----------------------------------------------------------------------------------

    async def published_by(
        self,
        session: AsyncSession,
        caller: NodeCaller,
        *,
        limit: int,
        cursor: str | None,
        asset_type: str | None,
    ) -> dict[str, Any]:
        after = None
        if cursor:
            if not cursor.isdigit() or len(cursor) > 18:
                raise A2AError(422, "invalid_cursor", "cursor must be a next_cursor of this list")
            after = int(cursor)
        rows = await AssetRepository(session).published_by(
            caller.node_id, after=after, limit=limit + 1, asset_type=asset_type
        )
        page = rows[:limit]
        return {
            "assets": [
                {
                    "asset_id": row.asset_id,
                    "asset_type": row.asset_type,
                    "local_id": row.local_id,
                    "summary": row.document.get("summary"),
                    "payload": row.document,
                }
                for row in page
            ],
            "count": len(page),
            "has_more": len(rows) > limit,
            "next_cursor": str(page[-1].seq) if len(rows) > limit else None,
        }

    async def asset(
        self, session: AsyncSession, conn: psycopg.AsyncConnection[Any], asset_id: str
    ) -> dict[str, Any]:
        documents = await self.documents(session, conn, [asset_id])
        if asset_id not in documents:
            raise A2AError(404, "asset_not_found", f"no asset {asset_id[:80]} in this hub")
        return {"payload": documents[asset_id]}


node_service = NodeService()
hub_service = HubService()
