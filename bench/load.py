"""Load with faults: 2 API processes and 2 workers on loopback, `--clients` concurrent clients for
`--seconds` mixing fetch (50 %), search (25 %), publish (13 %) and runs (12 %); one API process and
one worker killed with SIGKILL a third of the way in. Prints requests, errors other than the killed
connections, acknowledged writes missing afterwards (must be 0) and runs lost or doubled (must be 0).

    python bench/load.py [--clients 200] [--seconds 60]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.load_scenario import run_scenario  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--clients", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=60.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="genebank-load-") as tmp:
        report = run_scenario(Path(tmp), clients=args.clients, seconds=args.seconds)
    print("\n".join(report.lines()))


if __name__ == "__main__":
    main()
