"""GEP (Genome Evolution Protocol) support."""
