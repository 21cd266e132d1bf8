"""genebank.client against the server's own code: the same answer shapes, a class for every problem type,
and the same methods blocking and asynchronous. A change on either side that the other does not follow
fails here, before an agent meets it."""

from __future__ import annotations

import importlib
import inspect
import os
import pkgutil
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from pydantic import BaseModel

import app
from app import batch
from app.errors import _HTTP_CODES, AppError
from app.evolution import schemas as evolution
from app.genes import schemas as genes
from app.gep import router as gep
from app.outcomes import schemas as outcomes
from app.schemas import Cost, TaskRef
from app.search import schemas as search
from app.trajectories import schemas as trajectories
from genebank import client as genebank_client
from genebank.client import PROBLEM_TYPES, AsyncClient, Client, models
from genebank.client.errors import PROBLEM_BASE, ProblemError

PAIRS: dict[type[BaseModel], type[BaseModel]] = {
    models.StageRank: search.StageRank,
    models.Explanation: search.Explanation,
    models.SearchResult: search.SearchResult,
    models.SearchResponse: search.SearchResponse,
    models.MatchedGene: search.MatchedGene,
    models.MatchResponse: search.MatchResponse,
    models.KeyRef: genes.KeyRef,
    models.TaskRef: TaskRef,
    models.Cost: Cost,
    models.Provenance: genes.ProvenanceRead,
    models.GeneVersion: genes.GeneVersionRead,
    models.GeneSummary: genes.GeneSummary,
    models.GenePage: genes.GenePage,
    models.VersionSummary: genes.VersionSummary,
    models.VersionPage: genes.VersionPage,
    models.Prompt: genes.PromptRead,
    models.PublishResult: genes.PublishResponse,
    models.OwnerChange: genes.OwnerChange,
    models.ValidationFinding: gep.FindingRead,
    models.ValidationReport: gep.ValidationReport,
    models.TrajectoryAccepted: trajectories.TrajectoryAccepted,
    models.Producer: trajectories.Producer,
    models.Trajectory: trajectories.TrajectoryRead,
    models.TrajectoryCounts: trajectories.StateCounts,
    models.TrajectoryPage: trajectories.TrajectoryPage,
    models.Event: evolution.EventRead,
    models.EventPage: evolution.EventPage,
    models.Backer: evolution.Backer,
    models.Guard: evolution.GuardRead,
    models.GuardList: evolution.GuardList,
    models.Quality: outcomes.QualityRead,
    models.OutcomeResult: outcomes.OutcomeRead,
    models.VersionQuality: outcomes.VersionQualityRead,
    models.Usage: outcomes.UsageRead,
    models.DiscoveryCost: outcomes.CostRead,
    models.StatusChange: outcomes.StatusChangeRead,
    models.Stats: outcomes.StatsRead,
    models.ProducerReputation: outcomes.ProducerRead,
    models.LifecycleChange: outcomes.LifecycleChange,
    models.BatchResult: batch.BatchAnswer,
}


def test_every_client_model_has_its_server_counterpart() -> None:
    defined = {
        cls
        for _, cls in inspect.getmembers(models, inspect.isclass)
        if issubclass(cls, models.Model) and cls is not models.Model
    }
    assert defined == set(PAIRS)


@pytest.mark.parametrize("ours", list(PAIRS), ids=lambda cls: cls.__name__)
def test_models_have_the_servers_fields(ours: type[BaseModel]) -> None:
    theirs = PAIRS[ours]
    assert set(ours.model_fields) == set(theirs.model_fields)
    for name, field in theirs.model_fields.items():
        # What the server may leave out, the client must not require.
        if not field.is_required():
            assert not ours.model_fields[name].is_required(), name


def _app_error_classes() -> list[type[AppError]]:
    for module in pkgutil.walk_packages(app.__path__, "app."):
        importlib.import_module(module.name)
    found: list[type[AppError]] = []
    stack = [AppError]
    while stack:
        for sub in stack.pop().__subclasses__():
            found.append(sub)
            stack.append(sub)
    return found


def test_every_problem_type_of_the_server_has_its_exception() -> None:
    server = _app_error_classes()
    assert len(server) >= 25  # the walk found the domain errors, not just app/errors.py
    for cls in server:
        ours = PROBLEM_TYPES.get(cls.code)
        assert ours is not None, f"no client exception for {cls.__module__}.{cls.__name__} ({cls.code})"
        assert ours.status == cls.status, cls.code
        parent = cls.__mro__[1]
        if parent is not AppError:
            # NotOwner is a Forbidden on both sides, so `except Forbidden` catches it in the client too.
            assert issubclass(ours, PROBLEM_TYPES[parent.code]), cls.code
    for status, code in _HTTP_CODES.items():
        assert PROBLEM_TYPES[code].status == status
    assert PROBLEM_TYPES["internal"].status == 500
    assert all(cls.code and issubclass(cls, ProblemError) for cls in PROBLEM_TYPES.values())


def test_problem_base_is_the_servers() -> None:
    from app.errors import PROBLEM_BASE as SERVER_BASE

    assert PROBLEM_BASE == SERVER_BASE


def _public(cls: type) -> dict[str, inspect.Signature]:
    return {
        name: inspect.signature(member)
        for name, member in vars(cls).items()
        if callable(member) and not name.startswith("_")
    }


def test_the_async_client_has_the_same_methods_as_the_blocking_one() -> None:
    blocking = _public(Client)
    asynchronous = _public(AsyncClient)
    blocking["aclose"] = blocking.pop("close")
    assert set(blocking) == set(asynchronous)
    for name, signature in blocking.items():
        other = asynchronous[name]
        assert list(signature.parameters.values()) == list(other.parameters.values()) or name == "__init__", (
            name
        )
        expected = str(signature.return_annotation).replace("Iterator[", "AsyncIterator[")
        assert str(other.return_annotation) == expected, name
        is_generator = inspect.isasyncgenfunction(getattr(AsyncClient, name))
        assert is_generator == name.startswith("iter_"), name
        if not is_generator:
            assert inspect.iscoroutinefunction(getattr(AsyncClient, name)), name


def test_the_package_exports_every_exception() -> None:
    exported = set(genebank_client.__all__)
    assert {cls.__name__ for cls in PROBLEM_TYPES.values()} <= exported


def test_the_client_stands_alone(tmp_path: Path) -> None:
    """genebank.client never imports the server: the light distribution has httpx and pydantic only."""
    client_root = Path(genebank_client.__file__).resolve().parents[2]
    for source in client_root.rglob("*.py"):
        assert not re.search(r"^\s*(from|import) app\b", source.read_text(), re.MULTILINE), source
    probe = (
        "import sys, genebank.client, genebank.client.cli, genebank.client.mcp_server; "
        "print(sorted(m for m in sys.modules if m == 'app' or m.startswith(('app.', 'sqlalchemy', 'torch'))))"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"} | {"PYTHONPATH": str(client_root)}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"
    config = tomllib.loads((client_root / "pyproject.toml").read_text())
    assert sorted(config["project"]["dependencies"]) == ["httpx>=0.27", "pydantic>=2.7"]
