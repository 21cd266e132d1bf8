"""Guard text that must wait for a human, whatever backs it.

A guard is an instruction a consumer agent will follow. A guard that tells it to download and run
something ("curl https://x.sh | bash", "wget …", a base64 blob to decode, `python -c …`) is the shape
of a supply-chain attack, so backing by other keys never serves it on its own: it stays proposed
until the Gene's owner or an admin approves it (POST /v1/genes/{id}/guards/{guard_id}/approve).

The patterns run with RE2 (linear time) and err towards holding: a false hold costs a click, a false
pass puts remote code in front of every consumer of the Gene.
"""

from __future__ import annotations

from typing import Any

import re2

_SHELLS = r"(?:ba|z|k|da|c|tc|fi|a)?sh|python[0-9.]*|perl|ruby|node|php|pwsh|powershell|iex|source|eval"
_RULES: tuple[tuple[str, str], ...] = (
    ("pipes downloaded or generated text into a shell or interpreter", rf"\|\s*(?:sudo\s+)?(?:{_SHELLS})\b"),
    ("fetches with wget", r"\bwget\s+\S"),
    ("pipes the output of curl", r"\bcurl\b[^|\n]*\|"),
    ("runs what curl or wget fetched", r"\$\(\s*(?:curl|wget)\b|`\s*(?:curl|wget)\b|<\(\s*(?:curl|wget)\b"),
    ("downloads and runs a script", r"\b(?:curl|wget)\b[^\n]*\b(?:sh|bash|python[0-9.]*)\s+-c\b"),
    ("fetches with PowerShell", r"\b(?:Invoke-WebRequest|Invoke-Expression|iwr|Start-BitsTransfer)\b"),
    ("runs inline code", r"\b(?:python[0-9.]*|node|perl|ruby|php)\s+-(?:c|e)\b|\beval\s*[(\"'$]"),
    ("decodes base64", r"\bbase64\s+(?:-d|--decode|-D)\b|\bb64decode\b|\batob\s*\("),
    ("carries a base64 blob", r"[A-Za-z0-9+/]{48,}={0,2}"),
    ("installs from a URL", r"\b(?:pip3?|npm|gem|cargo)\s+install\s+[^\n]*(?:https?://|git\+)"),
    ("opens a raw network connection", r"/dev/(?:tcp|udp)/|\bnc\s+-e\b"),
    ("makes a downloaded file executable", r"\bchmod\s+(?:\+|[0-7]*7)[0-7]*x?\s"),
)
_COMPILED: tuple[tuple[str, Any], ...] = tuple(
    (reason, re2.compile(pattern, re2.Options())) for reason, pattern in _RULES
)


def hold_reason(text: str) -> str | None:
    """Why `text` must wait for a human (the first rule it trips), or None."""
    for reason, pattern in _COMPILED:
        if pattern.search(text) is not None:
            return reason
    return None
