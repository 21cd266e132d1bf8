"""The planted-secret corpus for measuring redaction: fake but format-valid secrets in agent-log context.

    .venv/bin/python bench/data/secrets_corpus.py [--write PATH]   # summary; JSON lines to PATH

The corpus is generated, never stored: format-valid keys committed to a repository (even fake ones)
trip secret scanners and push protection. `build()` is deterministic (one seeded generator, no
network), so every run measures the same texts.

Each sample is `{"id", "set", "kind", "context", "text", "secrets": [[start, end, kind], ...]}`:
- `set: "secret"`: one kind of secret planted in a realistic context (shell session, .env dump,
  HTTP trace, traceback, JSON or YAML config, plain log line); `secrets` holds the exact span of
  every planted occurrence (a secret pasted twice is two spans). A span is the secret value only:
  the password of a URL, not its user; the value of `PASSWORD=`, not the name.
- `set: "clean"`: ordinary text of the same shape (asset ids `sha256:<hex>`, git SHAs, UUIDs,
  base64 of non-secrets, digests, code that handles secrets by reference, placeholders, prose
  about tokens, tracebacks, URLs without credentials); it holds no secret, so any redaction in it
  is a false positive.

Scoring (bench/redaction.py): a planted secret is *caught* when none of its characters survive,
i.e. every character of its span lies inside a redacted span; it is *flagged* when some reported
span overlaps it (a detector that names the first line of a PEM block flags it but does not catch
it). A redacted span in a clean sample, or one in a secret sample that overlaps no planted span,
is a false positive.
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import json
import random
import string
import sys
import uuid
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

SEED = 20251101
PER_CONTEXT = 3

_B62 = string.ascii_letters + string.digits
_B64 = _B62 + "+/"
_B64URL = _B62 + "-_"
_HEXL = "0123456789abcdef"
_UPPER = string.ascii_uppercase + string.digits


class _Gen:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, alphabet: str, n: int) -> str:
        return "".join(self.rng.choice(alphabet) for _ in range(n))

    def b62(self, n: int) -> str:
        return self.pick(_B62, n)

    def b64(self, n: int) -> str:
        return self.pick(_B64, n)

    def b64url(self, n: int) -> str:
        return self.pick(_B64URL, n)

    def hex(self, n: int) -> str:
        return self.pick(_HEXL, n)

    def digits(self, n: int) -> str:
        return str(self.rng.randint(1, 9)) + self.pick(string.digits, n - 1)

    def password(self) -> str:
        words = ["Tr0ub4dor", "hunter", "Summer", "s3cr3t", "Pa55w0rd", "letmein", "Xy!z", "Q9#k"]
        return self.rng.choice(words) + self.pick(_B62 + "!#%^*_-", self.rng.randint(6, 14))

    def pem(self, label: str, lines: int, newline: str = "\n") -> str:
        body = newline.join(self.b64(64) for _ in range(lines)) + newline + self.b64(28) + "=="
        return f"-----BEGIN {label}-----{newline}{body}{newline}-----END {label}-----"

    def jwt(self) -> str:
        def enc(value: dict[str, Any]) -> str:
            return base64.urlsafe_b64encode(json.dumps(value).encode()).decode().rstrip("=")

        claims = {"sub": self.digits(8), "name": "ci-bot", "iat": 1714000000 + self.rng.randint(0, 10**6)}
        return f"{enc({'alg': 'HS256', 'typ': 'JWT'})}.{enc(claims)}.{self.b64url(43)}"


# kind -> (generator of the secret, names a config would give it, contexts it appears in).
# Contexts: env (export/.env), http (a header), json/yaml (a config field), code (a call), cli
# (the tool's own flag), log (a line with no hint but the token's own format), url (inside a URL).
_KINDS: dict[str, tuple[Callable[[_Gen], str], tuple[str, ...], tuple[str, ...]]] = {
    "openai": (
        lambda g: f"sk-proj-{g.b64url(54)}{g.b62(20)}T3BlbkFJ{g.b62(20)}{g.b64url(54)}",
        ("OPENAI_API_KEY",),
        ("env", "json", "code", "log", "http"),
    ),
    "anthropic": (
        lambda g: f"sk-ant-api03-{g.b64url(93)}AA",
        ("ANTHROPIC_API_KEY",),
        ("env", "code", "log", "http"),
    ),
    "github_classic": (
        lambda g: f"ghp_{g.b62(36)}",
        ("GITHUB_TOKEN", "GH_TOKEN"),
        ("env", "http", "log", "url"),
    ),
    "github_fine_grained": (
        lambda g: f"github_pat_{g.b62(22)}_{g.b62(59)}",
        ("GITHUB_TOKEN",),
        ("env", "http", "log", "url"),
    ),
    "gitlab": (
        lambda g: f"glpat-{g.b64url(20)}",
        ("GITLAB_TOKEN", "CI_JOB_TOKEN"),
        ("env", "http", "log", "url"),
    ),
    "slack_bot": (
        lambda g: f"xoxb-{g.digits(11)}-{g.digits(13)}-{g.b62(24)}",
        ("SLACK_BOT_TOKEN",),
        ("env", "http", "log", "json"),
    ),
    "slack_webhook": (
        lambda g: f"T{g.pick(_UPPER, 10)}/B{g.pick(_UPPER, 10)}/{g.b62(24)}",
        ("SLACK_WEBHOOK_URL",),
        ("slack_url",),
    ),
    "aws_access_key_id": (
        lambda g: "AKIA" + g.pick(_UPPER, 16),
        ("AWS_ACCESS_KEY_ID", "aws_access_key_id"),
        ("env", "json", "log", "aws_cli"),
    ),
    "aws_secret_access_key": (
        lambda g: g.b64(40),
        ("AWS_SECRET_ACCESS_KEY", "aws_secret_access_key", "SecretAccessKey"),
        ("env", "json", "aws_cli", "ini"),
    ),
    "google_api_key": (lambda g: f"AIza{g.b64url(35)}", ("GOOGLE_API_KEY",), ("env", "json", "log", "query")),
    "stripe": (lambda g: f"sk_live_{g.b62(24)}", ("STRIPE_SECRET_KEY",), ("env", "code", "log", "http")),
    "huggingface": (lambda g: f"hf_{g.b62(34)}", ("HF_TOKEN",), ("env", "cli", "log", "http")),
    "npm": (lambda g: f"npm_{g.b62(36)}", ("NPM_TOKEN",), ("env", "npmrc", "log")),
    "pypi": (lambda g: f"pypi-AgEIcHlwaS5vcmc{g.b64url(150)}", ("TWINE_PASSWORD",), ("env", "cli", "log")),
    "genebank": (
        lambda g: f"gb_{g.b62(12)}_{g.b64url(43)}",
        ("GENEBANK_KEY", "GENEBANK_API_KEY"),
        ("env", "http", "log", "json"),
    ),
    "sendgrid": (
        lambda g: f"SG.{g.b64url(22)}.{g.b64url(43)}",
        ("SENDGRID_API_KEY",),
        ("env", "code", "log", "http"),
    ),
    "azure_storage": (lambda g: g.b64(86) + "==", ("AccountKey",), ("azure_conn",)),
    "discord_bot": (
        lambda g: f"{g.rng.choice('MNO')}{g.b64url(25)}.{g.b64url(6)}.{g.b64url(38)}",
        ("DISCORD_TOKEN",),
        ("env", "http_bot", "log", "code"),
    ),
    "discord_webhook": (lambda g: g.b64url(68), ("DISCORD_WEBHOOK",), ("discord_url",)),
    "telegram_bot": (
        lambda g: f"{g.digits(10)}:AA{g.b64url(33)}",
        ("TELEGRAM_BOT_TOKEN",),
        ("env", "telegram_url", "log"),
    ),
    "jwt": (lambda g: g.jwt(), ("ACCESS_TOKEN",), ("http", "log", "json")),
    "bearer_opaque": (lambda g: g.b62(40), ("API_TOKEN",), ("http", "env")),
    "private_key_rsa": (lambda g: g.pem("RSA PRIVATE KEY", 12), (), ("pem",)),
    "private_key_openssh": (lambda g: g.pem("OPENSSH PRIVATE KEY", 6), (), ("pem",)),
    "gcp_service_account": (lambda g: g.pem("PRIVATE KEY", 16, newline="\\n"), (), ("gcp_json",)),
    "gcp_private_key_id": (lambda g: g.hex(40), (), ("gcp_json_id",)),
    "db_url_password": (lambda g: g.b62(16), (), ("db_url",)),
    "pgpassword": (lambda g: g.password(), ("PGPASSWORD",), ("env_cmd",)),
    "mysql_pwd": (lambda g: g.password(), ("MYSQL_PWD",), ("env_cmd",)),
    "mysql_p": (lambda g: g.b62(14), (), ("mysql_p", "mysql_long")),
    "curl_user": (lambda g: g.password(), (), ("curl_u",)),
    "config_password": (
        lambda g: g.password(),
        ("password", "DB_PASSWORD", "db_password", "SMTP_PASS", "secret_key"),
        ("env", "json", "yaml", "code"),
    ),
    # Known hard cases: no format and no sensitive name (a rule for them would flag ordinary text).
    "prose_password": (lambda g: g.password(), (), ("prose",)),
    "unlabelled_secret": (
        lambda g: g.b64(40),
        ("HMAC_SEED", "webhook_signing", "jwt_hs256"),
        ("env", "json", "yaml"),
    ),
    "mailchimp": (lambda g: f"{g.hex(32)}-us{g.rng.randint(1, 21)}", ("MAILCHIMP_API_KEY",), ("env", "log")),
    "square": (lambda g: f"sq0csp-{g.b64url(43)}", ("SQUARE_SECRET",), ("env", "log")),
}

_HOSTS = ["api.example.com", "internal.acme.test", "ci.example.org"]


def _prompt(g: _Gen) -> str:
    return g.rng.choice(["$ ", "runner@ci:~/app$ ", "(.venv) dev@box:~/svc$ ", "# "])


Piece = str | tuple[str] | tuple[str, str, str]


def _context(g: _Gen, kind: str, context: str, name: str) -> list[Piece]:
    """A template: literal pieces, `("s",)` for the planted secret, `("x", value, kind)` for another one."""
    S = ("s",)
    host = g.rng.choice(_HOSTS)
    lower = name.lower()
    pr = _prompt(g)
    if context == "env":
        return g.rng.choice(
            [
                [f"{pr}export {name}=", S, f"\n{pr}python -m pytest -q tests/\n3 passed in 0.41s"],
                [f"{pr}cat .env\nDEBUG=false\nLOG_LEVEL=info\n{name}=", S, "\nPORT=8080\n"],
                [f"{pr}env | sort\nHOME=/home/runner\n{name}=", S, "\nPATH=/usr/local/bin:/usr/bin\n"],
                [f'{pr}docker run -e {name}="', S, '" -p 8080:8080 acme/api:1.4.2'],
            ]
        )
    if context == "http":
        scheme = "token" if kind.startswith("github") else "Bearer"
        return [
            f"* Connected to {host} (10.0.0.5) port 443\n> GET /v1/me HTTP/1.1\n> Host: {host}\n"
            f"> Authorization: {scheme} ",
            S,
            "\n> Accept: */*\n< HTTP/1.1 401 Unauthorized\n< content-type: application/json\n",
        ]
    if context == "http_bot":
        return [
            "> POST /api/v10/channels/1/messages HTTP/1.1\n> Authorization: Bot ",
            S,
            "\n< HTTP/1.1 200 OK",
        ]
    if context == "json":
        return g.rng.choice(
            [
                ['{"service": "billing", "region": "eu-west-1", "' + lower + '": "', S, '", "timeout": 30}'],
                ['{\n  "env": "prod",\n  "' + name + '": "', S, '",\n  "retries": 3\n}'],
            ]
        )
    if context == "yaml":
        return ["database:\n  host: db.internal\n  port: 5432\n  " + lower + ": ", S, "\n  pool_size: 10\n"]
    if context == "ini":
        return [
            "$ cat ~/.aws/credentials\n[default]\naws_access_key_id = ",
            ("x", "AKIA" + g.pick(_UPPER, 16), "aws_access_key_id"),
            "\naws_secret_access_key = ",
            S,
            "\nregion = us-east-1\n",
        ]
    if context == "code":
        call = {
            "openai": 'client = OpenAI(api_key="',
            "anthropic": 'client = anthropic.Anthropic(api_key="',
            "stripe": 'stripe.api_key = "',
            "sendgrid": 'sg = SendGridAPIClient("',
            "discord_bot": 'client.run("',
        }.get(kind, f'{lower} = "')
        return [
            'Traceback (most recent call last):\n  File "/app/main.py", line 12, in <module>\n    ' + call,
            S,
            '")\n  File "/app/.venv/lib/python3.11/site-packages/httpx/_client.py", line 901, in send\n'
            "httpx.HTTPStatusError: Client error '401 Unauthorized' for url 'https://" + host + "/v1/chat'",
        ]
    if context == "log":
        ts = f"2025-03-{g.rng.randint(10, 28)}T12:{g.rng.randint(10, 59)}:07Z"
        return g.rng.choice(
            [
                [f"{ts} DEBUG client initialised with credentials ", S, " (source: environment)"],
                [f"{ts} WARN request failed for key ", S, "; retrying in 2s"],
                ["step 4 observation: the config file contains ", S, " on line 3"],
            ]
        )
    if context == "prose":
        return g.rng.choice(
            [
                ["Thought: the staging database password is ", S, ", so I can connect with psql directly."],
                ["User said: use ", S, " as the admin passphrase for the test instance."],
            ]
        )
    if context == "url":
        return [
            f"{pr}git clone https://x-access-token:",
            S,
            "@github.com/acme/api.git\nCloning into 'api'...",
        ]
    if context == "query":
        return [f"{pr}curl 'https://maps.googleapis.com/maps/api/geocode/json?address=Paris&key=", S, "'"]
    if context == "cli":
        if kind == "pypi":
            return [f"{pr}twine upload -u __token__ -p ", S, " dist/*"]
        return [f"{pr}huggingface-cli login --token ", S, "\nLogin successful"]
    if context == "npmrc":
        return [f"{pr}cat ~/.npmrc\n//registry.npmjs.org/:_authToken=", S, "\n"]
    if context == "aws_cli":
        option = "aws_secret_access_key" if kind == "aws_secret_access_key" else "aws_access_key_id"
        return [f"{pr}aws configure set {option} ", S, "\n" + pr + "aws s3 ls s3://acme-artifacts/"]
    if context == "slack_url":
        return [
            f"{pr}curl -X POST -H 'Content-type: application/json' --data '{{\"text\":\"deploy done\"}}' "
            "https://hooks.slack.com/services/",
            S,
            "\nok",
        ]
    if context == "discord_url":
        return [
            f"{pr}curl -H 'Content-Type: application/json' -d '{{\"content\": \"build failed\"}}' "
            f"https://discord.com/api/webhooks/{g.digits(18)}/",
            S,
        ]
    if context == "telegram_url":
        return [f"{pr}curl -s 'https://api.telegram.org/bot", S, "/sendMessage?chat_id=42&text=done'"]
    if context == "azure_conn":
        return [
            "AZURE_STORAGE_CONNECTION_STRING=DefaultEndpointsProtocol=https;AccountName=acmeartifacts;AccountKey=",
            S,
            ";EndpointSuffix=core.windows.net",
        ]
    if context == "pem":
        return [f"{pr}cat ~/.ssh/deploy_key\n", S, f"\n{pr}ssh -i ~/.ssh/deploy_key git@github.com"]
    if context == "gcp_json":
        return [
            f'{pr}cat sa.json\n{{\n  "type": "service_account",\n  "project_id": "acme-prod",\n'
            '  "private_key_id": "',
            ("x", g.hex(40), "gcp_private_key_id"),
            '",\n  "private_key": "',
            S,
            '\\n",\n  "client_email": "ci@acme-prod.iam.gserviceaccount.com",\n  "client_id": "'
            + g.digits(21)
            + '"\n}',
        ]
    if context == "gcp_json_id":
        return [
            '{"type": "service_account", "project_id": "acme-prod", "private_key_id": "',
            S,
            '", "client_email": "ci@acme-prod.iam.gserviceaccount.com"}',
        ]
    if context == "db_url":
        scheme = g.rng.choice(["postgresql", "mysql", "mongodb+srv", "redis", "amqp"])
        return [
            f"sqlalchemy.exc.OperationalError: (psycopg.OperationalError) connection failed: {scheme}://app:",
            S,
            "@db.internal:5432/prod\n(Background on this error at: https://sqlalche.me/e/20/e3q8)",
        ]
    if context == "env_cmd":
        tool = "psql -h db.internal -U app -c 'select 1'" if name == "PGPASSWORD" else "mysql -u app -h db"
        return [f"{pr}{name}=", S, f' {tool}\nERROR: relation "users" does not exist']
    if context == "mysql_p":
        return [f"{pr}mysql -u root -p", S, " -h 127.0.0.1 -e 'SHOW DATABASES;'\n+--------------------+"]
    if context == "mysql_long":
        return [f"{pr}mysqldump --user=backup --password=", S, " --single-transaction shop > shop.sql"]
    if context == "curl_u":
        return [f"{pr}curl -sS -u deploy:", S, f" https://{host}/api/v2/releases | jq '.[0]'"]
    raise ValueError(context)


_CLEAN: list[Callable[[_Gen], str]] = [
    lambda g: f'{{"id": "sha256:{g.hex(64)}", "summary": "retry with backoff", "version": 3}}',
    lambda g: f"GET /v1/genes/sha256:{g.hex(64)}/prompt 200 in 4.1 ms",
    lambda g: f"$ git log --oneline -3\n{g.hex(7)} Fix flaky test\n{g.hex(7)} Bump deps\n{g.hex(7)} Init",
    lambda g: f"commit {g.hex(40)}\nAuthor: Dev <dev@example.com>\nDate:   Mon Mar 3 10:00:00 2025",
    lambda g: f"HEAD is now at {g.hex(40)} Merge pull request #{g.rng.randint(1, 999)} from acme/fix",
    lambda g: f"request_id={uuid.UUID(int=g.rng.getrandbits(128))} status=500 duration_ms=231",
    lambda g: f'{{"trajectory_id": "{uuid.UUID(int=g.rng.getrandbits(128))}", "passed": true}}',
    lambda g: f"Digest: sha256:{g.hex(64)}\nStatus: Downloaded newer image for python:3.11-slim",
    lambda g: f"numpy==2.1.0 --hash=sha256:{g.hex(64)}",
    lambda g: (
        '"integrity": "sha512-' + base64.b64encode(hashlib.sha512(g.b62(8).encode()).digest()).decode() + '"'
    ),
    lambda g: f"md5sum dist/app.tar.gz\n{g.hex(32)}  dist/app.tar.gz",
    lambda g: f'< ETag: "{g.hex(32)}"\n< Cache-Control: max-age=60',
    lambda g: (
        "payload="
        + base64.b64encode(
            json.dumps({"task": "sum two numbers", "n": g.rng.randint(1, 99)}).encode()
        ).decode()
    ),
    lambda g: "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk" + g.b64(8),
    lambda g: "the token bucket refills 10 tokens per second; a request takes one token",
    lambda g: "Token usage: prompt 1,204 tokens, completion 311 tokens",
    lambda g: "implement the password reset flow: email a signed, single-use link that expires in 1 hour",
    lambda g: "Keep secrets out of the repository; read them from the environment at start-up.",
    lambda g: 'api_key = os.environ["OPENAI_API_KEY"]\nclient = OpenAI(api_key=api_key)',
    lambda g: "password = getpass.getpass('Password: ')\nif not password:\n    raise SystemExit(1)",
    lambda g: 'headers = {"Authorization": f"Bearer {token}"}\nresp = httpx.get(url, headers=headers)',
    lambda g: "def authenticate(username: str, password: str) -> bool:\n    return check(username, password)",
    lambda g: "token = tokenizer.encode(text)\nsecret = settings.SECRET_KEY",
    lambda g: "DB_PASSWORD=${DB_PASSWORD}\nAPI_KEY=<your-api-key>\nSECRET_TOKEN=changeme-in-prod-${ENV}",
    lambda g: 'password: "{{ vault_db_password }}"\ntoken: ${{ secrets.GITHUB_TOKEN }}',
    lambda g: '{"password": null, "token": "", "api_key": "***"}',
    lambda g: (
        "Traceback (most recent call last):\n"
        '  File "/app/auth.py", line 88, in login\n    token = issue_token(user)\n'
        '  File "/app/auth.py", line 41, in issue_token\n    raise KeyError("token")\n'
        "KeyError: 'token'"
    ),
    lambda g: "jwt.exceptions.ExpiredSignatureError: Signature has expired (token issued 3600 s ago)",
    lambda g: "git clone https://github.com/acme/api.git && cd api && git checkout -b fix/auth",
    lambda g: (
        "ssh git@github.com\nHi acme! You've successfully authenticated, "
        "but GitHub does not provide shell access."
    ),
    lambda g: (
        "curl -sS http://localhost:8080/healthz?verbose=1\n"
        f'{{"status": "ok", "uptime": {g.rng.randint(1, 9999)}}}'
    ),
    lambda g: "postgresql://localhost:5432/app?sslmode=disable connected",
    lambda g: "https://user@example.com/repo has no password; ftp://ftp.example.org/pub/file.txt",
    lambda g: "kubectl get secret db-credentials -o jsonpath='{.data.password}' | base64 -d",
    lambda g: (
        "NAME                READY   STATUS    RESTARTS   AGE\n"
        f"api-{g.hex(10)}-{g.b62(5).lower()}   1/1     Running   0          3d"
    ),
    lambda g: "===== 12 passed, 1 skipped, 2 warnings in 3.21s =====",
    lambda g: (
        "E   AssertionError: assert 'abc' == 'abd'\n"
        "FAILED tests/test_auth.py::test_token_refresh - AssertionError"
    ),
    lambda g: f"sk-learn is not a package; run pip install scikit-learn=={g.rng.randint(1, 9)}.5.0",
    lambda g: "mysql -u root -p -h 127.0.0.1 prompts for the password; use -P 3306 for the port",
    lambda g: "curl -u deploy https://api.example.com/releases prompts for the password",
    lambda g: (
        f"Merge sort of {g.rng.randint(100, 999)} items took 12 ms; the pass over the data is O(n log n)."
    ),
    lambda g: "Set max_retries=3 and timeout=30; a keyboard shortcut ctrl-k opens the palette.",
    lambda g: f"user_id: {g.digits(18)}\nchannel_id: {g.digits(18)}\nmessage_id: {g.digits(18)}",
    lambda g: f"build {g.digits(9)}: step 4/7 took {g.rng.randint(1, 99)}s",
    lambda g: f"cache key: v1-deps-{g.hex(40)}",
    lambda g: "AccountName=acmeartifacts;EndpointSuffix=core.windows.net",
    lambda g: f"object key: uploads/{g.b62(40)}.png uploaded to s3://acme-artifacts",
    lambda g: "export AWS_REGION=us-east-1 AWS_PROFILE=ci\naws sts get-caller-identity",
    lambda g: f"SG.{'x' * 4} is not a key; sendgrid returned 202 Accepted",
    lambda g: f"RuntimeError: event loop <uvloop.Loop object at 0x{g.hex(12)}> is closed",
    lambda g: (
        f'"signals_match": ["/deadline.?exceeded/i", "timeout|timed out"], "id": "gene_{g.b62(8).lower()}"'
    ),
    lambda g: 'curl -H "Authorization: Bearer $GITHUB_TOKEN" https://api.github.com/user',
    lambda g: "Authorization: Bearer <token>   # replace <token> with your key",
    lambda g: "Enter password: ********\nmysql> SHOW TABLES;",
    lambda g: "export APPLICATION_NAME=billing APDEXTHRESHOLD=0.5 LOG_FORMAT=json",
    lambda g: (
        f"Step 5/9 : RUN pip install -r requirements.txt\n ---> Running in {g.hex(12)}\n ---> {g.hex(12)}"
    ),
    lambda g: (
        '{"name": "README.md", "encoding": "base64", "content": "'
        + base64.b64encode(("# Acme API\n\nRun `make test` before pushing. " * 3).encode()).decode()
        + '"}'
    ),
    lambda g: (
        "panic: runtime error: invalid memory address or nil pointer dereference\n"
        f"[signal SIGSEGV: segmentation violation code=0x1 addr=0x0 pc=0x{g.hex(6)}]\n"
        "goroutine 1 [running]:\nmain.(*Client).Token(0x0)\n\t/src/client.go:42 +0x1d"
    ),
    lambda g: (
        "at com.acme.auth.TokenService.refresh(TokenService.java:118)\n"
        "Caused by: java.lang.IllegalStateException: secret store not initialised"
    ),
    lambda g: f"session {uuid.UUID(int=g.rng.getrandbits(128))} started; csrf check passed",
]


def build() -> list[dict[str, Any]]:
    g = _Gen(random.Random(SEED))
    samples: list[dict[str, Any]] = []
    for kind, (make, names, contexts) in _KINDS.items():
        for context in contexts:
            for n in range(PER_CONTEXT):
                name = names[n % len(names)] if names else ""
                template = _context(g, kind, context, name)
                secret = make(g)
                text, spans = "", []
                for piece in template:
                    if isinstance(piece, str):
                        text += piece
                        continue
                    value, value_kind = (secret, kind) if len(piece) == 1 else (piece[1], piece[2])
                    spans.append([len(text), len(text) + len(value), value_kind])
                    text += value
                samples.append(
                    {
                        "id": f"{kind}-{context}-{n}",
                        "set": "secret",
                        "kind": kind,
                        "context": context,
                        "text": text,
                        "secrets": spans,
                    }
                )
    for index, make_clean in enumerate(_CLEAN):
        for n in range(PER_CONTEXT):
            samples.append(
                {
                    "id": f"clean-{index}-{n}",
                    "set": "clean",
                    "kind": "clean",
                    "context": f"clean-{index}",
                    "text": make_clean(g),
                    "secrets": [],
                }
            )
    return samples


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--write", type=Path, help="write the corpus as JSON lines to this path")
    args = parser.parse_args()
    samples = build()
    counts = Counter(sample["set"] for sample in samples)
    planted = sum(len(sample["secrets"]) for sample in samples)
    kinds = len({sample["kind"] for sample in samples if sample["set"] == "secret"})
    print(
        f"{counts['secret']} secret samples ({planted} planted secrets, {kinds} kinds), "
        f"{counts['clean']} clean"
    )
    if args.write:
        with args.write.open("w") as out:
            for sample in samples:
                out.write(json.dumps(sample) + "\n")
    sys.exit(0)


if __name__ == "__main__":
    main()
