"""Sentence embeddings: a small protocol, two CPU backends, and an async service with a query cache."""

from app.embeddings.base import EMBEDDING_DIM, Embedder
from app.embeddings.factory import create_embedding_service, load_embedder
from app.embeddings.service import EmbeddingService

__all__ = ["EMBEDDING_DIM", "Embedder", "EmbeddingService", "create_embedding_service", "load_embedder"]
