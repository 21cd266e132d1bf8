"""Genebank's Python client: `Client` (blocking) and `AsyncClient`, typed answers, one exception per problem.

    from genebank.client import Client

    with Client() as gb:                      # GENEBANK_URL (default http://127.0.0.1:8000), GENEBANK_KEY
        match = gb.match("pytest-asyncio test hangs in CI", consumer_model="qwen3-8b", max_tokens=400)
        for gene in match.genes:
            print(gene.text)                  # put it in the prompt, run the task, then:
            gb.report_outcome(gene.gene_id, asset_id=gene.asset_id, task_id="ci-4411", success=True,
                              consumer_model="qwen3-8b")

It needs httpx and pydantic only (the `genebank-client` distribution); the command line
(`genebank.client.cli`) and the MCP server (`genebank.client.mcp_server`) are its extras.
"""

from genebank.client import models
from genebank.client._async import AsyncClient
from genebank.client._core import DEFAULT_URL, VERSION
from genebank.client._sync import Client
from genebank.client.canonical import canonical_json, compute_asset_id
from genebank.client.errors import (
    PROBLEM_TYPES,
    AssetMismatch,
    AssetNotFound,
    BadRequest,
    Conflict,
    CsrfRefused,
    DatabaseUnavailable,
    Forbidden,
    GenebankError,
    GeneNotFound,
    GeneRevoked,
    Gone,
    GuardNotFound,
    IdempotencyKeyReused,
    InvalidCursor,
    InvalidJSON,
    InvalidKey,
    MethodNotAllowed,
    ModelMismatch,
    NotAcceptable,
    NotAdmin,
    NotFound,
    NotOwner,
    PayloadTooLarge,
    ProblemError,
    RateLimited,
    ReportConflict,
    SelfReport,
    ServerError,
    ServiceUnavailable,
    StaleParent,
    TrajectoryNotFound,
    TransportError,
    Unauthorized,
    UnsupportedMediaType,
    ValidationFailed,
    WaitTimeout,
)

__version__ = VERSION

__all__ = [
    "DEFAULT_URL",
    "PROBLEM_TYPES",
    "AssetMismatch",
    "AssetNotFound",
    "AsyncClient",
    "BadRequest",
    "Client",
    "Conflict",
    "CsrfRefused",
    "DatabaseUnavailable",
    "Forbidden",
    "GeneNotFound",
    "GeneRevoked",
    "GenebankError",
    "Gone",
    "GuardNotFound",
    "IdempotencyKeyReused",
    "InvalidCursor",
    "InvalidJSON",
    "InvalidKey",
    "MethodNotAllowed",
    "ModelMismatch",
    "NotAcceptable",
    "NotAdmin",
    "NotFound",
    "NotOwner",
    "PayloadTooLarge",
    "ProblemError",
    "RateLimited",
    "ReportConflict",
    "SelfReport",
    "ServerError",
    "ServiceUnavailable",
    "StaleParent",
    "TrajectoryNotFound",
    "TransportError",
    "Unauthorized",
    "UnsupportedMediaType",
    "ValidationFailed",
    "WaitTimeout",
    "__version__",
    "canonical_json",
    "compute_asset_id",
    "models",
]
