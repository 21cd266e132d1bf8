"""The deployment files: accepted by docker-compose, and everything they set or run exists in Genebank.

There is no Docker engine in CI, so the image is not built here: the Dockerfile is checked by reading
it, and `genebank export-model`, the one command its build runs, is tested directly (tests/test_cli.py).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path
from typing import Any

import pytest
import yaml
from typer.main import get_command

from app.cli import cli
from app.config import Settings
from tests import external

ROOT = Path(__file__).resolve().parent.parent
COMPOSE = ROOT / "docker-compose.yml"
DOCKERFILE = ROOT / "Dockerfile"
# Variables read by Python, pip and the embedding libraries, not by Genebank's Settings.
THIRD_PARTY = {
    "PYTHONDONTWRITEBYTECODE",
    "PYTHONUNBUFFERED",
    "PIP_NO_CACHE_DIR",
    "HF_HUB_OFFLINE",
    "TRANSFORMERS_OFFLINE",
}


def compose_file() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load(COMPOSE.read_text())
    return loaded


def dockerfile_instructions() -> list[tuple[str, str]]:
    """(INSTRUCTION, arguments) with continuation lines joined and comments dropped."""
    text = re.sub(r"\\\n\s*", " ", DOCKERFILE.read_text())
    lines = [line.strip() for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    return [(line.split(None, 1)[0].upper(), line.split(None, 1)[1]) for line in lines]


def dockerfile_env() -> dict[str, str]:
    env = {}
    for instruction, arguments in dockerfile_instructions():
        if instruction == "ENV":
            for pair in shlex.split(arguments):
                name, _, value = pair.partition("=")
                env[name] = value
    return env


def genebank_services() -> dict[str, dict[str, Any]]:
    """The services that run this repository's image."""
    return {name: service for name, service in compose_file()["services"].items() if "build" in service}


def test_docker_compose_config_is_valid() -> None:
    docker_compose = external.docker_compose()
    result = subprocess.run(
        [docker_compose, "config"],
        cwd=ROOT,
        env={**os.environ, "GENEBANK_DB_PASSWORD": "only-for-this-check"},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    resolved = yaml.safe_load(result.stdout)
    assert set(resolved["services"]) == {"db", "api", "worker"}
    for name in ("api", "worker"):
        assert resolved["services"][name]["depends_on"] == {"db": {"condition": "service_healthy"}}
    assert "genebank-data:/var/lib/genebank" in " ".join(resolved["services"]["api"]["volumes"])

    unset = {k: v for k, v in os.environ.items() if k != "GENEBANK_DB_PASSWORD"}
    refused = subprocess.run(
        [docker_compose, "config"], cwd=ROOT, env=unset, capture_output=True, text=True, check=False
    )
    assert refused.returncode != 0 and "set GENEBANK_DB_PASSWORD" in refused.stderr


def test_compose_file_has_no_obsolete_version_and_waits_for_a_healthy_database() -> None:
    compose = compose_file()
    assert "version" not in compose
    assert "healthcheck" in compose["services"]["db"]
    for service in genebank_services().values():
        assert service["depends_on"]["db"]["condition"] == "service_healthy"


def test_every_environment_variable_set_for_genebank_is_a_real_setting(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fields = set(Settings.model_fields)
    sources = {"Dockerfile": dockerfile_env()}
    sources |= {
        f"compose service {name}": s.get("environment", {}) for name, s in genebank_services().items()
    }
    for source, env in sources.items():
        for name in env:
            if name in THIRD_PARTY:
                continue
            assert name.startswith("GENEBANK_"), f"{source} sets {name}, which nothing reads"
            assert name.removeprefix("GENEBANK_").lower() in fields, f"{source} sets {name}: no such setting"
    # And the values parse: what a container of each service would start with.
    for name, service in genebank_services().items():
        values = {**dockerfile_env(), **service.get("environment", {})}
        values = {
            k: v.replace("${GENEBANK_DB_PASSWORD:?set GENEBANK_DB_PASSWORD}", "pw") for k, v in values.items()
        }
        for key in [k for k in os.environ if k.startswith("GENEBANK_")]:
            monkeypatch.delenv(key)
        for key, value in values.items():
            monkeypatch.setenv(key, str(value))
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert settings.database_url is not None, name
        assert settings.embedding_models_dir != settings.data_dir / "models", name


def test_the_commands_the_image_runs_exist() -> None:
    commands = set(get_command(cli).commands)  # type: ignore[attr-defined]
    run = [args for instruction, args in dockerfile_instructions() if instruction in ("RUN", "CMD")]
    # `genebank CMD` at the start of a shell command, or ["genebank", "CMD"] in exec form.
    command = re.compile(r'(?:^|&&|;|\[)\s*"?genebank"?,?\s+"?([a-z-]+)')
    invoked = [match.group(1) for line in run for match in command.finditer(line)]
    invoked += [service["command"][1] for service in genebank_services().values()]
    assert {"serve", "worker", "export-model"} <= set(invoked)
    assert set(invoked) <= commands


def test_the_image_user_owns_its_data_volume_and_the_model_is_built_in() -> None:
    steps = dockerfile_instructions()
    env = dockerfile_env()
    data_dir = env["GENEBANK_DATA_DIR"]
    assert ("USER", "genebank") in steps
    assert ("VOLUME", f'["{data_dir}"]') in steps
    build = " ".join(args for instruction, args in steps if instruction == "RUN")
    assert f"install -d -o genebank -g genebank -m 0700 {data_dir}" in build
    assert "--create-home" in build  # the user has a home it owns (libraries cache under ~)
    # The model is exported before USER: into a directory outside the volume, which would hide it.
    export_at = next(i for i, (ins, args) in enumerate(steps) if ins == "RUN" and "export-model" in args)
    assert export_at < steps.index(("USER", "genebank"))
    assert not env["GENEBANK_MODELS_DIR"].startswith(data_dir)
    api = genebank_services()["api"]
    assert any(volume.endswith(f":{data_dir}") for volume in api["volumes"])
    assert api["environment"]["GENEBANK_BOOTSTRAP_ADMIN_KEY_FILE"].startswith(data_dir + "/")


def test_ci_runs_the_readme_test_command_and_requires_every_test() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in readme
    assert "make test" in ci
    assert "export GENEBANK_REQUIRE_BROWSER=1" in ci
    assert "export GENEBANK_REQUIRE_DOCKER_COMPOSE=1" in ci
    assert "export GENEBANK_REQUIRE_REDIS=1" in ci
    assert "export GENEBANK_REQUIRE_NODE=1" in ci
    assert "npm install --ignore-scripts" in ci and "@evomap/evolver@1.94.0" in ci


SCALED = ROOT / "deploy" / "docker-compose.scale.yml"
NGINX = ROOT / "deploy" / "nginx.conf"


def test_the_scaled_topology_is_valid_and_sets_only_real_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    docker_compose = external.docker_compose()
    secrets = {"GENEBANK_DB_PASSWORD": "only-for-this-check", "GENEBANK_ADMIN_SESSION_SECRET": "x" * 40}
    result = subprocess.run(
        [docker_compose, "-f", str(SCALED), "config"],
        cwd=ROOT,
        env={**os.environ, **secrets},
        capture_output=True,
        text=True,
        check=False,
    )
    assert result.returncode == 0, result.stderr
    services = yaml.safe_load(result.stdout)["services"]
    assert set(services) == {"db", "db-replica", "redis", "api1", "api2", "worker1", "worker2", "nginx"}
    commands = set(get_command(cli).commands)  # type: ignore[attr-defined]
    for name in ("api1", "api2", "worker1", "worker2"):
        service = services[name]
        assert service["command"][0] == "genebank" and service["command"][1] in commands
        assert {"db", "db-replica", "redis"} <= set(service["depends_on"])
        for key in [k for k in os.environ if k.startswith("GENEBANK_")]:
            monkeypatch.delenv(key)
        for key, value in service["environment"].items():
            assert key.removeprefix("GENEBANK_").lower() in Settings.model_fields, f"{name} sets {key}"
            monkeypatch.setenv(key, str(value))
        settings = Settings(_env_file=None)  # type: ignore[call-arg]
        assert settings.read_database_urls and settings.rate_limit_storage.startswith("async+redis://")
    # nginx sends every key to one of the API services, on the port they listen on.
    conf = NGINX.read_text()
    assert re.findall(r"server (\S+):8000", conf) == ["api1", "api2"]
    assert "hash $http_authorization consistent;" in conf
    for script in ("allow-replication.sh", "replica-entrypoint.sh"):
        assert (ROOT / "deploy" / "postgres" / script).stat().st_mode & 0o111, f"{script} is not executable"
