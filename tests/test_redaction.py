"""Secrets are redacted before a trajectory is stored or hashed: realistic leaks, and text left alone."""

from __future__ import annotations

import pytest

from app.redaction import REDACTED, Redactor, redact

# (leaked text as an agent log would show it, the secret that must disappear)
LEAKS = [
    (
        "export OPENAI_API_KEY=sk-proj-Abc123def456GHI789jkl012MNO345pqrSTU",
        "sk-proj-Abc123def456GHI789jkl012MNO345pqrSTU",
    ),
    (
        "anthropic.Anthropic(api_key='sk-ant-api03-AbCdEf0123456789_xyzXYZ-abcdEFGH')",
        "sk-ant-api03-AbCdEf0123456789",
    ),
    (
        "git clone https://ghp_16C7e42F292c6912E7710c838347Ae178B4a@github.com/acme/api.git",
        "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
    ),
    (
        "GH_TOKEN=github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz0123",
        "github_pat_11ABCDEFG0123456789",
    ),
    ("aws configure set aws_access_key_id AKIAIOSFODNN7EXAMPLE", "AKIAIOSFODNN7EXAMPLE"),
    (
        "aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
        "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
    ),
    ("SLACK_BOT_TOKEN=xoxb-2048-4096-abcDEFghiJKLmno", "xoxb-2048-4096-abcDEFghiJKLmno"),
    (
        'curl -H "Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.'
        'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U" https://api.example.com/v1/me',
        "dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U",
    ),
    ("Authorization: Bearer 9f8e7d6c5b4a39281706f5e4d3c2b1a0", "9f8e7d6c5b4a39281706f5e4d3c2b1a0"),
    (
        "sqlalchemy.exc.OperationalError: connection to "
        "postgresql://app:s3cr3t-P%40ss@db.internal:5432/prod failed",
        "s3cr3t-P%40ss",
    ),
    ("redis://:hunter2hunter2@cache:6379/0 refused the connection", "hunter2hunter2"),
    ('{"username": "deploy", "password": "Tr0ub4dor&3xyz"}', "Tr0ub4dor"),
    ("mysql -u root --password=correct-horse-battery -h 127.0.0.1", "correct-horse-battery"),
    ("settings.py: SECRET_KEY = 'django-insecure-8x!k2#p@v$9m'", "django-insecure-8x!k2#p@v$9m"),
    ("STRIPE_KEY=sk_live_51HxYzAbCdEfGhIjKlMnOpQr", "sk_live_51HxYzAbCdEfGhIjKlMnOpQr"),
    (
        "google maps key AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY in config.js",
        "AIzaSyD-9tSrke72PouQMnMX-a7eZSW0jkFMBWY",
    ),
]

PEM = """cat deploy_key
-----BEGIN OPENSSH PRIVATE KEY-----
b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW
QyNTUxOQAAACDqZ3cF0nJ0o2VZTfVnL0n3I9PlFUP0THsR8UdozjgNrwAAAJjR5Qe50eUH
-----END OPENSSH PRIVATE KEY-----
ssh -i deploy_key git@github.com"""


@pytest.mark.parametrize(("leak", "secret"), LEAKS)
def test_leaked_secrets_are_redacted(leak: str, secret: str) -> None:
    cleaned, count = redact(leak)
    assert secret not in cleaned
    assert REDACTED in cleaned
    assert count >= 1


def test_private_key_block_is_redacted_whole_and_the_rest_kept() -> None:
    cleaned, count = redact(PEM)
    assert "b3BlbnNzaC1rZXkt" not in cleaned and "PRIVATE KEY" not in cleaned
    assert cleaned.startswith("cat deploy_key\n") and cleaned.endswith("ssh -i deploy_key git@github.com")
    assert count == 1


def test_context_around_a_secret_is_kept() -> None:
    cleaned, _ = redact("psql postgresql://app:pa55word@db:5432/prod -c 'select 1'")
    assert cleaned == f"psql postgresql://app:{REDACTED}@db:5432/prod -c 'select 1'"
    cleaned, _ = redact("curl -H 'Authorization: Bearer abcdef0123456789abcdef' https://x.test")
    assert cleaned == f"curl -H 'Authorization: Bearer {REDACTED}' https://x.test"


@pytest.mark.parametrize(
    "text",
    [
        "the token bucket refills 10 tokens per second",
        "implement the password reset flow with a signed link",
        "pip install scikit-learn and run sk-means? no: use sklearn.cluster.KMeans",
        "ssh git@github.com and https://user@example.com/repo have no password",
        "set max_retries=3 and timeout=30 in the client",
        "AssertionError: expected 42, got 41",
        "a keyboard shortcut: ctrl-k opens the command palette",
    ],
)
def test_ordinary_text_is_left_alone(text: str) -> None:
    assert redact(text) == (text, 0)


def test_json_values_are_redacted_and_counted_across_the_structure() -> None:
    redactor = Redactor()
    value = redactor.json(
        {
            "steps": [
                {"action": "export GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", "ok": True},
                {"action": "psql postgres://u:pw1234@h/db", "ok": False, "error": None},
            ],
            "score": 1.0,
        }
    )
    assert redactor.count == 2
    assert "ghp_" not in str(value) and "pw1234" not in str(value)
    assert value["score"] == 1.0 and value["steps"][1]["error"] is None


def test_redaction_is_idempotent() -> None:
    once, _ = redact("password=hunter22 and sk-proj-Abc123def456GHI789jkl012")
    assert redact(once) == (once, 0)
