"""Which Gene a trajectory belongs to, when it names none: semantic match over current versions.

The trajectory's routing text (task description and the signals it ran into) is embedded and
compared by cosine with the embedding of every current Gene version of the same task family
(summary, signals, strategy, preconditions: app/search/indexing.py). The best Gene at or above
ROUTE_THRESHOLD wins; below it, a passed run founds a new candidate Gene and a failed one is rejected.

ROUTE_THRESHOLD was tuned with bench/routing_threshold.py on the labelled search data
(bench/data/corpus.jsonl, 1,064 Genes in families of close variants, and queries.jsonl, 321 task
descriptions with their relevant Genes), treating each description once with its Gene in the registry
(it should merge there) and once with it left out (it should found a new Gene rather than land in a
sibling variant). 0.65 is the lowest threshold at which at least 80 % of merges go to the right Gene
on both sets (88 % on the queries, 81 % on the Genes' own task descriptions); 4 % and 8 % of
descriptions whose Gene is absent still land in a sibling, and the right Gene is found for 29 % and
42 % of those whose Gene is present (the rest found a new candidate Gene). The balance leans to
founding: a merge never rewrites a strategy, but a wrong one puts warnings where they mislead, while
a missed one costs a duplicate candidate that search ranks below proven Genes.
"""

from __future__ import annotations

from collections.abc import Sequence

ROUTE_THRESHOLD = 0.65


def routing_text(description: str, signals: Sequence[str]) -> str:
    """Shaped like a Gene's embedding text: what the task is about, then its signals."""
    if not signals:
        return description
    return f"{description}\nSignals: {'; '.join(signals)}"
