"""Genebank: a shared registry of verified agent experience."""
