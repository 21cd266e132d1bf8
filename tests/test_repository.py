"""The repository stands alone: no link or path leads outside it, and a fresh clone works by itself."""

from __future__ import annotations

import fnmatch
import os
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

FENCE = re.compile(r"^(```|~~~).*?^\1", re.MULTILINE | re.DOTALL)
CODE_SPAN = re.compile(r"`[^`\n]*`")
INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.MULTILINE)
HTML_LINK = re.compile(r"<(?:a|img)\s[^>]*?(?:href|src)=\"([^\"]+)\"", re.IGNORECASE)
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.IGNORECASE)
HEADING = re.compile(r"^#{1,6}\s+(.+?)\s*#*\s*$", re.MULTILINE)
# A path outside the repository: its parent's shared folder, or this machine's absolute work paths.
OUTSIDE = re.compile(r"\.\./" + "shared" + r"|(?:^|[\s\"'(\[=:`])/" + "work" + r"/|/ \"" + "shared" + r"\" /")


def repository_files() -> list[Path]:
    """Tracked files, and new ones not ignored: what a clone would hold once committed."""
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"],
        cwd=ROOT,
        capture_output=True,
        check=True,
    ).stdout.decode()
    return sorted(ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file())


def markdown_files() -> list[Path]:
    return [path for path in repository_files() if path.suffix == ".md"]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*\*|__", "", heading).strip().lower()
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", text)
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    seen: dict[str, int] = {}
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def links(path: Path) -> list[str]:
    text = CODE_SPAN.sub("", FENCE.sub("", path.read_text(encoding="utf-8")))
    return INLINE_LINK.findall(text) + REFERENCE.findall(text) + HTML_LINK.findall(text)


def test_every_relative_link_in_every_markdown_file_resolves() -> None:
    checked = 0
    broken = []
    for page in markdown_files():
        for target in links(page):
            if SCHEME.match(target):
                continue
            path_part, _, fragment = target.partition("#")
            resolved = (page.parent / path_part).resolve() if path_part else page
            where = f"{page.relative_to(ROOT)}: {target}"
            checked += 1
            if not resolved.is_relative_to(ROOT):
                broken.append(f"{where} leads outside the repository")
            elif not resolved.exists():
                broken.append(f"{where} does not exist")
            elif fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
                broken.append(f"{where} names no heading of {resolved.relative_to(ROOT)}")
    assert broken == []
    assert checked > 50  # the check saw the links it is about


def test_the_link_check_catches_what_it_should(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        "# Title\n\n## A section (v1)\n\n[a](other.md#a-section-v1) ![i](pic.png)\n[x]: ../up.md\n"
        '```\n[in code](nowhere.md)\n```\n`[span](nowhere.md)` <a href="doc.md">d</a> [w](https://x.y)\n'
    )
    assert sorted(links(page)) == sorted(
        ["other.md#a-section-v1", "pic.png", "../up.md", "doc.md", "https://x.y"]
    )
    assert anchors(page) == {"title", "a-section-v1"}


def test_no_file_names_a_path_outside_the_repository() -> None:
    offenders = []
    for path in repository_files():
        try:
            text = path.read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue  # images and other binary files
        for number, line in enumerate(text.splitlines(), 1):
            if OUTSIDE.search(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}")
    assert offenders == []


def test_every_file_the_package_reads_is_package_data() -> None:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())
    patterns = config["tool"]["setuptools"]["package-data"]["app"]
    app = ROOT / "app"
    missing = [
        str(path.relative_to(app))
        for path in repository_files()
        if path.is_relative_to(app)
        and path.suffix != ".py"
        and not any(fnmatch.fnmatch(str(path.relative_to(app)), pattern) for pattern in patterns)
    ]
    assert missing == [], "add these to [tool.setuptools.package-data] in pyproject.toml"


@pytest.mark.slow
def test_a_fresh_clone_collects_the_suite_and_runs_alone(tmp_path: Path) -> None:
    """`git clone` of this commit into an empty directory: nothing beside it, nothing outside it used."""
    git = shutil.which("git")
    assert git is not None, "git is needed to clone the repository"
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    clone = sandbox / "genebank"
    commit = subprocess.run(
        [git, "rev-parse", "HEAD"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.strip()
    subprocess.run([git, "clone", "--quiet", "--no-checkout", str(ROOT), str(clone)], check=True)
    subprocess.run([git, "checkout", "--quiet", "--detach", commit], cwd=clone, check=True)

    env = {k: v for k, v in os.environ.items() if not k.startswith(("GENEBANK_", "PYTHON"))}
    # The clone's code, not this checkout's (nor an editable install's); caches and home inside it.
    pythonpath = os.pathsep.join([str(clone), str(clone / "clients" / "python")])
    env |= {"PYTHONPATH": pythonpath, "HOME": str(clone / ".home"), "XDG_CACHE_HOME": str(clone / ".cache")}

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run(
            [sys.executable, *args],
            cwd=clone,
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )

    where = run(
        "-c",
        "import app, tests, genebank.client as c; print(app.__file__, tests.__file__, c.__file__)",
    )
    assert where.returncode == 0, where.stderr
    assert all(Path(line).is_relative_to(clone) for line in where.stdout.split()), where.stdout

    collected = run("-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider")
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]
    count = re.search(r"(\d+) tests? collected", collected.stdout)
    assert count and int(count.group(1)) > 400, collected.stdout[-1000:]

    # What reads vendored files or follows links, run in the clone itself.
    checks = run(
        "-m", "pytest", "-q", "-p", "no:cacheprovider",
        "tests/gep/test_document.py", "tests/test_repository.py", "tests/client/test_canonical.py",
        "tests/client/test_contract.py", "-k", "not fresh_clone",
    )  # fmt: skip
    assert checks.returncode == 0, checks.stdout[-3000:] + checks.stderr[-3000:]
    assert sorted(os.listdir(sandbox)) == ["genebank"]  # nothing written beside the clone
