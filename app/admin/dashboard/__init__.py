"""The dashboard: counts, the evolution worker's state, recent events."""
