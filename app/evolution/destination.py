"""Which Gene a trajectory belongs to, when it names none: its task first, then semantic match.

Two similarities per candidate Gene (live, current versions of the same task family):

- routing similarity: cosine of the trajectory's routing text (task description and the signals it
  ran into) to the Gene's current version embedding (summary, signals, strategy, preconditions:
  app/genes/indexing.py);
- task similarity: the best cosine of the run's task description to the Gene's task keys
  (gene_task_keys: the task descriptions of its versions and of the runs merged into it,
  app/genes/task_keys.py), or None when it has none.

`choose` picks the destination. A Gene that has met this very task (task similarity at least
SAME_TASK) takes the run as long as the run still resembles it as much as a run naming its Gene must
(routing similarity at least TARGET_FLOOR): the run's errors may be a failure mode the Gene has not
seen yet, which drags the routing cosine down although the work is the same. Otherwise the best Gene
at routing similarity at least ROUTE_THRESHOLD wins; below it, a passed run founds a new candidate
Gene and a failed one is rejected. Founding that waits for a second run (`GENEBANK_FOUND_MIN_RUNS`)
pairs held runs of the same task only (`confirms`).

Routing similarity alone cannot tell another kind of work for the same service apart from the same
work: "Fix the flaky async tests of the billing API" and "Make the test suite of the billing API pass
without network access" share the service, the test vocabulary and often the error classes, so at
the former threshold (0.65) such runs merged into one Gene, which then served the other work's
guards. The task keys say which tasks a Gene has met.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

# The best Gene at or above this routing similarity takes a run whose task no Gene has met. Fitted on
# the replay of bench/evolution_quality.py, seed 7 only (seeds 11 and 13 held out; figures in
# docs/benchmarks.md, "Routing by task"): with the task keys and same-task founding pairs in place,
# 1,000 runs over 50 tasks give guard precision 0.885 (16 wrong guards, 43 Genes) at 0.65, 0.979
# (3 wrong, 49 Genes) at 0.72 and 1.000 (0 wrong, 50 Genes, recall 0.897) at 0.78, the threshold
# the previous rule (task keys alone) was fitted to on the same seed. Runs of another kind of work
# for the same service score 0.50-0.72 against each other's Genes there; 0.78 keeps them apart.
# The former 0.65 came from bench/routing_threshold.py on the labelled search corpus (the lowest
# threshold at which 80 % of merges land in the right Gene there); that corpus has no runs of other
# work for the same subject, which is what the replay showed to be the worker's main source of wrong
# guards.
ROUTE_THRESHOLD = 0.78
# A task description at least this close to one of a Gene's task keys is the task that Gene met
# (the same description, or a rewording of it). Fitted on the replay's seed 7 with tasks worded three
# ways (bench/evolution_quality.py --reworded: producers phrase one task differently; the rewordings
# score 0.65-0.93 against a task's first wording with all-MiniLM-L6-v2): 0.85 took too few rewordings
# and founded 89 Genes for 50 tasks (recall 0.767); 0.80 68 Genes (0.845); 0.75 55 Genes (0.853),
# precision 1.000 at each; 0.70 let the first wrong guard in (precision 0.992, 48 Genes). With one
# wording a task, 0.75 gives the same precision (1.000) and recall (0.897) as 0.85. Another kind of
# work for the same service scores 0.28-0.70 there; the same work for another service 0.25-0.76.
# Seeds 11 and 13 held out: docs/benchmarks.md, "Routing by task".
SAME_TASK = 0.75
# A run that names its Gene (gene_id, or a draft id of an existing Gene) must reach this similarity to
# it. bench/target_floor.py chose it on half of the labelled base problems (the highest floor that
# lets 99 % of right pairs through); on the held-out half 98.0 % of right pairs pass, and 4.5 % of
# runs sent to a Gene of another problem of the same family, 0.6 % to another family's, get in.
# A run whose task matches a Gene's task key is routed there under the same floor.
TARGET_FLOOR = 0.29


@dataclass(frozen=True)
class RouteCandidate:
    gene_id: str
    similarity: float  # routing text to the Gene's current version
    task_similarity: float | None = None  # the run's task to the Gene's nearest task key


def choose(
    candidates: Sequence[RouteCandidate],
    *,
    route_threshold: float = ROUTE_THRESHOLD,
    same_task: float = SAME_TASK,
    target_floor: float = TARGET_FLOOR,
) -> RouteCandidate | None:
    """The Gene a run goes to, or None (found a new Gene, or reject a failed run).

    A Gene that has met the run's task (task similarity >= same_task) and that the run resembles at
    least as much as a named Gene must (routing similarity >= target_floor) wins, the closest task
    first; else the best routing similarity at or above route_threshold."""
    same = [
        c
        for c in candidates
        if c.task_similarity is not None and c.task_similarity >= same_task and c.similarity >= target_floor
    ]
    if same:
        return max(same, key=lambda c: (c.task_similarity or 0.0, c.similarity))
    best = max(candidates, key=lambda c: c.similarity, default=None)
    if best is None or best.similarity < route_threshold:
        return None
    return best


def confirms(
    similarity: float,
    task_similarity: float | None,
    *,
    route_threshold: float = ROUTE_THRESHOLD,
    same_task: float = SAME_TASK,
    target_floor: float = TARGET_FLOOR,
) -> bool:
    """Whether a held run is a second run of what a founding run is about (GENEBANK_FOUND_MIN_RUNS):
    a run of the same task (task descriptions at least same_task alike) that resembles it as much as
    a run naming its Gene must (routing cosine at least target_floor). Routing cosine alone does not
    pair two runs: two runs' routing texts share their error signals word for word, so they score
    higher against each other than a run against a Gene's distilled text, and in the replay runs of
    another kind of work for the same service reached 0.78 against each other (0.50-0.72 against
    each other's Genes). A Gene founded on such a pair got both tasks as task keys and drew every
    later run of both. Only without a task description on either side does route_threshold decide."""
    if task_similarity is None:
        return similarity >= route_threshold
    return task_similarity >= same_task and similarity >= target_floor


def routing_text(description: str, signals: Sequence[str]) -> str:
    """Shaped like a Gene's embedding text: what the task is about, then its signals."""
    if not signals:
        return description
    return f"{description}\nSignals: {'; '.join(signals)}"
