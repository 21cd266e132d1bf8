"""The producer pages: producer models ranked by reputation, and one producer's Genes and runs."""
