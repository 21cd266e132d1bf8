"""Hand-written base problems for the Genebank search-quality corpus, one module per task family.

Each family module exposes ``BASES``: a list of :class:`families._dsl.Base`, every one a distinct
problem expanded into concrete variants (different language, tool or environment, with their own
signals, steps and guards).  ``queries`` holds the hand-written labelled queries.
"""
