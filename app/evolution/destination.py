"""Which Gene a trajectory belongs to, when it names none: semantic match over current versions.

The trajectory's routing text (task description and the signals it ran into) is embedded and
compared by cosine with the embedding of every current Gene version of the same task family
(summary, signals, strategy, preconditions: app/genes/indexing.py). The best Gene at or above
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
# A run that names its Gene (gene_id, or a draft id of an existing Gene) must reach this similarity to
# it. bench/target_floor.py chose it on half of the labelled base problems (the highest floor that
# lets 99 % of right pairs through); on the held-out half 98.0 % of right pairs pass, and 4.5 % of
# runs sent to a Gene of another problem of the same family, 0.6 % to another family's, get in.
TARGET_FLOOR = 0.29


def routing_text(description: str, signals: Sequence[str]) -> str:
    """Shaped like a Gene's embedding text: what the task is about, then its signals."""
    if not signals:
        return description
    return f"{description}\nSignals: {'; '.join(signals)}"
