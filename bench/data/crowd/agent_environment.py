"""agent_environment crowd: problems of the family that no labelled base problem states.

Web and browser automation, shell and file-system work, package managers, containers, CI runners,
cloud CLIs, API orchestration, spreadsheets, email and calendar agents, databases and ops work,
networking, game and simulated environments, robotics-like planning.
"""

from . import Problem

PROBLEMS: list[Problem] = [
    # -------------------- API orchestration
    Problem(
        slug="async_operation_polling",
        category="repair",
        summary="Wait for the {provider} {job} started by {client} to finish before reading its result",
        task=(
            "In {client}, the agent started the {provider} {job} and read the result straight away, getting "
            "{early}; make it wait for the operation to complete and then fetch the output."
        ),
        steps=(
            "Capture the operation handle from the first {provider} response ({handle}) instead of treating "
            "the initial response as the result",
            "Poll {poll} with exponential backoff capped at about 30 seconds and an overall deadline, "
            "honouring Retry-After when the service sends it",
            "Stop when {done}; on a failed or cancelled terminal state surface the error payload and exit "
            "non-zero",
            "Only then download or read the result, and log the operation id so a rerun can resume polling "
            "instead of starting a second job",
        ),
        avoid=(
            "Do not poll in a tight loop: {provider} throttles status calls and the job does not finish any "
            "faster",
            "Do not replace polling with a fixed sleep: job duration grows with the data size",
        ),
        signals=(
            "{sig1}",
            "{sig2}",
            "long-running operation|async job",
        ),
        validation=("python replay_env.py --task async-job --check",),
        slots={
            "provider": (
                {
                    "provider": "Azure Resource Manager",
                    "job": "template deployment",
                    "early": "provisioningState Running and no outputs",
                    "handle": "the Azure-AsyncOperation or Location header of the 201/202 response",
                    "poll": "the Azure-AsyncOperation URL",
                    "done": "status is Succeeded, Failed or Canceled",
                    "sig1": "azure-asyncoperation",
                    "sig2": "provisioningState",
                },
                {
                    "provider": "Google Cloud",
                    "job": "Cloud SQL export operation",
                    "early": "an empty bucket path",
                    "handle": "the operation name returned by the export call",
                    "poll": "operations.get (gcloud sql operations describe) on that name",
                    "done": "the operation reports status DONE, then check its error field",
                    "sig1": "operations.get",
                    "sig2": "google.longrunning",
                },
                {
                    "provider": "Salesforce Bulk API 2.0",
                    "job": "bulk query job",
                    "early": "'InvalidJob: job is not complete'",
                    "handle": "the job id in the create-job response",
                    "poll": "GET /services/data/vXX.X/jobs/query/<jobId>",
                    "done": "state is JobComplete, then page /results with the Sforce-Locator header",
                    "sig1": "JobComplete",
                    "sig2": "Sforce-Locator",
                },
                {
                    "provider": "Shopify Admin GraphQL",
                    "job": "bulk operation export",
                    "early": "a null download url",
                    "handle": "the bulkOperation id from bulkOperationRunQuery",
                    "poll": "currentBulkOperation (status, errorCode, url)",
                    "done": "status is COMPLETED and url is set, then stream the JSONL file line by line",
                    "sig1": "bulkOperationRunQuery",
                    "sig2": "currentBulkOperation",
                },
                {
                    "provider": "Amazon Athena",
                    "job": "query execution",
                    "early": "'InvalidRequestException: Query has not yet finished'",
                    "handle": "the QueryExecutionId from start-query-execution",
                    "poll": "aws athena get-query-execution",
                    "done": "Status.State is SUCCEEDED, FAILED or CANCELLED",
                    "sig1": "get-query-execution",
                    "sig2": "Query has not yet finished",
                },
                {
                    "provider": "Snowflake SQL API",
                    "job": "asynchronous statement",
                    "early": "a 202 body with no rows",
                    "handle": "the statementHandle in the 202 response",
                    "poll": "GET /api/v2/statements/<statementHandle>",
                    "done": "the status call returns 200 with resultSetMetaData, then fetch every partition",
                    "sig1": "statementHandle",
                    "sig2": "resultSetMetaData",
                },
            ),
            "client": (
                "a Python orchestration script",
                "an Airflow task",
                "a GitHub Actions step",
                "a Bash script using curl",
                "a Node.js worker",
                "a Prefect flow",
                "a Dagster op",
                "a nightly cron job",
            ),
        },
    ),
    Problem(
        slug="cloud_bulk_op_throttling",
        category="repair",
        summary="Finish a bulk {cloud} job {op} that keeps failing with {throttle}",
        task=(
            "An ops agent was {op} with a loop of {cloud} API calls; about a third failed with {throttle} "
            "and the run stopped half done. Finish it without tripping the limits."
        ),
        steps=(
            "Count the calls the job makes per resource and look for a batch or filtered list call that "
            "replaces per-item describe calls",
            "Enable the SDK's retry behaviour ({retry_cfg}) with jittered exponential backoff",
            "Add a client-side rate limiter (token bucket) set below the documented limit and run with a "
            "small worker pool rather than unbounded concurrency",
            "Write each finished resource id to a checkpoint file so a rerun skips completed items, and "
            "start with a dry run over the first 50",
        ),
        avoid=(
            "Do not retry throttled calls immediately in parallel: it deepens the throttling and can lock "
            "out other tooling in the same {scope}",
        ),
        signals=(
            "{throttle}",
            "{sig}",
            "/rate.?exceeded|too many requests/i",
        ),
        validation=("python bulk_op.py --dry-run --limit 50",),
        slots={
            "cloud": (
                {
                    "cloud": "AWS",
                    "throttle": "ThrottlingException: Rate exceeded",
                    "retry_cfg": (
                        "AWS_RETRY_MODE=adaptive and AWS_MAX_ATTEMPTS=10, or botocore Config(retries=...)"
                    ),
                    "sig": "AWS_RETRY_MODE",
                    "scope": "account and region",
                },
                {
                    "cloud": "Azure",
                    "throttle": "429 TooManyRequests",
                    "retry_cfg": "the azure-core RetryPolicy, which honours Retry-After",
                    "sig": "x-ms-ratelimit-remaining-subscription-reads",
                    "scope": "subscription",
                },
                {
                    "cloud": "Google Cloud",
                    "throttle": "429 RESOURCE_EXHAUSTED: Quota exceeded",
                    "retry_cfg": "google.api_core.retry.Retry with a deadline",
                    "sig": "rateLimitExceeded",
                    "scope": "project",
                },
                {
                    "cloud": "Oracle Cloud",
                    "throttle": "429 TooManyRequests",
                    "retry_cfg": "oci.retry.DEFAULT_RETRY_STRATEGY on each client",
                    "sig": "oci.retry",
                    "scope": "tenancy",
                },
            ),
            "op": (
                "tagging 3,000 virtual machines",
                "deleting 10,000 stale DNS records",
                "snapshotting 600 disks",
                "updating 1,200 firewall rules",
                "reading metadata of 50,000 storage objects",
                "describing 5,000 network interfaces",
                "creating 400 monitoring alarms",
                "setting lifecycle rules on 900 buckets",
                "deregistering 1,500 old machine images",
                "restarting 300 managed instances",
                "relabelling 2,500 load-balancer targets",
                "exporting 20,000 audit-log entries",
            ),
        },
    ),
    Problem(
        slug="resumable_large_upload",
        category="repair",
        summary=(
            "Upload a {size} to {service} with its resumable upload protocol so {failure} no longer "
            "restarts it"
        ),
        task=(
            "An agent uploading a {size} to {service} restarted from byte zero every time {failure} "
            "interrupted the transfer; make the upload resume where it stopped and verify the stored "
            "object."
        ),
        steps=(
            "Open the upload with {start} and save the upload handle and chunk size to disk",
            "Send the file in chunks ({chunking}) and record each acknowledged offset or part",
            "After an interruption, ask the service what it already has ({query}) and continue from there",
            "Finish with {finish}, then compare the stored size and checksum with the local file",
        ),
        avoid=(
            "Do not open a new upload on every retry: the bytes already sent are thrown away and abandoned "
            "partial uploads pile up on {service}",
            "Do not pick a chunk size that breaks the protocol's rules ({chunk_rule})",
        ),
        signals=(
            "{sig1}",
            "{sig2}",
            "resumable upload|chunked upload",
        ),
        validation=("python check_state.py --task upload --verify-checksum",),
        slots={
            "service": (
                {
                    "service": "Google Drive",
                    "start": "a files.create request with uploadType=resumable",
                    "chunking": "PUT to the session URI with Content-Range headers",
                    "query": (
                        "an empty PUT with Content-Range: bytes */TOTAL, answered by 308 and a Range header"
                    ),
                    "finish": "the final chunk, which returns 200 with the file resource",
                    "chunk_rule": "chunks must be multiples of 256 KiB",
                    "sig1": "308 Resume Incomplete",
                    "sig2": "uploadType=resumable",
                },
                {
                    "service": "a tus server",
                    "start": "a POST to the tus endpoint with Upload-Length (tus-js-client or tuspy)",
                    "chunking": "PATCH requests carrying Upload-Offset",
                    "query": "a HEAD request on the upload URL, which returns the current Upload-Offset",
                    "finish": "the last PATCH that brings Upload-Offset to Upload-Length",
                    "chunk_rule": "each PATCH must start at the server's current offset",
                    "sig1": "Upload-Offset",
                    "sig2": "tus-resumable",
                },
                {
                    "service": "Amazon S3",
                    "start": "aws s3api create-multipart-upload",
                    "chunking": "upload-part calls with numbered parts",
                    "query": "aws s3api list-parts with the UploadId",
                    "finish": "complete-multipart-upload with every part number and ETag",
                    "chunk_rule": "every part except the last must be at least 5 MiB, at most 10,000 parts",
                    "sig1": "create-multipart-upload",
                    "sig2": "NoSuchUpload",
                },
                {
                    "service": "Azure Blob Storage",
                    "start": (
                        "a fixed list of equal-length, base64-encoded block ids (no session call is needed)"
                    ),
                    "chunking": "Put Block calls, one per block id",
                    "query": "Get Block List with blocklisttype=uncommitted",
                    "finish": "Put Block List with the ordered block ids",
                    "chunk_rule": "block ids in one blob must all have the same length",
                    "sig1": "Put Block List",
                    "sig2": "InvalidBlobOrBlock",
                },
                {
                    "service": "Dropbox",
                    "start": "files/upload_session/start",
                    "chunking": "files/upload_session/append_v2 with the cursor offset",
                    "query": "the correct_offset returned in an incorrect_offset error",
                    "finish": "files/upload_session/finish with the commit path",
                    "chunk_rule": "each append call may carry at most 150 MB",
                    "sig1": "upload_session/append_v2",
                    "sig2": "incorrect_offset",
                },
                {
                    "service": "Google Cloud Storage",
                    "start": "a POST to the JSON API upload endpoint with uploadType=resumable",
                    "chunking": "PUT to the session URI with Content-Range headers",
                    "query": (
                        "an empty PUT with Content-Range: bytes */TOTAL, answered by 308 and a Range header"
                    ),
                    "finish": "the final chunk, which returns the object metadata",
                    "chunk_rule": "chunks must be multiples of 256 KiB",
                    "sig1": "308 Resume Incomplete",
                    "sig2": "storage.googleapis.com/upload",
                },
            ),
            "size": (
                "4 GB video file",
                "20 GB database dump",
                "800 MB dataset archive",
                "12 GB disk image",
            ),
            "failure": (
                "a flaky office uplink",
                "the laptop going to sleep",
            ),
        },
    ),
    Problem(
        slug="api_version_sunset_migration",
        category="explore",
        summary="Move {client} off a deprecated {api} version before the provider switches it off",
        task=(
            "The provider announced that the {api} version used by {client} will be removed next quarter; "
            "find every affected call, migrate to the current version and prove nothing broke."
        ),
        steps=(
            "Inventory the calls: log {detect} on live traffic and grep the code for the pinned version "
            "string",
            "Read the provider's changelog between the old and new version and list the breaking changes "
            "that touch the endpoints found",
            "Pin the new version in a test environment ({pin}) and run contract tests against recorded "
            "responses",
            "Roll out gradually and alert on any response that still carries deprecation headers",
        ),
        avoid=(
            "Do not upgrade by leaving the version unpinned: the provider's default moves on its own "
            "schedule",
        ),
        signals=(
            "{sig1}",
            "Sunset|Deprecation header",
            "{sig2}",
        ),
        validation=("python contract_tests.py --api-version next",),
        slots={
            "api": (
                {
                    "api": "Shopify Admin API",
                    "detect": "the X-Shopify-API-Version response header",
                    "pin": "the version segment in /admin/api/YYYY-MM/",
                    "sig1": "X-Shopify-API-Version",
                    "sig2": "shopify api version",
                },
                {
                    "api": "Stripe API",
                    "detect": "the Stripe-Version each request is served with",
                    "pin": "a Stripe-Version header per request or the SDK's apiVersion setting",
                    "sig1": "Stripe-Version",
                    "sig2": "stripe api upgrade",
                },
                {
                    "api": "Microsoft Graph beta endpoint",
                    "detect": "requests to graph.microsoft.com/beta",
                    "pin": "the /v1.0 base URL",
                    "sig1": "graph.microsoft.com/beta",
                    "sig2": "microsoft graph v1.0",
                },
                {
                    "api": "Kubernetes API group",
                    "detect": (
                        "'Warning: ... is deprecated' lines from kubectl and the "
                        "apiserver_requested_deprecated_apis metric"
                    ),
                    "pin": "the new apiVersion in manifests, checked with pluto or kubent",
                    "sig1": "apiserver_requested_deprecated_apis",
                    "sig2": "pluto detect-files",
                },
                {
                    "api": "Google Ads API",
                    "detect": "the vNN segment of the service endpoints in use",
                    "pin": "the client library version that targets the new API version",
                    "sig1": "google ads api sunset",
                    "sig2": "googleads.googleapis.com",
                },
                {
                    "api": "Meta Graph API",
                    "detect": "the vNN.0 path prefix and the facebook-api-version response header",
                    "pin": "an explicit vNN.0 prefix on every call",
                    "sig1": "facebook-api-version",
                    "sig2": "graph.facebook.com",
                },
                {
                    "api": "GitHub REST API",
                    "detect": "the X-GitHub-Api-Version request header and deprecation notices in responses",
                    "pin": "X-GitHub-Api-Version on every request",
                    "sig1": "X-GitHub-Api-Version",
                    "sig2": "api.github.com",
                },
            ),
            "client": (
                "an internal sync service",
                "a nightly reporting job",
                "a mobile app backend",
                "a partner integration",
                "a command-line tool",
                "a webhook consumer",
            ),
        },
    ),
    Problem(
        slug="mcp_tool_argument_validation",
        category="repair",
        summary="Fix an agent's calls to {server} that are rejected for invalid {arg} arguments",
        task=(
            "An agent using {server} kept getting schema validation errors on {arg} arguments and gave up "
            "half way through the task; make its tool calls valid on the first try."
        ),
        steps=(
            "Fetch the tool definitions ({listing}) and read the exact input schema of the failing tool: "
            "required fields, types, enums and formats",
            "Capture the rejected call and the full error text, and compare the {arg} value with what the "
            "schema asks",
            "Normalise arguments before sending: coerce types, map free text to enum values, format dates "
            "as ISO 8601, and drop fields the schema does not declare",
            "Validate the arguments locally with jsonschema and, if the server still rejects them, feed its "
            "error back to the model once before retrying",
        ),
        avoid=(
            "Do not retry the same rejected arguments in a loop: the error is deterministic and burns the "
            "step budget",
        ),
        signals=(
            "{sig}",
            "-32602|invalid params",
            "inputSchema",
        ),
        validation=("python replay_env.py --task tool-calls --check",),
        slots={
            "server": (
                {
                    "server": "an MCP filesystem server",
                    "listing": "tools/list",
                    "sig": "mcp server-filesystem",
                },
                {"server": "an MCP GitHub server", "listing": "tools/list", "sig": "github-mcp-server"},
                {"server": "an MCP Postgres server", "listing": "tools/list", "sig": "mcp server-postgres"},
                {"server": "an MCP Playwright server", "listing": "tools/list", "sig": "playwright-mcp"},
                {"server": "an MCP Slack server", "listing": "tools/list", "sig": "mcp server-slack"},
                {
                    "server": "OpenAI function-calling tools",
                    "listing": "the tools array sent with the request",
                    "sig": "strict: true",
                },
                {
                    "server": "a LangChain StructuredTool",
                    "listing": "tool.args_schema.model_json_schema()",
                    "sig": "ValidationError",
                },
            ),
            "arg": (
                "date-range",
                "enum",
                "nested-object",
                "array-of-ids",
                "integer-limit",
                "file-path",
                "boolean-flag",
            ),
        },
    ),
    # -------------------- browser automation
    Problem(
        slug="browser_drag_and_drop",
        category="repair",
        summary="Make drag-and-drop work with {framework} on a {widget}",
        task=(
            "A browser agent using {framework} had to reorder items by dragging a {widget}; the drag "
            "visibly happened but the app state did not change. Make the move register."
        ),
        steps=(
            "Check whether the {widget} uses native HTML5 drag events (draggable=true with dragstart/drop "
            "listeners) or a pointer-based library such as dnd-kit, SortableJS or react-beautiful-dnd",
            "For native HTML5 drag and drop use {native}",
            "For pointer-based libraries press, pause briefly, then move in several small steps ({pointer}) "
            "so the library's activation distance and delay are met before releasing over the target",
            "Assert the new order from the DOM or the app's API instead of trusting the animation",
        ),
        avoid=(
            "Do not reorder the items by editing the DOM with JavaScript: the app's state store never sees "
            "the change",
        ),
        signals=(
            "drag and drop|drag-and-drop",
            "{sig}",
            "dragstart",
        ),
        validation=("python replay_env.py --task drag-drop --check",),
        slots={
            "framework": (
                {
                    "framework": "Playwright",
                    "native": "locator.drag_to(target), which dispatches the drag events",
                    "pointer": (
                        "page.mouse.down(), several page.mouse.move(x, y, steps=10) calls, page.mouse.up()"
                    ),
                    "sig": "drag_to",
                },
                {
                    "framework": "Selenium",
                    "native": (
                        "a small JavaScript helper that dispatches dragstart, dragover and drop with one "
                        "DataTransfer, because ActionChains.drag_and_drop does not fire HTML5 drag events "
                        "in Chrome"
                    ),
                    "pointer": "ActionChains click_and_hold, pause, several move_by_offset calls, release",
                    "sig": "ActionChains",
                },
                {
                    "framework": "Puppeteer",
                    "native": "page.setDragInterception(true) with elementHandle.dragAndDrop(target)",
                    "pointer": "page.mouse.down(), page.mouse.move(x, y, { steps: 10 }), page.mouse.up()",
                    "sig": "setDragInterception",
                },
                {
                    "framework": "Cypress",
                    "native": (
                        "trigger('dragstart'), trigger('dragover') and trigger('drop') sharing one "
                        "DataTransfer"
                    ),
                    "pointer": (
                        "trigger('pointerdown'), trigger('pointermove') with coordinates, "
                        "trigger('pointerup')"
                    ),
                    "sig": "cy.trigger",
                },
                {
                    "framework": "WebdriverIO",
                    "native": "element.dragAndDrop(target) on Chromium, or a dispatched DataTransfer helper",
                    "pointer": "browser.action('pointer') with down, pause, several move steps and up",
                    "sig": "dragAndDrop",
                },
            ),
            "widget": (
                "kanban board card",
                "sortable table row",
                "file tree node",
                "dashboard widget grid",
                "calendar event block",
                "photo gallery thumbnail",
                "form builder palette item",
                "playlist track",
                "priority list entry",
            ),
        },
    ),
    Problem(
        slug="browser_locale_timezone_emulation",
        category="repair",
        summary=(
            "Make a browser agent on {framework} see a storefront in {locale} with {currency} prices and "
            "{tz} times"
        ),
        task=(
            "A shopping agent driven by {framework} read prices in the wrong currency and dates in the "
            "wrong format because the sandbox browser ran as en-US in UTC; the task expects {locale}, "
            "{currency} and {tz}."
        ),
        steps=(
            "Record what the site currently sees: navigator.language, "
            "Intl.DateTimeFormat().resolvedOptions().timeZone and the Accept-Language request header",
            "Set locale, time zone and region when the browser context is created: {how}",
            "If the site picks the region from geolocation, grant the permission and set coordinates in the "
            "target country; if it uses a country cookie or selector, set that explicitly",
            "Re-read a price and a date from the page and check the currency symbol and format match "
            "{locale}",
        ),
        avoid=(
            "Do not convert prices yourself from the wrong currency: the store's regional price lists are "
            "not exchange-rate conversions",
        ),
        signals=(
            "{sig}",
            "accept-language",
            "timezone_id|timezoneId",
        ),
        validation=("python replay_env.py --task locale --check",),
        slots={
            "framework": (
                {
                    "framework": "Playwright",
                    "how": (
                        "browser.new_context(locale=..., timezone_id=..., geolocation=..., "
                        "permissions=['geolocation'])"
                    ),
                    "sig": "new_context",
                },
                {
                    "framework": "Puppeteer",
                    "how": (
                        "page.emulateTimezone(), page.setExtraHTTPHeaders for Accept-Language, the --lang "
                        "flag, and page.setGeolocation after overridePermissions"
                    ),
                    "sig": "emulateTimezone",
                },
                {
                    "framework": "Selenium with Chrome",
                    "how": (
                        "the intl.accept_languages preference, --lang, and "
                        "execute_cdp_cmd('Emulation.setTimezoneOverride')"
                    ),
                    "sig": "setTimezoneOverride",
                },
                {
                    "framework": "Selenium with Firefox",
                    "how": (
                        "the intl.accept_languages preference and the TZ environment variable of the "
                        "geckodriver process"
                    ),
                    "sig": "intl.accept_languages",
                },
            ),
            "locale": (
                {"locale": "de-DE", "currency": "EUR", "tz": "Europe/Berlin"},
                {"locale": "ja-JP", "currency": "JPY", "tz": "Asia/Tokyo"},
                {"locale": "fr-CA", "currency": "CAD", "tz": "America/Toronto"},
                {"locale": "pt-BR", "currency": "BRL", "tz": "America/Sao_Paulo"},
                {"locale": "en-GB", "currency": "GBP", "tz": "Europe/London"},
                {"locale": "es-MX", "currency": "MXN", "tz": "America/Mexico_City"},
                {"locale": "hi-IN", "currency": "INR", "tz": "Asia/Kolkata"},
                {"locale": "ko-KR", "currency": "KRW", "tz": "Asia/Seoul"},
                {"locale": "en-AU", "currency": "AUD", "tz": "Australia/Sydney"},
                {"locale": "sv-SE", "currency": "SEK", "tz": "Europe/Stockholm"},
                {"locale": "pl-PL", "currency": "PLN", "tz": "Europe/Warsaw"},
            ),
        },
    ),
    Problem(
        slug="third_party_scripts_navigation_timeout",
        category="repair",
        summary=(
            "Stop {framework} navigations timing out because {thirdparty} keeps the page from reaching load"
        ),
        task=(
            "Every page.goto in a {framework} agent hit the navigation timeout although the content was "
            "visible, because {thirdparty} kept loading; make navigation fast and reliable."
        ),
        steps=(
            "Open the network log for one navigation and find the requests still pending when the timeout "
            "fires",
            "Wait for the right milestone instead of the full load event: {wait}",
            "Block or stub the third-party hosts the task does not need: {block}",
            "Then wait for the element the next action needs, and run the flow ten times to confirm it is "
            "stable",
        ),
        avoid=(
            "Do not just raise the navigation timeout: the page still waits on {thirdparty} and every step "
            "gets slower",
        ),
        signals=(
            "{timeout_msg}",
            "{sig}",
            "domcontentloaded",
        ),
        validation=("python replay_env.py --task navigate --runs 10",),
        slots={
            "framework": (
                {
                    "framework": "Playwright",
                    "wait": "page.goto(url, wait_until='domcontentloaded') or 'commit'",
                    "block": "page.route('**/*', handler) aborting requests to those domains",
                    "timeout_msg": "page.goto: Timeout 30000ms exceeded",
                    "sig": "page.route",
                },
                {
                    "framework": "Puppeteer",
                    "wait": "page.goto(url, { waitUntil: 'domcontentloaded' })",
                    "block": "page.setRequestInterception(true) and request.abort() for those hosts",
                    "timeout_msg": "Navigation timeout of 30000 ms exceeded",
                    "sig": "setRequestInterception",
                },
                {
                    "framework": "Selenium",
                    "wait": "options.page_load_strategy = 'eager'",
                    "block": "the CDP command Network.setBlockedURLs with the third-party patterns",
                    "timeout_msg": "Timed out receiving message from renderer",
                    "sig": "page_load_strategy",
                },
                {
                    "framework": "Cypress",
                    "wait": "cy.visit followed by a cy.get on the element needed",
                    "block": "cy.intercept on those hosts replying with an empty 204",
                    "timeout_msg": "Timed out after waiting 60000ms for your remote page to load",
                    "sig": "cy.intercept",
                },
            ),
            "thirdparty": (
                "an analytics tag",
                "a live-chat widget",
                "an ad network script",
                "a session-replay recorder",
                "an A/B testing snippet",
                "a social share embed",
                "a slow web-font CDN",
                "a tag manager container",
                "a video player embed",
                "a customer-reviews widget",
                "a map tile embed",
            ),
        },
    ),
    Problem(
        slug="html_to_pdf_rendering",
        category="innovate",
        summary="Render {doc} to PDF with {engine} so the output matches the on-screen layout",
        task=(
            "An agent had to produce a PDF of {doc} from a web page with {engine}; the first attempt cut "
            "tables across pages, lost background colours and rendered fallback fonts."
        ),
        steps=(
            "Add print rules to the page: @page size and margins, break-inside: avoid on rows and cards, "
            "and print-color-adjust: exact for coloured backgrounds",
            "Wait until web fonts and charts are finished (document.fonts.ready, a chart-rendered flag) "
            "before printing",
            "Print with {call}",
            "Check the output with pdfinfo (page count, page size) and pdftotext to confirm no text is "
            "missing",
        ),
        avoid=(
            "Do not screenshot the page and wrap the image in a PDF: text stops being selectable and "
            "searchable",
        ),
        signals=(
            "{sig}",
            "@page|print css",
            "pdfinfo",
        ),
        validation=(
            "pdfinfo out.pdf",
            "pdftotext out.pdf out.txt",
        ),
        slots={
            "engine": (
                {
                    "engine": "Playwright",
                    "call": (
                        "page.emulate_media(media='print') and page.pdf(format='A4', print_background=True) "
                        "on Chromium"
                    ),
                    "sig": "page.pdf",
                },
                {
                    "engine": "Puppeteer",
                    "call": "page.pdf({ format: 'A4', printBackground: true, preferCSSPageSize: true })",
                    "sig": "printBackground",
                },
                {
                    "engine": "headless Chrome",
                    "call": "chrome --headless --print-to-pdf=out.pdf --no-pdf-header-footer URL",
                    "sig": "--print-to-pdf",
                },
                {
                    "engine": "WeasyPrint",
                    "call": (
                        "weasyprint page.html out.pdf, after inlining or serving the stylesheets it "
                        "references"
                    ),
                    "sig": "weasyprint",
                },
                {
                    "engine": "Gotenberg",
                    "call": (
                        "a POST to /forms/chromium/convert/url with printBackground=true and a "
                        "waitForExpression"
                    ),
                    "sig": "gotenberg",
                },
            ),
            "doc": (
                "an invoice page",
                "a dashboard with charts",
                "a multi-page report",
                "a shipping label",
                "a boarding pass",
                "a CV page",
                "a long data table",
                "a course certificate",
                "a receipt",
            ),
        },
    ),
    Problem(
        slug="visual_snapshot_flakiness",
        category="repair",
        summary="Stabilise {tool} screenshot comparisons of {page} that fail by a few pixels on every run",
        task=(
            "Visual regression checks with {tool} for {page} failed on most CI runs with small diffs "
            "although nothing changed; make them pass on unchanged code and still catch real regressions."
        ),
        steps=(
            "Open the diff images and classify the changed regions: animation frames, live data, font "
            "antialiasing or images still loading",
            "Freeze what moves: {freeze}",
            "Mask or hide dynamic regions ({mask}) and pin the clock and seed data so text is identical",
            "Render baselines in the same container image and browser version as CI, then introduce a "
            "deliberate one-line CSS change to confirm the check still fails on a real regression",
        ),
        avoid=(
            "Do not raise the diff threshold until the flakes pass: real layout regressions then pass too",
        ),
        signals=(
            "{sig}",
            "screenshot comparison failed|visual diff",
            "maxDiffPixels|misMatchThreshold",
        ),
        validation=("python replay_env.py --task visual --runs 5",),
        slots={
            "tool": (
                {
                    "tool": "Playwright Test",
                    "freeze": "toHaveScreenshot with animations: 'disabled' and caret: 'hide'",
                    "mask": "the mask option with locators",
                    "sig": "toHaveScreenshot",
                },
                {
                    "tool": "BackstopJS",
                    "freeze": "a readySelector plus a delay and an onReady script that pauses CSS animations",
                    "mask": "hideSelectors and removeSelectors",
                    "sig": "backstop test",
                },
                {
                    "tool": "Percy",
                    "freeze": "percyCSS that stops animations and transitions",
                    "mask": "percyCSS rules that hide the dynamic regions",
                    "sig": "percy snapshot",
                },
                {
                    "tool": "Chromatic",
                    "freeze": "the pauseAnimationAtEnd and delay story parameters",
                    "mask": (
                        'the chromatic-ignore class or a data-chromatic="ignore" attribute on dynamic '
                        "elements"
                    ),
                    "sig": "chromatic",
                },
                {
                    "tool": "cypress-image-snapshot",
                    "freeze": "cy.clock() and a stylesheet that disables transitions",
                    "mask": "blackout selectors",
                    "sig": "matchImageSnapshot",
                },
            ),
            "page": (
                "a dashboard with live timestamps",
                "a landing page with a carousel",
                "a chart-heavy report",
                "a map view",
                "a search box with a blinking cursor",
                "a product grid with lazy images",
                "a feed showing relative dates",
                "a login page with a rotating background",
                "a page that shows loading skeletons",
            ),
        },
    ),
    Problem(
        slug="browser_saved_auth_state",
        category="optimize",
        summary=(
            "Reuse saved authenticated browser state across {framework} runs so {suite} stops logging in "
            "each time"
        ),
        task=(
            "Every test in {suite} driven by {framework} logged in through the UI first, which took most of "
            "the run time and tripped the site's login rate limit; authenticate once and reuse the session."
        ),
        steps=(
            "Log in once in a setup step and save the session: {save}",
            "Start every test or worker from the saved state: {load}",
            "Validate the state at start-up by loading a page only authenticated users see, and redo the "
            "setup login when it has expired",
            "Keep one saved state per role or account so parallel workers do not share a session the app "
            "may revoke",
        ),
        avoid=(
            "Do not commit the saved state file or print it: it holds live session cookies",
            "Do not share one session across parallel workers when the app rotates sessions on use",
        ),
        signals=(
            "{sig}",
            "storage state|session reuse",
            "login rate limit",
        ),
        validation=("python replay_env.py --task auth-reuse --check",),
        slots={
            "framework": (
                {
                    "framework": "Playwright Test",
                    "save": "a setup project that calls page.context().storageState({ path })",
                    "load": "use: { storageState } in the dependent projects",
                    "sig": "storageState",
                },
                {
                    "framework": "Playwright Python",
                    "save": "context.storage_state(path='state.json')",
                    "load": "browser.new_context(storage_state='state.json')",
                    "sig": "storage_state",
                },
                {
                    "framework": "Cypress",
                    "save": "cy.session(id, setup, { validate, cacheAcrossSpecs: true })",
                    "load": "the same cy.session call in beforeEach, which restores cookies and storage",
                    "sig": "cy.session",
                },
                {
                    "framework": "Selenium",
                    "save": "driver.get_cookies() written to a file after login",
                    "load": "visiting the domain first, then driver.add_cookie for each saved cookie",
                    "sig": "add_cookie",
                },
                {
                    "framework": "Puppeteer",
                    "save": "a persistent userDataDir, or page.cookies() written to a file",
                    "load": "launch({ userDataDir }) or page.setCookie(...saved)",
                    "sig": "userDataDir",
                },
            ),
            "suite": (
                "a 300-test end-to-end suite",
                "a nightly scraping agent",
                "a sharded CI run",
                "a multi-role admin test suite",
                "a monitoring bot that checks dashboards every five minutes",
                "a 40-step RPA workflow",
                "a smoke-test pack run on each deploy",
                "an intranet wiki crawler",
                "a customer-support RPA bot",
                "a visual regression suite",
            ),
        },
    ),
    # -------------------- shell and file system
    Problem(
        slug="crlf_line_endings_scripts",
        category="repair",
        summary="Fix {script} failing with '{error}' after it was edited on Windows",
        task=(
            "After a commit from a Windows machine, {script} ({file}) stopped working and now fails with "
            "'{error}'; fix the file and stop it from happening again."
        ),
        steps=(
            "Confirm the cause: file {file} reports 'with CRLF line terminators' and cat -A {file} shows "
            "^M$ at line ends; also check the first three bytes for a UTF-8 BOM",
            "Convert the file with dos2unix {file} (or sed -i 's/\\r$//' {file}) and remove any BOM",
            "Add a .gitattributes rule such as '*.sh text eol=lf' and run git add --renormalize . so the "
            "repository stores LF",
            "Re-run the script in its real environment and check its exit code",
        ),
        avoid=(
            "Do not fix it by changing the shebang or calling {interp} explicitly: every line still carries "
            "a carriage return and later commands break",
        ),
        signals=(
            "{error}",
            "crlf line terminators",
            "dos2unix",
        ),
        validation=(
            "file {file}",
            "bash -n {file}",
        ),
        slots={
            "error": (
                {"error": "/bin/bash^M: bad interpreter: No such file or directory", "interp": "bash"},
                {"error": "$'\\r': command not found", "interp": "bash"},
                {"error": "/bin/sh^M: bad interpreter: No such file or directory", "interp": "sh"},
                {"error": "syntax error near unexpected token $'do\\r'", "interp": "bash"},
                {"error": "set: pipefail\\r: invalid option name", "interp": "bash"},
            ),
            "script": (
                {"script": "a Docker ENTRYPOINT script", "file": "docker-entrypoint.sh"},
                {"script": "a CI setup script", "file": "ci/setup.sh"},
                {"script": "a cron backup script", "file": "bin/backup.sh"},
                {"script": "a git pre-commit hook", "file": ".githooks/pre-commit"},
                {"script": "a systemd ExecStart wrapper", "file": "deploy/start.sh"},
                {"script": "a Kubernetes init container script", "file": "k8s/init.sh"},
                {"script": "a Vagrant provisioning script", "file": "provision.sh"},
                {"script": "a release script", "file": "scripts/release.sh"},
                {"script": "a database seed script", "file": "db/seed.sh"},
            ),
        },
    ),
    Problem(
        slug="inotify_watch_limit",
        category="repair",
        summary="Fix '{error}' from {tool} on a {host}",
        task=(
            "On a {host}, {tool} stopped picking up file changes and logged '{error}'; make file watching "
            "work again without slowing the machine down."
        ),
        steps=(
            "Read the current limits: sysctl fs.inotify.max_user_watches fs.inotify.max_user_instances",
            "Find who holds the watches by counting inotify file descriptors per process under /proc/*/fd "
            "(links to anon_inode:inotify)",
            "Exclude what does not need watching from the watcher's configuration ({exclude})",
            "If the limit is still too low, raise it in /etc/sysctl.d/90-inotify.conf and apply with sysctl "
            "--system; inside containers set it on the host or node, since the sysctl is not namespaced",
        ),
        avoid=(
            "Do not switch the watcher to polling as the fix: it burns CPU on large trees and still misses "
            "quick saves",
        ),
        signals=(
            "{error}",
            "max_user_watches",
            "inotify",
        ),
        validation=("sysctl fs.inotify.max_user_watches",),
        slots={
            "tool": (
                {
                    "tool": "a webpack dev server",
                    "error": "ENOSPC: System limit for number of file watchers reached",
                    "exclude": "watchOptions.ignored for node_modules",
                },
                {
                    "tool": "a Vite dev server",
                    "error": "ENOSPC: System limit for number of file watchers reached",
                    "exclude": "server.watch.ignored",
                },
                {
                    "tool": "jest --watch",
                    "error": "ENOSPC: System limit for number of file watchers reached",
                    "exclude": "watchPathIgnorePatterns",
                },
                {
                    "tool": "the VS Code server",
                    "error": "Visual Studio Code is unable to watch for file changes in this large workspace",
                    "exclude": "files.watcherExclude",
                },
                {
                    "tool": "tail -F on rotated logs",
                    "error": "tail: inotify resources exhausted",
                    "exclude": "fewer followed files per process",
                },
                {
                    "tool": "nodemon",
                    "error": "Error: ENOSPC: System limit for number of file watchers reached",
                    "exclude": "the ignore list in nodemon.json",
                },
                {
                    "tool": "watchman",
                    "error": "inotify_add_watch: No space left on device",
                    "exclude": "ignore_dirs in .watchmanconfig",
                },
                {
                    "tool": "Syncthing",
                    "error": "failed to set up inotify handler, increase inotify limits",
                    "exclude": "the .stignore file",
                },
            ),
            "host": (
                "developer VM",
                "CI runner",
                "Kubernetes node",
                "WSL2 distribution",
                "Docker host",
                "shared build server",
            ),
        },
    ),
    Problem(
        slug="pipeline_exit_status_masked",
        category="repair",
        summary="Make {script} fail loudly when {cmd} fails inside the pipeline '{pipeline}'",
        task=(
            "A run of {script} reported success although {cmd} had failed in '{pipeline}', leaving "
            "{symptom}; make the script stop and exit non-zero on any failure."
        ),
        steps=(
            "Run the script with bash -x against a deliberately broken input to see which stage fails and "
            "what exit status the pipeline returns",
            "Start the script with a bash shebang and set -euo pipefail so the pipeline's status is the "
            "first failing stage's, not the last one's",
            "Handle the stages whose non-zero status is normal explicitly ({expected}) instead of disabling "
            "-e",
            "Write output to a temporary file and move it into place only after the whole pipeline "
            "succeeded, so a failed run never leaves a partial artefact behind",
        ),
        avoid=(
            "Do not rely on set -o pipefail in a script run by sh: older dash and other POSIX shells reject "
            "it, so invoke bash explicitly",
        ),
        signals=(
            "pipefail",
            "PIPESTATUS",
            "{sig}",
        ),
        validation=(
            "shellcheck {file}",
            "bash -n {file}",
        ),
        slots={
            "cmd": (
                {
                    "cmd": "pg_dump",
                    "pipeline": "pg_dump app | gzip",
                    "symptom": "a 20-byte backup file",
                    "expected": "none here: any pg_dump error must abort",
                    "sig": "pg_dump",
                },
                {
                    "cmd": "curl",
                    "pipeline": "curl -s URL | tar -xz",
                    "symptom": "an empty release directory",
                    "expected": "use curl -fsS so HTTP errors are failures",
                    "sig": "curl -f",
                },
                {
                    "cmd": "mysqldump",
                    "pipeline": "mysqldump app | zstd",
                    "symptom": "a truncated dump",
                    "expected": "none here: any mysqldump error must abort",
                    "sig": "mysqldump",
                },
                {
                    "cmd": "kubectl",
                    "pipeline": "kubectl get pods -o json | jq",
                    "symptom": "an empty report",
                    "expected": "check that kubectl's context exists before the pipeline",
                    "sig": "kubectl",
                },
                {
                    "cmd": "grep",
                    "pipeline": "grep ERROR app.log | wc -l",
                    "symptom": "a wrong count",
                    "expected": (
                        "grep exits 1 when nothing matches, so wrap only that stage with { grep ... || test "
                        "$? -eq 1; }"
                    ),
                    "sig": "grep exit status 1",
                },
                {
                    "cmd": "aws s3 cp",
                    "pipeline": "aws s3 cp s3://exports/day.csv.gz - | zcat",
                    "symptom": "a load job that imported nothing",
                    "expected": "none here: a missing object must abort",
                    "sig": "aws s3 cp",
                },
                {
                    "cmd": "python export.py",
                    "pipeline": "python export.py | tee export.log",
                    "symptom": "a green job with a traceback in the log",
                    "expected": "tee always succeeds, so pipefail is what surfaces the Python exit code",
                    "sig": "tee",
                },
            ),
            "script": (
                {"script": "a nightly backup script", "file": "bin/nightly.sh"},
                {"script": "a CI deploy step", "file": "ci/deploy.sh"},
                {"script": "a container entrypoint", "file": "docker-entrypoint.sh"},
                {"script": "a data-import script", "file": "scripts/import.sh"},
                {"script": "a release script", "file": "scripts/release.sh"},
                {"script": "an Ansible-invoked shell script", "file": "files/run_export.sh"},
                {"script": "a cron report script", "file": "bin/report.sh"},
            ),
        },
    ),
    Problem(
        slug="locale_not_configured",
        category="repair",
        summary="Fix '{symptom}' in a container built from {image} by configuring a UTF-8 locale",
        task=(
            "Programs in a container built from {image} printed '{symptom}' and mangled non-ASCII text; "
            "configure a working UTF-8 locale in the image."
        ),
        steps=(
            "Check what is set and what exists: locale, locale -a and the LANG / LC_ALL values in the "
            "container",
            "Install or generate the locale: {install}",
            "Set LANG (and LC_ALL only if needed) in the Dockerfile with ENV to a locale that locale -a "
            "lists",
            "Rebuild and re-run the failing program with non-ASCII input to confirm the warning is gone",
        ),
        avoid=(
            "Do not set LC_ALL to a locale that is not generated: every program then warns and falls back "
            "to C",
        ),
        signals=(
            "{symptom}",
            "locale -a",
            "LANG=C.UTF-8|en_US.UTF-8",
        ),
        validation=("locale -a",),
        slots={
            "image": (
                {
                    "image": "Debian slim",
                    "install": (
                        "use the built-in C.UTF-8, or apt-get install locales and run localedef -i en_US -f "
                        "UTF-8 en_US.UTF-8"
                    ),
                },
                {
                    "image": "Ubuntu",
                    "install": (
                        "use the built-in C.UTF-8, or apt-get install locales and run locale-gen en_US.UTF-8"
                    ),
                },
                {
                    "image": "Alpine",
                    "install": (
                        "apk add musl-locales for the locale command, and use C.UTF-8, which musl supports "
                        "natively"
                    ),
                },
                {
                    "image": "Rocky Linux 9",
                    "install": "dnf install glibc-langpack-en, or glibc-minimal-langpack for C.UTF-8 only",
                },
                {"image": "Amazon Linux 2023", "install": "dnf install glibc-langpack-en"},
            ),
            "symptom": (
                "perl: warning: Setting locale failed",
                "bash: warning: setlocale: LC_ALL: cannot change locale (en_US.UTF-8)",
                "UnicodeEncodeError: 'ascii' codec can't encode character",
                "Python was configured to use ASCII as encoding for the environment",
                "initdb: error: invalid locale settings; check LANG and LC_* environment variables",
                "locale: Cannot set LC_CTYPE to default locale: No such file or directory",
                "warning: setlocale: LC_CTYPE: cannot change locale (UTF-8)",
                "manpath: can't set the locale; make sure $LC_* and $LANG are correct",
                "invalid byte sequence in US-ASCII (ArgumentError)",
                "UnicodeDecodeError: 'ascii' codec can't decode byte 0xc3",
            ),
        },
    ),
    Problem(
        slug="shared_library_not_found",
        category="repair",
        summary="Fix '{lib}: cannot open shared object file' when {binary} runs on {distro}",
        task=(
            "On {distro}, {binary} fails with 'error while loading shared libraries: {lib}: cannot open "
            "shared object file: No such file or directory'; make it start without hacks."
        ),
        steps=(
            "List every missing library at once with ldd on the failing binary or extension module and look "
            "for 'not found' lines",
            "Find the package that ships it: {prov_pre}{lib}{prov_post}",
            "Install it with {install}; for {lib} specifically, {fix}",
            "Run ldconfig if the library was installed under /usr/local/lib, then re-run ldd and {binary}",
        ),
        avoid=(
            "Do not symlink a different major version under the missing name (libfoo.so.3 as "
            "libfoo.so.1.1): the ABI differs and it crashes at runtime",
            "Do not copy .so files from another machine into /usr/lib",
        ),
        signals=(
            "error while loading shared libraries",
            "{lib}",
            "ldd",
        ),
        validation=("{check}",),
        slots={
            "lib": (
                {
                    "lib": "libGL.so.1",
                    "binary": "a Python script importing cv2",
                    "fix": "consider opencv-python-headless, which does not need an X or GL stack",
                    "check": "python -c 'import cv2'",
                },
                {
                    "lib": "libpq.so.5",
                    "binary": "a psycopg2-based worker",
                    "fix": "install the PostgreSQL client library package rather than the full server",
                    "check": "python -c 'import psycopg2'",
                },
                {
                    "lib": "libssl.so.1.1",
                    "binary": "a vendor CLI built against OpenSSL 1.1",
                    "fix": (
                        "prefer the vendor's build linked against OpenSSL 3; use a compat package only if "
                        "one is officially shipped"
                    ),
                    "check": "ldd /usr/local/bin/vendor-cli",
                },
                {
                    "lib": "libgomp.so.1",
                    "binary": "a LightGBM training job",
                    "fix": "install the GCC OpenMP runtime package",
                    "check": "python -c 'import lightgbm'",
                },
                {
                    "lib": "libaio.so.1",
                    "binary": "the Oracle Instant Client",
                    "fix": "install libaio and register the Instant Client directory in /etc/ld.so.conf.d",
                    "check": "sqlplus -V",
                },
                {
                    "lib": "libnss3.so",
                    "binary": "headless Chromium started by Playwright",
                    "fix": "run playwright install-deps chromium where that distribution is supported",
                    "check": "python -m playwright install --dry-run chromium",
                },
                {
                    "lib": "libcuda.so.1",
                    "binary": "a PyTorch job in a GPU container",
                    "fix": (
                        "expose the host driver to the container (NVIDIA Container Toolkit, --gpus all) "
                        "instead of installing a driver inside the image"
                    ),
                    "check": "nvidia-smi",
                },
            ),
            "distro": (
                {
                    "distro": "Debian 12 slim",
                    "prov_pre": "apt-file search ",
                    "prov_post": "",
                    "install": "apt-get install -y --no-install-recommends",
                },
                {
                    "distro": "Ubuntu 22.04",
                    "prov_pre": "apt-file search ",
                    "prov_post": "",
                    "install": "apt-get install -y",
                },
                {
                    "distro": "Ubuntu 24.04",
                    "prov_pre": "apt-file search ",
                    "prov_post": "",
                    "install": "apt-get install -y",
                },
                {
                    "distro": "Rocky Linux 9",
                    "prov_pre": "dnf provides '*/",
                    "prov_post": "'",
                    "install": "dnf install -y",
                },
                {
                    "distro": "Amazon Linux 2023",
                    "prov_pre": "dnf provides '*/",
                    "prov_post": "'",
                    "install": "dnf install -y",
                },
                {
                    "distro": "openSUSE Leap 15",
                    "prov_pre": "zypper search --provides ",
                    "prov_post": "",
                    "install": "zypper install -y",
                },
            ),
        },
    ),
    Problem(
        slug="command_not_found_after_install",
        category="repair",
        summary="Fix '{cmd}: command not found' right after installing it with {installer} in {shell_ctx}",
        task=(
            "An agent installed {cmd} with {installer}, the install reported success, but {shell_ctx} still "
            "says '{cmd}: command not found'; make the command available where it is needed."
        ),
        steps=(
            "Find where the installer put the executable ({where}) and check whether that directory is on "
            "PATH (echo $PATH, command -v {cmd})",
            "Clear the shell's command cache with hash -r, or open a new login shell, and try again",
            "Add the directory to PATH in the file {shell_ctx} actually reads ({rcfile}), or call the "
            "executable by its absolute path",
            "Verify in the same kind of session that failed, not only in the interactive shell",
        ),
        avoid=(
            "Do not copy the executable into /usr/bin: package managers cannot update or remove it "
            "afterwards",
        ),
        signals=(
            "{cmd}: command not found",
            "{sig}",
            "PATH",
        ),
        validation=("{cmd} --version",),
        slots={
            "installer": (
                {"installer": "pip install --user", "cmd": "black", "where": "~/.local/bin", "sig": "--user"},
                {
                    "installer": "pipx",
                    "cmd": "poetry",
                    "where": "~/.local/bin, which pipx ensurepath adds",
                    "sig": "pipx ensurepath",
                },
                {
                    "installer": "npm install -g with a user prefix",
                    "cmd": "tsc",
                    "where": "the bin directory under npm prefix -g",
                    "sig": "npm prefix -g",
                },
                {
                    "installer": "cargo install ripgrep",
                    "cmd": "rg",
                    "where": "~/.cargo/bin",
                    "sig": "~/.cargo/bin",
                },
                {
                    "installer": "go install",
                    "cmd": "golangci-lint",
                    "where": "$(go env GOPATH)/bin",
                    "sig": "GOPATH/bin",
                },
                {
                    "installer": "gem install",
                    "cmd": "bundler",
                    "where": "the gem bindir shown by gem env",
                    "sig": "gem env",
                },
                {
                    "installer": "Homebrew on Linux",
                    "cmd": "jq",
                    "where": "/home/linuxbrew/.linuxbrew/bin",
                    "sig": "brew shellenv",
                },
            ),
            "shell_ctx": (
                {"shell_ctx": "a cron job", "rcfile": "a PATH= line at the top of the crontab"},
                {"shell_ctx": "a systemd service", "rcfile": "Environment=PATH=... in the unit"},
                {
                    "shell_ctx": "a non-interactive ssh command",
                    "rcfile": "~/.bashrc before its interactive guard, or ~/.profile for login shells",
                },
                {"shell_ctx": "a Dockerfile RUN step", "rcfile": "an ENV PATH= line"},
                {"shell_ctx": "a GitHub Actions step", "rcfile": "an append to the GITHUB_PATH file"},
                {"shell_ctx": "a zsh login shell", "rcfile": "~/.zprofile"},
                {
                    "shell_ctx": "a VS Code integrated terminal",
                    "rcfile": "the login-shell profile the terminal sources",
                },
            ),
        },
    ),
    # -------------------- package managers
    Problem(
        slug="npm_peer_dependency_conflict",
        category="repair",
        summary=(
            "Resolve npm 'ERESOLVE unable to resolve dependency tree' when adding {pkg} to a {framework} "
            "project"
        ),
        task=(
            "npm install of {pkg} in a {framework} project stopped with ERESOLVE because the package's peer "
            "range does not include the installed {peer}; install it without breaking the dependency tree."
        ),
        steps=(
            "Read the whole ERESOLVE report: the 'Found: {peer}@...' line and the 'Could not resolve "
            "dependency: peer {peer}@...' line name the conflicting ranges",
            "Check whether a newer release supports {framework}: npm view <package> peerDependencies and "
            "npm view <package> versions",
            "Upgrade to that release, or pick a maintained alternative; if the package works and only its "
            "declared range lags, add a scoped entry under overrides in package.json for that package alone",
            "Commit the updated package-lock.json, then run npm ci and the test suite",
        ),
        avoid=(
            "Do not set legacy-peer-deps=true in .npmrc or use --force: it hides every later peer conflict "
            "and can install a second copy of {peer}",
        ),
        signals=(
            "ERESOLVE unable to resolve dependency tree",
            "code ERESOLVE",
            "peerDependencies|peer dependency",
        ),
        validation=(
            "npm ls {peer}",
            "npm ci",
        ),
        slots={
            "framework": (
                {"framework": "React 19", "peer": "react"},
                {"framework": "Angular 18", "peer": "@angular/core"},
                {"framework": "Vue 3.5", "peer": "vue"},
                {"framework": "Svelte 5", "peer": "svelte"},
                {"framework": "Next.js 15", "peer": "next"},
            ),
            "pkg": (
                "a date-picker component library",
                "a charting wrapper",
                "a UI component kit",
                "a form-validation binding",
                "a drag-and-drop binding",
                "a data-grid component",
                "an icon component pack",
                "an internationalisation plugin",
                "a markdown renderer component",
                "an animation library binding",
            ),
        },
    ),
    Problem(
        slug="lockfile_out_of_sync_ci",
        category="repair",
        summary="Fix a {ci} job that fails because the {pm} lockfile is out of sync with the manifest",
        task=(
            "After a dependency change, the {ci} install step failed with '{error}'; bring the lockfile "
            "back in sync without loosening the frozen install."
        ),
        steps=(
            "Reproduce locally with the exact frozen command CI runs: {frozen}",
            "Regenerate the lockfile with {regen}, using the same {pm} version as CI (check the version pin "
            "in the repository or the CI image)",
            "Review the lockfile diff for unexpected upgrades, then commit it in the same change as the "
            "manifest",
            "Add a pre-commit or CI check that fails fast when the manifest and lockfile disagree",
        ),
        avoid=(
            "Do not switch {ci} to the non-frozen install to get green: builds then resolve new versions "
            "silently",
        ),
        signals=(
            "{error}",
            "{sig}",
            "lockfile out of date|frozen lockfile",
        ),
        validation=("{frozen}",),
        slots={
            "pm": (
                {
                    "pm": "npm",
                    "error": (
                        "npm ci can only install packages when your package.json and package-lock.json are "
                        "in sync"
                    ),
                    "frozen": "npm ci",
                    "regen": "npm install",
                    "sig": "package-lock.json",
                },
                {
                    "pm": "pnpm",
                    "error": "ERR_PNPM_OUTDATED_LOCKFILE",
                    "frozen": "pnpm install --frozen-lockfile",
                    "regen": "pnpm install",
                    "sig": "pnpm-lock.yaml",
                },
                {
                    "pm": "Yarn",
                    "error": (
                        "YN0028: The lockfile would have been modified by this install, which is explicitly "
                        "forbidden"
                    ),
                    "frozen": "yarn install --immutable",
                    "regen": "yarn install",
                    "sig": "yarn.lock",
                },
                {
                    "pm": "Poetry",
                    "error": "pyproject.toml changed significantly since poetry.lock was last generated",
                    "frozen": "poetry check --lock",
                    "regen": "poetry lock",
                    "sig": "poetry.lock",
                },
                {
                    "pm": "uv",
                    "error": "The lockfile at uv.lock needs to be updated, but --locked was provided",
                    "frozen": "uv sync --locked",
                    "regen": "uv lock",
                    "sig": "uv.lock",
                },
                {
                    "pm": "Cargo",
                    "error": (
                        "the lock file Cargo.lock needs to be updated but --locked was passed to prevent this"
                    ),
                    "frozen": "cargo build --locked",
                    "regen": "cargo update -p <crate> or cargo generate-lockfile",
                    "sig": "Cargo.lock",
                },
                {
                    "pm": "Bundler",
                    "error": "You are trying to install in deployment mode after changing your Gemfile",
                    "frozen": "bundle check",
                    "regen": "bundle install",
                    "sig": "Gemfile.lock",
                },
                {
                    "pm": "Go modules",
                    "error": "go: updates to go.mod needed",
                    "frozen": "go build -mod=readonly ./...",
                    "regen": "go mod tidy",
                    "sig": "go.sum",
                },
            ),
            "ci": (
                "GitHub Actions",
                "GitLab CI",
                "CircleCI",
                "Jenkins",
                "Buildkite",
                "Azure Pipelines",
            ),
        },
    ),
    Problem(
        slug="python_wheel_build_failure",
        category="repair",
        summary="Fix 'Failed building wheel for {pkg}' when installing on {env}",
        task=(
            "pip install of {pkg} on {env} fell back to building from source and failed with "
            "'{first_error}'; get it installed without leaving build tools in the final runtime."
        ),
        steps=(
            "Scroll past 'This error originates from a subprocess' to the first compiler or build error; "
            "here it is '{first_error}'",
            "Check whether a prebuilt wheel exists for this Python version and platform (pip download "
            "--only-binary :all: {pkg}) and upgrade pip so it recognises newer wheel tags",
            "If it must be built, install a compiler and the development headers for {lib} with {pm}",
            "In a Docker build, compile in a builder stage and copy only the installed package into the "
            "runtime stage",
        ),
        avoid=(
            "Do not pin an old release just because it happened to have a wheel: you lose fixes and the pin "
            "rots",
            "Do not leave compilers and -dev packages in the runtime image",
        ),
        signals=(
            "Failed building wheel for {pkg}",
            "{first_error}",
            "subprocess-exited-with-error",
        ),
        validation=("python -c 'import {module}'",),
        slots={
            "pkg": (
                {
                    "pkg": "psycopg2",
                    "first_error": "pg_config executable not found",
                    "lib": "libpq",
                    "module": "psycopg2",
                },
                {
                    "pkg": "mysqlclient",
                    "first_error": "mysql_config not found",
                    "lib": "the MySQL or MariaDB client library",
                    "module": "MySQLdb",
                },
                {
                    "pkg": "lxml",
                    "first_error": (
                        "Error: Please make sure the libxml2 and libxslt development packages are installed"
                    ),
                    "lib": "libxml2 and libxslt",
                    "module": "lxml",
                },
                {
                    "pkg": "python-ldap",
                    "first_error": "fatal error: lber.h: No such file or directory",
                    "lib": "OpenLDAP and Cyrus SASL",
                    "module": "ldap",
                },
                {
                    "pkg": "PyAudio",
                    "first_error": "fatal error: portaudio.h: No such file or directory",
                    "lib": "PortAudio",
                    "module": "pyaudio",
                },
                {
                    "pkg": "pygraphviz",
                    "first_error": "fatal error: graphviz/cgraph.h: No such file or directory",
                    "lib": "Graphviz",
                    "module": "pygraphviz",
                },
                {
                    "pkg": "pycairo",
                    "first_error": 'Dependency "cairo" not found',
                    "lib": "cairo",
                    "module": "cairo",
                },
            ),
            "env": (
                {"env": "a python:3.12-slim image", "pm": "apt-get install --no-install-recommends"},
                {
                    "env": "a python:3.12-alpine image",
                    "pm": "apk add (and note that musllinux wheels differ from manylinux)",
                },
                {"env": "an Ubuntu 24.04 CI runner", "pm": "apt-get install"},
                {"env": "an Amazon Linux 2023 build host", "pm": "dnf install"},
                {"env": "a macOS runner", "pm": "brew install"},
                {"env": "a Rocky Linux 9 server", "pm": "dnf install (enable CRB for some -devel packages)"},
            ),
        },
    ),
    Problem(
        slug="apt_repository_update_errors",
        category="repair",
        summary="Fix apt-get update failing with '{error}' on {host}",
        task=(
            "On {host}, apt-get update stopped with '{error}', so no package could be installed; repair the "
            "repository configuration."
        ),
        steps=(
            "Run apt-get update and note which repository line the error names, then find it under "
            "/etc/apt/sources.list and /etc/apt/sources.list.d (.list and deb822 .sources files)",
            "{fix}",
            "Keep third-party keys in /etc/apt/keyrings and reference them with signed-by on that "
            "repository only",
            "Run apt-get update again and confirm it finishes without W: or E: lines for the repository",
        ),
        avoid=(
            "Do not add [trusted=yes] or --allow-unauthenticated to get past signature errors: it disables "
            "package verification for that repository",
        ),
        signals=(
            "{error}",
            "{sig}",
            "apt-get update",
        ),
        validation=(
            "apt-get update",
            "apt-cache policy",
        ),
        slots={
            "error": (
                {
                    "error": "NO_PUBKEY",
                    "fix": (
                        "Download the vendor's current signing key over HTTPS, dearmor it into "
                        "/etc/apt/keyrings and point the repository's signed-by option at it"
                    ),
                    "sig": "The following signatures couldn't be verified",
                },
                {
                    "error": "Release file is expired",
                    "fix": (
                        "Check the clock first (timedatectl); if the host is right and the mirror is stale, "
                        "switch to a current mirror"
                    ),
                    "sig": "invalid since",
                },
                {
                    "error": "does not have a Release file",
                    "fix": (
                        "Compare the suite in the repository line with lsb_release -cs and the vendor's "
                        "published suites, and correct the codename or URL"
                    ),
                    "sig": "Updating from such a repository can't be done securely",
                },
                {
                    "error": "Conflicting values set for option Signed-By",
                    "fix": (
                        "Find the duplicate definitions of the same repository (grep -r the URL under "
                        "/etc/apt) and keep one, with one signed-by key"
                    ),
                    "sig": "Signed-By",
                },
                {
                    "error": "Hash Sum mismatch",
                    "fix": (
                        "Clear the lists (rm -rf /var/lib/apt/lists/*), bypass or fix a caching proxy, and "
                        "retry"
                    ),
                    "sig": "File has unexpected size",
                },
                {
                    "error": "changed its 'Label' value",
                    "fix": (
                        "Confirm the change is legitimate on the vendor's site, then accept it once with "
                        "apt-get update --allow-releaseinfo-change"
                    ),
                    "sig": "allow-releaseinfo-change",
                },
                {
                    "error": "Certificate verification failed: The certificate is NOT trusted",
                    "fix": (
                        "Install or update ca-certificates, and add the corporate proxy's CA to "
                        "/usr/local/share/ca-certificates followed by update-ca-certificates"
                    ),
                    "sig": "ca-certificates",
                },
            ),
            "host": (
                "an Ubuntu 22.04 CI runner",
                "a Debian 12 VM",
                "an Ubuntu 24.04 container image",
                "a Debian 11 build server",
                "an Ubuntu 20.04 Docker base image",
                "a Raspberry Pi OS host",
            ),
        },
    ),
    # -------------------- containers and orchestration
    Problem(
        slug="docker_build_dependency_cache",
        category="optimize",
        summary="Cut {lang} Docker image rebuilds in {ci} by keeping the dependency layer cached",
        task=(
            "Every image build in {ci} for a {lang} service reinstalled all dependencies, taking most of "
            "the pipeline time even for one-line code changes; make unchanged dependencies come from cache."
        ),
        steps=(
            "Build with docker buildx build --progress=plain and note the first step that is not CACHED",
            "Copy only the dependency manifests first ({manifests}), run {install}, and copy the rest of "
            "the source afterwards",
            "Add a .dockerignore for .git, local build output and editor files so the build context stops "
            "changing",
            "Use a BuildKit cache mount for the package cache ({cache_mount}) and persist layers across "
            "ephemeral runners with {cache}",
        ),
        avoid=(
            "Do not COPY . . before installing dependencies: any source edit then invalidates the "
            "dependency layer",
        ),
        signals=(
            "CACHED",
            "{sig}",
            "--cache-from|cache-to",
        ),
        validation=("docker buildx build --progress=plain .",),
        slots={
            "lang": (
                {
                    "lang": "Node.js",
                    "manifests": "package.json and package-lock.json",
                    "install": "npm ci",
                    "cache_mount": "--mount=type=cache,target=/root/.npm",
                    "sig": "npm ci",
                },
                {
                    "lang": "Python",
                    "manifests": "requirements.txt or pyproject.toml with its lockfile",
                    "install": "pip install -r requirements.txt",
                    "cache_mount": "--mount=type=cache,target=/root/.cache/pip",
                    "sig": "pip install",
                },
                {
                    "lang": "Go",
                    "manifests": "go.mod and go.sum",
                    "install": "go mod download",
                    "cache_mount": "--mount=type=cache,target=/go/pkg/mod and /root/.cache/go-build",
                    "sig": "go mod download",
                },
                {
                    "lang": "Rust",
                    "manifests": "Cargo.toml and Cargo.lock (cargo-chef prepare and cook)",
                    "install": "cargo chef cook --release",
                    "cache_mount": "--mount=type=cache,target=/usr/local/cargo/registry",
                    "sig": "cargo-chef",
                },
                {
                    "lang": "Java Maven",
                    "manifests": "pom.xml",
                    "install": "mvn dependency:go-offline",
                    "cache_mount": "--mount=type=cache,target=/root/.m2",
                    "sig": "dependency:go-offline",
                },
                {
                    "lang": "Ruby",
                    "manifests": "Gemfile and Gemfile.lock",
                    "install": "bundle install",
                    "cache_mount": "--mount=type=cache,target=/usr/local/bundle/cache",
                    "sig": "bundle install",
                },
                {
                    "lang": "PHP",
                    "manifests": "composer.json and composer.lock",
                    "install": "composer install --no-scripts --no-autoloader",
                    "cache_mount": "--mount=type=cache,target=/root/.composer/cache",
                    "sig": "composer install",
                },
            ),
            "ci": (
                {
                    "ci": "GitHub Actions",
                    "cache": "cache-from and cache-to type=gha in docker/build-push-action",
                },
                {
                    "ci": "GitLab CI",
                    "cache": "a registry cache (--cache-to type=registry,ref=...:buildcache,mode=max)",
                },
                {"ci": "CircleCI", "cache": "Docker layer caching or a registry cache tag"},
                {"ci": "Jenkins agents", "cache": "a registry cache tag shared by all agents"},
                {"ci": "Buildkite", "cache": "a registry cache tag per pipeline"},
                {
                    "ci": "Google Cloud Build",
                    "cache": "--cache-from the previous image built with BUILDKIT_INLINE_CACHE=1",
                },
            ),
        },
    ),
    Problem(
        slug="docker_image_size_reduction",
        category="optimize",
        summary="Shrink a {lang} service image with a multi-stage build to fix {pain}",
        task=(
            "The {lang} service image had grown past a gigabyte, causing {pain}; cut its size without "
            "changing how the service behaves."
        ),
        steps=(
            "See where the bytes are: docker history --no-trunc and dive on the image, largest layers first",
            "Move compilers, dev dependencies and build tools into a builder stage and start the final "
            "stage from {runtime}, copying only {artifact}",
            "Clean package manager caches in the same RUN instruction that creates them (apt lists, pip "
            "--no-cache-dir, npm cache) and add a .dockerignore",
            "Run the service's smoke test against the new image and compare sizes with docker image ls",
        ),
        avoid=("Do not delete files in a later layer to save space: the bytes stay in the earlier layer",),
        signals=(
            "multi-stage build",
            "docker history",
            "{sig}",
        ),
        validation=(
            "docker image ls",
            "docker run --rm app:slim --version",
        ),
        slots={
            "lang": (
                {
                    "lang": "Node.js",
                    "runtime": "node:22-slim or a distroless Node image",
                    "artifact": "the build output and production node_modules (npm ci --omit=dev)",
                    "sig": "--omit=dev",
                },
                {
                    "lang": "Python",
                    "runtime": "python:3.12-slim",
                    "artifact": "a virtualenv built in the builder stage",
                    "sig": "python:3.12-slim",
                },
                {
                    "lang": "Go",
                    "runtime": "gcr.io/distroless/static or scratch",
                    "artifact": "the statically linked binary (CGO_ENABLED=0)",
                    "sig": "CGO_ENABLED=0",
                },
                {
                    "lang": "Rust",
                    "runtime": "a distroless cc image",
                    "artifact": "the release binary",
                    "sig": "cargo build --release",
                },
                {
                    "lang": "Spring Boot",
                    "runtime": "a JRE-only base image",
                    "artifact": "the extracted application layers (java -Djarmode=layertools)",
                    "sig": "layertools",
                },
                {
                    "lang": ".NET",
                    "runtime": "mcr.microsoft.com/dotnet/aspnet",
                    "artifact": "the output of dotnet publish -c Release",
                    "sig": "dotnet publish",
                },
                {
                    "lang": "Ruby on Rails",
                    "runtime": "ruby:3.3-slim",
                    "artifact": "the app with bundle config without development test and precompiled assets",
                    "sig": "BUNDLE_WITHOUT",
                },
            ),
            "pain": (
                "slow pod starts on freshly scaled Kubernetes nodes",
                "a registry storage quota being exceeded",
                "ten-minute deploys to edge devices",
                "container cold starts on AWS Lambda",
                "slow image pulls on CI runners",
                "Cloud Run cold starts",
                "large transfers into an air-gapped site",
            ),
        },
    ),
    Problem(
        slug="compose_dependency_readiness",
        category="repair",
        summary="Stop {app} failing on docker compose up because {dep} is not ready yet",
        task=(
            "docker compose up started {app} at the same time as {dep}; it crashed on its first connection "
            "with '{error}' and only worked after a manual restart. Make the stack come up cleanly every "
            "time."
        ),
        steps=(
            "Add a healthcheck to the {dep} service that tests real readiness: {health}",
            "Make the application service wait with depends_on and condition: service_healthy (and "
            "service_completed_successfully for one-shot migration containers)",
            "Keep connection retries with backoff in the application too, because {dep} can restart after "
            "start-up",
            "Bring the stack up from scratch several times (docker compose down -v, then up --wait) and "
            "check docker compose ps shows every service healthy",
        ),
        avoid=(
            "Do not add sleep 30 to the entrypoint: it is slow on fast machines and still fails on slow ones",
            "Do not rely on plain depends_on: it only orders container start, not readiness",
        ),
        signals=(
            "{error}",
            "service_healthy",
            "depends_on",
        ),
        validation=(
            "docker compose up --wait",
            "docker compose ps",
        ),
        slots={
            "dep": (
                {
                    "dep": "PostgreSQL",
                    "health": "pg_isready -U postgres",
                    "error": "FATAL: the database system is starting up",
                },
                {
                    "dep": "MySQL",
                    "health": "mysqladmin ping -h localhost",
                    "error": "Can't connect to MySQL server",
                },
                {
                    "dep": "Redis",
                    "health": "redis-cli ping",
                    "error": "Error 111 connecting to redis:6379. Connection refused",
                },
                {"dep": "RabbitMQ", "health": "rabbitmq-diagnostics -q ping", "error": "AMQPConnectionError"},
                {
                    "dep": "Elasticsearch",
                    "health": "curl -fs http://localhost:9200/_cluster/health",
                    "error": "ConnectionError: Connection refused",
                },
                {
                    "dep": "Kafka",
                    "health": "kafka-broker-api-versions.sh --bootstrap-server localhost:9092",
                    "error": "NoBrokersAvailable",
                },
                {
                    "dep": "MongoDB",
                    "health": "mongosh --quiet --eval 'db.adminCommand(\"ping\")'",
                    "error": "ServerSelectionTimeoutError",
                },
            ),
            "app": (
                "a Django web service",
                "a Node.js API",
                "a Spring Boot service",
                "a Celery worker",
                "a Go API server",
                "a Rails app",
                "a one-shot migration container",
            ),
        },
    ),
    Problem(
        slug="container_graceful_sigterm",
        category="repair",
        summary="Make {app} shut down gracefully on SIGTERM during {platform} instead of being killed",
        task=(
            "During {platform}, {app} ignored SIGTERM, was SIGKILLed after the grace period and dropped "
            "in-flight work; make it drain and exit cleanly."
        ),
        steps=(
            "Check what runs as PID 1 in the container (ps -o pid,comm inside it): a shell or npm wrapper "
            "does not forward signals to the real process",
            'Use the exec form of CMD or ENTRYPOINT and end wrapper scripts with exec "$@"; add an init '
            "such as tini (docker run --init) when the app spawns children",
            "Handle SIGTERM in the app: stop accepting new work, finish or requeue in-flight work, close "
            "connections",
            "Keep the drain shorter than the grace period ({knob}) and test by stopping the container while "
            "it is busy, checking for exit code 0 instead of 137",
        ),
        avoid=(
            "Do not only raise the grace period: if the signal never reaches the app it is still killed, "
            "just later",
        ),
        signals=(
            "exit code 137",
            "SIGTERM",
            "PID 1|tini",
        ),
        validation=("python replay_env.py --task graceful-stop --check",),
        slots={
            "app": (
                "a Node.js API started with npm start",
                "a Python queue worker",
                "a Spring Boot service launched from a shell script",
                "a Go HTTP server",
                "a Sidekiq worker run through sh -c",
                "a PHP-FPM pool behind a wrapper script",
                "a .NET web API",
                "a Celery worker started by a bash entrypoint",
            ),
            "platform": (
                {"platform": "docker stop", "knob": "docker stop -t or stop_grace_period in compose"},
                {
                    "platform": "a Kubernetes rolling update",
                    "knob": (
                        "terminationGracePeriodSeconds, plus a short preStop sleep so endpoints are removed "
                        "first"
                    ),
                },
                {"platform": "an ECS task replacement", "knob": "stopTimeout in the container definition"},
                {"platform": "a Nomad job update", "knob": "kill_timeout in the task"},
                {"platform": "a systemd-managed Podman restart", "knob": "TimeoutStopSec in the unit"},
            ),
        },
    ),
    Problem(
        slug="k8s_rollout_readiness_deadline",
        category="repair",
        summary="Unstick a rollout of {workload} via {tool} whose new pods never become Ready",
        task=(
            "Rolling out {workload} with {tool} hung until the Deployment reported "
            "ProgressDeadlineExceeded: the new pods were Running but never Ready, and the old ones kept "
            "serving. Get the rollout through."
        ),
        steps=(
            "Describe a new pod and read the probe events (kubectl describe pod): 'Readiness probe failed' "
            "with a status code, timeout or connection refused",
            "Compare the probe's port and path with what the container really serves: kubectl port-forward "
            "to the pod and curl the readiness path",
            "Fix the probe or the endpoint; for slow starters add a startupProbe rather than a huge "
            "initialDelaySeconds, and keep readiness from checking downstream dependencies",
            "Roll out again and follow it with {follow}",
        ),
        avoid=(
            "Do not delete the readiness probe to make the rollout finish: traffic then reaches pods that "
            "cannot serve",
        ),
        signals=(
            "ProgressDeadlineExceeded",
            "Readiness probe failed",
            "{sig}",
        ),
        validation=("kubectl rollout status deployment/app --timeout=300s",),
        slots={
            "tool": (
                {
                    "tool": "kubectl apply",
                    "follow": "kubectl rollout status",
                    "sig": "kubectl rollout status",
                },
                {
                    "tool": "Helm",
                    "follow": "helm upgrade --wait --timeout and kubectl rollout status",
                    "sig": "helm upgrade --wait",
                },
                {
                    "tool": "Argo CD",
                    "follow": "the application's health status until Healthy",
                    "sig": "Progressing",
                },
                {"tool": "Flux", "follow": "flux get kustomizations until Ready", "sig": "flux reconcile"},
                {"tool": "Kustomize", "follow": "kubectl rollout status", "sig": "kustomize build"},
            ),
            "workload": (
                "a Spring Boot API",
                "a Node.js frontend",
                "a Django service",
                "a Go gRPC service",
                "a Rails app",
                "an nginx sidecar pair",
                "a Python ML inference server",
                "a .NET API",
                "a PHP-FPM application",
            ),
        },
    ),
    Problem(
        slug="k8s_service_without_endpoints",
        category="repair",
        summary="Fix a Kubernetes Service for {app} that has no endpoints, so {client} cannot reach it",
        task=(
            "The pods of {app} were Running, but {client} failed because the Service had no endpoints; "
            "connect the Service to its pods."
        ),
        steps=(
            "List the Service's endpoints: kubectl get endpointslices -l kubernetes.io/service-name=<svc>",
            "Compare the Service's spec.selector with the pod labels (kubectl get pods --show-labels) in "
            "the same namespace, character by character",
            "Check that targetPort matches a containerPort number or name the pods actually expose, and "
            "that the pods are Ready (unready pods are not endpoints)",
            "Fix the selector or labels in the manifest, re-apply, and test from a debug pod with curl to "
            "the Service DNS name",
        ),
        avoid=(
            "Do not point the Service at pod IPs by hand with a manual Endpoints object: they change on "
            "every restart",
        ),
        signals=(
            "{sig}",
            "endpoints <none>",
            "selector|targetPort",
        ),
        validation=("kubectl get endpointslices -l kubernetes.io/service-name=app",),
        slots={
            "app": (
                "a payments API",
                "a React frontend",
                "a search service",
                "an internal gRPC backend",
                "a metrics exporter",
                "an auth service",
                "a worker admin UI",
                "a GraphQL gateway",
            ),
            "client": (
                {"client": "an Ingress", "sig": "503 Service Temporarily Unavailable"},
                {"client": "another pod calling it by DNS name", "sig": "connection refused"},
                {
                    "client": "kubectl port-forward to the Service",
                    "sig": "no endpoints available for service",
                },
                {"client": "a LoadBalancer health check", "sig": "unhealthy targets"},
                {"client": "Prometheus service discovery", "sig": "0/0 up"},
                {"client": "a service mesh sidecar", "sig": "no healthy upstream"},
            ),
        },
    ),
    Problem(
        slug="helm_release_pending_operation",
        category="repair",
        summary="Recover a Helm release of {chart} stuck in a pending state after {trigger}",
        task=(
            "After {trigger}, every helm upgrade of {chart} fails with 'another operation "
            "(install/upgrade/rollback) is in progress'; get the release deployable again without losing "
            "its resources."
        ),
        steps=(
            "Read helm history <release> -n <namespace> and find the revision left in pending-upgrade, "
            "pending-install or pending-rollback",
            "If an earlier revision is deployed, helm rollback <release> <that revision>, which supersedes "
            "the pending one",
            "If the only revision is pending-install, back up its PersistentVolumeClaims, helm uninstall "
            "and install again; as a last resort delete only the pending release Secret "
            "(sh.helm.release.v1.<release>.v<N>) after exporting it",
            "Prevent it: run upgrades with --atomic and a --timeout, and serialise deploy jobs so two never "
            "run at once",
        ),
        avoid=(
            "Do not delete all of the release's Helm Secrets: Helm forgets the release and the next install "
            "collides with the live resources",
        ),
        signals=(
            "another operation (install/upgrade/rollback) is in progress",
            "pending-upgrade",
            "helm history",
        ),
        validation=(
            "helm history app -n default",
            "helm status app -n default",
        ),
        slots={
            "chart": (
                "ingress-nginx",
                "kube-prometheus-stack",
                "an in-house API chart",
                "bitnami/postgresql",
                "argo-cd",
                "external-dns",
                "grafana",
                "bitnami/redis",
                "loki",
            ),
            "trigger": (
                "a CI job cancelled mid-upgrade",
                "an OOM-killed helm process",
                "a runner pod evicted during deploy",
                "a laptop losing its network connection",
                "an API server restart during the upgrade",
            ),
        },
    ),
    # -------------------- infrastructure as code, CI, cloud CLIs
    Problem(
        slug="terraform_state_lock_stuck",
        category="repair",
        summary="Clear a stuck Terraform state lock on the {backend} backend after {trigger}",
        task=(
            "After {trigger}, every terraform plan failed with 'Error acquiring the state lock' on the "
            "{backend} backend; release the lock safely and confirm the state is consistent."
        ),
        steps=(
            "Read the Lock Info block in the error: ID, Who, Operation and Created tell you which run holds "
            "it",
            "Confirm that run is really gone (CI job history, the named host and user), and look at where "
            "the lock lives: {lock_where}",
            "Release it with terraform force-unlock <LOCK_ID> from the same working directory and backend "
            "config",
            "Run terraform plan: an interrupted apply may have created resources that are missing from "
            "state, which need terraform import instead of a second create; then serialise runs in CI",
        ),
        avoid=(
            "Do not run with -lock=false to get past the error: two concurrent applies can corrupt the state",
            "Do not force-unlock a lock whose run is still applying",
        ),
        signals=(
            "Error acquiring the state lock",
            "terraform force-unlock",
            "{sig}",
        ),
        validation=("terraform plan -lock-timeout=60s",),
        slots={
            "backend": (
                {
                    "backend": "S3",
                    "lock_where": (
                        "the DynamoDB lock table item, or the .tflock object when use_lockfile is set"
                    ),
                    "sig": "ConditionalCheckFailedException",
                },
                {
                    "backend": "azurerm",
                    "lock_where": "a lease on the state blob (az storage blob show shows lease state)",
                    "sig": "state blob is already locked",
                },
                {
                    "backend": "gcs",
                    "lock_where": "the default.tflock object next to the state",
                    "sig": ".tflock",
                },
                {
                    "backend": "HCP Terraform",
                    "lock_where": "the workspace lock shown in the workspace settings",
                    "sig": "workspace is locked",
                },
                {
                    "backend": "Consul",
                    "lock_where": "the lock key under the state path in the KV store",
                    "sig": "consul lock",
                },
                {
                    "backend": "pg",
                    "lock_where": "a PostgreSQL advisory lock held by a backend session (pg_locks)",
                    "sig": "pg_advisory_lock",
                },
            ),
            "trigger": (
                "a cancelled CI pipeline",
                "a laptop that lost its network mid-apply",
                "an OOM-killed runner",
                "a Ctrl-C during apply",
                "two pipelines starting at once",
                "an expired cloud session mid-apply",
                "a timed-out Atlantis apply",
            ),
        },
    ),
    Problem(
        slug="terraform_import_existing_resources",
        category="innovate",
        summary="Bring a hand-made {cloud} {resource} under Terraform without recreating it",
        task=(
            "A {resource} in {cloud} had been created by hand; adding it to the Terraform configuration "
            "made apply fail with '{exists}'. Adopt the live resource into state with no replacement."
        ),
        steps=(
            "Find the resource's import ID in the provider docs ({id_hint}) and write an import block "
            "(import with to and id) in the configuration",
            "Draft matching configuration with terraform plan -generate-config-out=generated.tf",
            "Edit the generated configuration: drop read-only and computed attributes and align names and "
            "variables with the existing modules",
            "Iterate until terraform plan shows the import and no changes, then apply to record it in state",
        ),
        avoid=("Do not apply while the plan still says 'must be replaced': it destroys the live {resource}",),
        signals=(
            "{exists}",
            "import block|terraform import",
            "generate-config-out",
        ),
        validation=("terraform plan -detailed-exitcode",),
        slots={
            "cloud": (
                {
                    "cloud": "AWS",
                    "exists": "already exists",
                    "id_hint": "usually the name or ID, sometimes a composite such as role/policy",
                },
                {
                    "cloud": "Azure",
                    "exists": "needs to be imported into the State",
                    "id_hint": "the full /subscriptions/.../resourceGroups/... resource ID",
                },
                {
                    "cloud": "Google Cloud",
                    "exists": "Error 409: already exists",
                    "id_hint": "projects/<project>/... paths or the short name",
                },
            ),
            "resource": (
                "DNS zone",
                "storage bucket",
                "virtual network",
                "load balancer",
                "IAM role",
                "Kubernetes cluster",
                "managed PostgreSQL instance",
                "container registry",
                "VM instance",
                "firewall rule set",
                "message queue",
                "CDN configuration",
                "log sink",
                "key vault",
            ),
        },
    ),
    Problem(
        slug="ci_dependency_cache_misses",
        category="optimize",
        summary="Make the {ci} dependency cache restore for {pm} so jobs stop downloading everything",
        task=(
            "Every {ci} job spent minutes installing {pm} dependencies although a cache step was "
            "configured; the logs said '{miss}' on nearly every run. Make the cache hit."
        ),
        steps=(
            "Print the computed cache key in the job and compare it between two runs on the same lockfile",
            "Key on the lockfile hash ({lockfile}) plus OS and tool version, with a prefix fallback so a "
            "new lockfile still restores the previous cache",
            "Cache the package manager's download cache ({cache_dir}) rather than installed trees that "
            "depend on the OS image",
            "Account for cache scope on {ci}: {scope}",
        ),
        avoid=(
            "Do not put a timestamp or commit SHA in the primary key: every run then writes a new cache and "
            "never reads one",
        ),
        signals=(
            "{miss}",
            "{sig}",
            "cache key",
        ),
        validation=("python ci_stats.py --cache-hit-rate",),
        slots={
            "ci": (
                {
                    "ci": "GitHub Actions",
                    "miss": "Cache not found for input keys",
                    "scope": "pull requests can read caches from the base branch but not from other branches",
                    "sig": "actions/cache",
                },
                {
                    "ci": "GitLab CI",
                    "miss": "Failed to extract cache",
                    "scope": (
                        "cached paths must be inside the project directory, and autoscaled runners need a "
                        "shared (S3) cache"
                    ),
                    "sig": "cache:key:files",
                },
                {
                    "ci": "CircleCI",
                    "miss": "No cache is found for key",
                    "scope": "caches are immutable, so a key must change when the contents should",
                    "sig": "restore_cache",
                },
                {
                    "ci": "Azure Pipelines",
                    "miss": "Cache miss",
                    "scope": (
                        "caches are scoped to the pipeline and branch, with fallbacks to the default branch"
                    ),
                    "sig": "Cache@2",
                },
                {
                    "ci": "Bitbucket Pipelines",
                    "miss": "Cache not found",
                    "scope": "custom caches need a key with files, and large caches are skipped",
                    "sig": "definitions: caches",
                },
            ),
            "pm": (
                {"pm": "npm", "lockfile": "package-lock.json", "cache_dir": "~/.npm"},
                {"pm": "pip", "lockfile": "requirements*.txt", "cache_dir": "~/.cache/pip"},
                {"pm": "Poetry", "lockfile": "poetry.lock", "cache_dir": "~/.cache/pypoetry"},
                {
                    "pm": "Gradle",
                    "lockfile": "*.gradle* and gradle-wrapper.properties",
                    "cache_dir": "~/.gradle/caches and ~/.gradle/wrapper",
                },
                {"pm": "Maven", "lockfile": "pom.xml", "cache_dir": "~/.m2/repository"},
                {"pm": "Cargo", "lockfile": "Cargo.lock", "cache_dir": "~/.cargo/registry and ~/.cargo/git"},
                {"pm": "Go modules", "lockfile": "go.sum", "cache_dir": "~/go/pkg/mod and ~/.cache/go-build"},
                {"pm": "Yarn", "lockfile": "yarn.lock", "cache_dir": "the directory from yarn cache dir"},
                {"pm": "pnpm", "lockfile": "pnpm-lock.yaml", "cache_dir": "the store from pnpm store path"},
            ),
        },
    ),
    Problem(
        slug="ci_shallow_clone_missing_tags",
        category="repair",
        summary="Fix {tool} failing in {ci} because the checkout is a shallow clone without tags",
        task=(
            "In {ci}, {tool} failed with '{error}' although it worked locally: the pipeline checks out a "
            "shallow clone with no tags or base branch. Give it the history it needs."
        ),
        steps=(
            "Confirm in the job: git rev-parse --is-shallow-repository prints true and git tag -l is empty",
            "Fetch the history the tool needs: {depth_fix}",
            "If the checkout settings cannot change, run git fetch --unshallow --tags (and git fetch origin "
            "<base> for diffs against the base branch) before {tool}",
            "Check the tool's output in CI matches the local result for the same commit",
        ),
        avoid=(
            "Do not hard-code a fallback version or base commit in the pipeline: every build then reports "
            "the same value",
        ),
        signals=(
            "{error}",
            "is-shallow-repository",
            "fetch-depth|GIT_DEPTH",
        ),
        validation=(
            "git rev-parse --is-shallow-repository",
            "git describe --tags",
        ),
        slots={
            "tool": (
                {"tool": "setuptools-scm", "error": "setuptools-scm was unable to detect version"},
                {"tool": "git describe", "error": "fatal: No names found, cannot describe anything."},
                {
                    "tool": "GitVersion",
                    "error": "Repository is a shallow clone. Git repositories must contain the full history",
                },
                {"tool": "goreleaser", "error": "git doesn't contain any tags"},
                {
                    "tool": "a changed-files lint step",
                    "error": "fatal: ambiguous argument 'origin/main...HEAD': unknown revision",
                },
                {"tool": "git-cliff changelog generation", "error": "an empty changelog section"},
                {"tool": "hatch-vcs", "error": "version 0.1.dev1 instead of the release tag"},
            ),
            "ci": (
                {
                    "ci": "GitHub Actions",
                    "depth_fix": "actions/checkout with fetch-depth: 0 (and fetch-tags: true)",
                },
                {"ci": "GitLab CI", "depth_fix": "GIT_DEPTH: 0 in the job's variables"},
                {
                    "ci": "Azure Pipelines",
                    "depth_fix": "fetchDepth: 0 and fetchTags: true on the checkout step",
                },
                {"ci": "Bitbucket Pipelines", "depth_fix": "clone: depth: full"},
                {
                    "ci": "Jenkins",
                    "depth_fix": (
                        "turn off the shallow clone option and enable tag fetching in the Git SCM advanced "
                        "clone behaviours"
                    ),
                },
                {"ci": "Travis CI", "depth_fix": "git: depth: false"},
            ),
        },
    ),
    Problem(
        slug="ci_deploy_concurrency_race",
        category="repair",
        summary="Stop overlapping {ci} deploys to {target} from racing and leaving an older commit live",
        task=(
            "Two merges landed minutes apart; both {ci} deploy runs to {target} overlapped and the slower, "
            "older one finished last, so production ran stale code. Serialise deployments."
        ),
        steps=(
            "Confirm the overlap from the run history: start and end times and the commit each run deployed",
            "Serialise deploys to {target} with {mechanism}",
            "Decide between queueing and superseding: cancel runs that are still waiting, but never one "
            "that is already applying migrations",
            "Make the deploy step skip a commit that is not the branch tip (git merge-base --is-ancestor) "
            "and record the deployed SHA on {target} so the final state can be checked",
        ),
        avoid=(
            "Do not cancel an in-progress deploy that runs migrations: a half-applied migration is worse "
            "than a late deploy",
        ),
        signals=(
            "{sig}",
            "deploy race|concurrent deploys",
            "stale deploy",
        ),
        validation=("python check_state.py --task deployed-sha",),
        slots={
            "ci": (
                {
                    "ci": "GitHub Actions",
                    "mechanism": "a concurrency group per environment, with cancel-in-progress: false",
                    "sig": "concurrency:",
                },
                {
                    "ci": "GitLab CI",
                    "mechanism": "resource_group on the deploy job, with process_mode newest_first",
                    "sig": "resource_group",
                },
                {
                    "ci": "Buildkite",
                    "mechanism": "concurrency: 1 with a concurrency_group for the environment",
                    "sig": "concurrency_group",
                },
                {"ci": "CircleCI", "mechanism": "a serial group on the deploy job", "sig": "serial-group"},
                {
                    "ci": "Azure Pipelines",
                    "mechanism": "an Exclusive Lock check on the environment",
                    "sig": "exclusive lock",
                },
                {
                    "ci": "Jenkins",
                    "mechanism": "disableConcurrentBuilds() and a lock() step from Lockable Resources",
                    "sig": "disableConcurrentBuilds",
                },
            ),
            "target": (
                "a Kubernetes cluster",
                "an ECS service",
                "a static site bucket",
                "a fleet of VMs managed by Ansible",
                "a serverless function",
                "a database migration step",
                "Cloud Run",
                "an app platform service",
            ),
        },
    ),
    Problem(
        slug="aws_cli_wrong_region_profile",
        category="repair",
        summary=(
            "Fix AWS CLI calls from {context} that report {symptom} because they target the wrong region or "
            "profile"
        ),
        task=(
            "Run from {context}, {cmd} reported {symptom} although the resource exists; the CLI was talking "
            "to another region or account. Make the calls target the right one."
        ),
        steps=(
            "Ask who and where: aws sts get-caller-identity for the account and role, aws configure list "
            "for the profile and region and where each value comes from",
            "Remember the precedence: --region and --profile flags, then AWS_REGION / AWS_DEFAULT_REGION "
            "and AWS_PROFILE, then the profile's config file entries",
            "Set the intended profile and region explicitly for {context}, and read the region from the "
            "resource's ARN when one is given",
            "Re-run {cmd} and confirm it returns the expected resource",
        ),
        avoid=(
            "Do not paste long-lived access keys into the environment to fix a profile mix-up: use the "
            "intended role or SSO profile",
        ),
        signals=(
            "{sig}",
            "aws configure list",
            "AWS_REGION|AWS_DEFAULT_REGION",
        ),
        validation=(
            "aws sts get-caller-identity",
            "aws configure list",
        ),
        slots={
            "symptom": (
                {
                    "symptom": "ResourceNotFoundException for a Lambda function",
                    "cmd": "aws lambda get-function",
                    "sig": "ResourceNotFoundException",
                },
                {
                    "symptom": "an empty list of EC2 instances",
                    "cmd": "aws ec2 describe-instances",
                    "sig": "describe-instances",
                },
                {
                    "symptom": "'You must specify a region'",
                    "cmd": "aws ecs list-clusters",
                    "sig": "You must specify a region",
                },
                {
                    "symptom": "ParameterNotFound for an SSM parameter",
                    "cmd": "aws ssm get-parameter",
                    "sig": "ParameterNotFound",
                },
                {
                    "symptom": "QueueDoesNotExist for an SQS queue",
                    "cmd": "aws sqs get-queue-url",
                    "sig": "QueueDoesNotExist",
                },
                {
                    "symptom": "RepositoryNotFoundException from ECR",
                    "cmd": "aws ecr describe-repositories",
                    "sig": "RepositoryNotFoundException",
                },
                {
                    "symptom": "'Could not connect to the endpoint URL'",
                    "cmd": "aws logs describe-log-groups",
                    "sig": "Could not connect to the endpoint URL",
                },
                {
                    "symptom": "an empty CloudFormation stack list",
                    "cmd": "aws cloudformation list-stacks",
                    "sig": "list-stacks",
                },
            ),
            "context": (
                "a CI job",
                "a developer laptop with several profiles",
                "an EC2 instance with an instance role",
                "an ECS task",
                "a Makefile target",
                "an AWS CloudShell session",
            ),
        },
    ),
    Problem(
        slug="orphaned_cloud_resource_audit",
        category="explore",
        summary="Find orphaned {cloud} resources still billing after {event} and report them safely",
        task=(
            "After {event}, the {cloud} bill stayed high; find resources nothing uses any more and hand the "
            "owners a report they can act on."
        ),
        steps=(
            "List the usual leftovers: {queries}",
            "Join each candidate with its tags or labels (owner, environment) and creation date, and mark "
            "ones whose owner no longer exists",
            "Estimate monthly cost per item and write a CSV report sorted by cost",
            "Tag the candidates for review with a proposed deletion date instead of deleting them",
        ),
        avoid=(
            "Do not delete anything during discovery: snapshots and stopped instances are often kept on "
            "purpose for rollback or compliance",
        ),
        signals=(
            "{sig1}",
            "{sig2}",
            "orphaned resources|unattached",
        ),
        validation=("python report_check.py orphaned.csv",),
        slots={
            "cloud": (
                {
                    "cloud": "AWS",
                    "queries": (
                        "unattached volumes (aws ec2 describe-volumes --filters "
                        "Name=status,Values=available), Elastic IPs without an AssociationId, snapshots of "
                        "deleted volumes, and load balancers with no healthy targets"
                    ),
                    "sig1": "describe-volumes",
                    "sig2": "AssociationId",
                },
                {
                    "cloud": "Azure",
                    "queries": (
                        "disks whose managedBy is null (az disk list --query), unassociated public IPs, "
                        "empty resource groups, and orphaned NICs via Azure Resource Graph"
                    ),
                    "sig1": "managedBy",
                    "sig2": "az graph query",
                },
                {
                    "cloud": "Google Cloud",
                    "queries": (
                        "gcloud compute disks list --filter='-users:*', reserved addresses with status "
                        "RESERVED, old snapshots, and the Recommender's idle-resource recommendations"
                    ),
                    "sig1": "gcloud compute disks list",
                    "sig2": "idle resource recommendation",
                },
            ),
            "event": (
                "a team deleted its Kubernetes clusters",
                "a failed migration",
                "a hackathon",
                "a load test",
                "an account consolidation",
                "a region evacuation",
                "a product decommission",
                "an abandoned proof of concept",
                "a contractor engagement ended",
                "a CI system leaked test environments",
                "a blue-green cutover",
                "a disaster-recovery drill",
                "a reorganisation",
                "a data-centre exit",
            ),
        },
    ),
    # -------------------- databases
    Problem(
        slug="postgres_connection_exhaustion",
        category="repair",
        summary="Fix 'sorry, too many clients already' from PostgreSQL when {app} scales out, using {pooler}",
        task=(
            "When {app} scaled out, new requests failed with 'FATAL: sorry, too many clients already'; keep "
            "the database within its connection limit using {pooler}."
        ),
        steps=(
            "Count connections by client: SELECT usename, application_name, state, count(*) FROM "
            "pg_stat_activity GROUP BY 1, 2, 3, and note how many sit idle",
            "Compute the worst case: replicas x processes per replica x pool size per process, and compare "
            "it with max_connections minus superuser_reserved_connections",
            "Cap each process's pool and put {pooler} in front in transaction pooling mode ({pool_note})",
            "Set idle_in_transaction_session_timeout so leaked sessions are closed, then load-test at the "
            "new replica count",
        ),
        avoid=(
            "Do not raise max_connections to thousands: each backend costs memory and throughput collapses "
            "under contention",
        ),
        signals=(
            "sorry, too many clients already",
            "remaining connection slots are reserved",
            "{sig}",
        ),
        validation=("psql -h localhost -c 'SELECT count(*) FROM pg_stat_activity'",),
        slots={
            "pooler": (
                {
                    "pooler": "PgBouncer",
                    "pool_note": (
                        "session-level features such as SET and advisory locks do not survive transaction "
                        "pooling"
                    ),
                    "sig": "pgbouncer",
                },
                {
                    "pooler": "Amazon RDS Proxy",
                    "pool_note": "watch for session pinning, which defeats multiplexing",
                    "sig": "DatabaseConnectionsCurrentlySessionPinned",
                },
                {
                    "pooler": "PgCat",
                    "pool_note": "configure pool_mode = transaction per pool",
                    "sig": "pgcat",
                },
                {
                    "pooler": "Supavisor",
                    "pool_note": (
                        "use the transaction-mode port and disable prepared statements in the driver if "
                        "needed"
                    ),
                    "sig": "supavisor",
                },
                {
                    "pooler": "the built-in PgBouncer of Azure Database for PostgreSQL",
                    "pool_note": "connect on port 6432 to go through it",
                    "sig": "port 6432",
                },
            ),
            "app": (
                "a Django app on Kubernetes",
                "a Rails app with Puma workers",
                "a Node.js API using node-postgres",
                "AWS Lambda functions",
                "a Celery worker fleet",
                "a Spring Boot service with HikariCP",
                "a Go service using pgx",
                "a FastAPI app with SQLAlchemy",
                "a Laravel app under PHP-FPM",
                "a Phoenix app with Ecto",
            ),
        },
    ),
    Problem(
        slug="online_schema_migration_locks",
        category="repair",
        summary="Run {tool} migrations on a busy {db} table without blocking traffic while {change}",
        task=(
            "A {tool} migration {change} on a large, busy {db} table queued every query behind its lock and "
            "caused an outage; make the migration safe to run during business hours."
        ),
        steps=(
            "Find out which lock the statement takes and for how long on {db}: {lock_info}",
            "Run {timeout} in the migration's session so it gives up quickly instead of queueing traffic "
            "behind it, and retry it a few times",
            "Use the online form of the change: {online}",
            "Where the statement cannot run inside a transaction, mark that migration non-transactional "
            "({notx}) and keep it to a single statement",
        ),
        avoid=(
            "Do not combine the schema change and a full-table backfill in one migration: the long "
            "transaction holds locks for the whole update",
        ),
        signals=(
            "{lock_sig}",
            "lock_timeout|lock_wait_timeout",
            "{tool_sig}",
        ),
        validation=("python check_state.py --task migration --under-load",),
        slots={
            "db": (
                {
                    "db": "PostgreSQL",
                    "lock_info": (
                        "most ALTER TABLE forms take ACCESS EXCLUSIVE; check pg_locks and pg_stat_activity "
                        "for waiters while it runs"
                    ),
                    "timeout": "SET lock_timeout = '5s'",
                    "online": (
                        "CREATE INDEX CONCURRENTLY, constraints added NOT VALID and validated later, and "
                        "nullable columns backfilled in batches before SET NOT NULL"
                    ),
                    "lock_sig": "canceling statement due to lock timeout",
                },
                {
                    "db": "MySQL 8",
                    "lock_info": (
                        "look for 'Waiting for table metadata lock' in SHOW PROCESSLIST and for long "
                        "transactions in information_schema.innodb_trx"
                    ),
                    "timeout": "SET SESSION lock_wait_timeout = 5",
                    "online": (
                        "ALGORITHM=INSTANT or ALGORITHM=INPLACE, LOCK=NONE, or gh-ost / "
                        "pt-online-schema-change for changes that would copy the table"
                    ),
                    "lock_sig": "Waiting for table metadata lock",
                },
            ),
            "tool": (
                {
                    "tool": "Django",
                    "notx": "atomic = False on the Migration class",
                    "tool_sig": "django migrate",
                },
                {"tool": "Rails", "notx": "disable_ddl_transaction!", "tool_sig": "disable_ddl_transaction"},
                {
                    "tool": "Alembic",
                    "notx": "op.get_context().autocommit_block()",
                    "tool_sig": "autocommit_block",
                },
                {
                    "tool": "Flyway",
                    "notx": "executeInTransaction=false in the script's config file",
                    "tool_sig": "executeInTransaction",
                },
                {
                    "tool": "Liquibase",
                    "notx": "runInTransaction: false on the changeset",
                    "tool_sig": "runInTransaction",
                },
                {
                    "tool": "Ecto",
                    "notx": "@disable_ddl_transaction true and @disable_migration_lock true",
                    "tool_sig": "disable_ddl_transaction",
                },
                {
                    "tool": "Knex",
                    "notx": "exports.config = { transaction: false }",
                    "tool_sig": "knex migrate",
                },
                {
                    "tool": "Laravel",
                    "notx": "public $withinTransaction = false on the migration",
                    "tool_sig": "withinTransaction",
                },
            ),
            "change": (
                "adding an index",
                "adding a NOT NULL column",
                "adding a foreign key",
            ),
        },
    ),
    Problem(
        slug="transaction_deadlock_retries",
        category="repair",
        summary="Stop '{msg}' errors on {db} in {scenario}",
        task=(
            "Under load, {scenario} on {db} failed a few times a minute with '{msg}'; remove the deadlock "
            "pattern and make the remaining ones harmless."
        ),
        steps=(
            "Capture the deadlock report: {diag}",
            "Identify the two statements and the order in which each transaction locks rows; the cycle is "
            "usually the same rows locked in opposite orders",
            "Lock in one consistent order (for example SELECT ... ORDER BY id FOR UPDATE), keep "
            "transactions short, and index the columns in WHERE clauses so fewer rows or ranges are locked",
            "Retry the whole transaction on error {code} with jittered backoff, and count retries in metrics",
        ),
        avoid=("Do not retry only the failed statement: the database rolled back the whole transaction",),
        signals=(
            "{msg}",
            "{code}",
            "deadlock",
        ),
        validation=("python load_test.py --scenario concurrent-updates --expect-no-deadlocks",),
        slots={
            "db": (
                {
                    "db": "MySQL",
                    "msg": "Deadlock found when trying to get lock; try restarting transaction",
                    "diag": (
                        "SHOW ENGINE INNODB STATUS, section LATEST DETECTED DEADLOCK, or "
                        "innodb_print_all_deadlocks"
                    ),
                    "code": "1213",
                },
                {
                    "db": "PostgreSQL",
                    "msg": "deadlock detected",
                    "diag": "the server log's 'Process N waits for ShareLock on transaction' detail lines",
                    "code": "40P01",
                },
                {
                    "db": "SQL Server",
                    "msg": "Transaction (Process ID N) was deadlocked on lock resources with another process",
                    "diag": "the xml_deadlock_report event from the system_health Extended Events session",
                    "code": "1205",
                },
            ),
            "scenario": (
                "an order service decrementing inventory rows",
                "a wallet service moving balances between accounts",
                "a booking API reserving seats",
                "a job queue claiming rows",
                "an order-status updater",
                "a counter table updated by many workers",
                "a nightly upsert job running beside live traffic",
                "a ledger writer inserting paired entries",
                "a cart service merging guest and user carts",
                "a ticketing system assigning agents",
                "a points service crediting referrals",
                "a warehouse app moving stock between bins",
                "a subscription renewal batch",
                "a chat app updating read receipts",
            ),
        },
    ),
    Problem(
        slug="sqlite_database_locked",
        category="repair",
        summary="Fix '{error}' in {lang} when {writers} use one SQLite file",
        task=(
            "With {writers} using one SQLite database, {lang} code failed intermittently with '{error}'; "
            "make concurrent access reliable."
        ),
        steps=(
            "Switch the database to write-ahead logging once (PRAGMA journal_mode=WAL; the setting persists "
            "in the file) so readers stop blocking the writer",
            "Set a busy timeout on every connection ({busy}) so writers wait for the lock instead of "
            "failing at once",
            "Open write transactions with BEGIN IMMEDIATE so two readers never both try to upgrade to "
            "writers, and commit promptly; close cursors and result sets",
            "If writes are heavy, funnel them through one writer (a queue or a single connection) and test "
            "with the real number of concurrent processes",
        ),
        avoid=(
            "Do not use WAL on a network file system such as NFS or SMB: it needs shared memory on one host "
            "and the database can corrupt",
        ),
        signals=(
            "{error}",
            "SQLITE_BUSY",
            "journal_mode=WAL|busy_timeout",
        ),
        validation=("sqlite3 app.db 'PRAGMA journal_mode'",),
        slots={
            "lang": (
                {
                    "lang": "Python",
                    "error": "sqlite3.OperationalError: database is locked",
                    "busy": "sqlite3.connect(path, timeout=15)",
                },
                {
                    "lang": "Node.js",
                    "error": "SqliteError: database is locked",
                    "busy": "db.pragma('busy_timeout = 15000') with better-sqlite3",
                },
                {
                    "lang": "Go",
                    "error": "database is locked (5) (SQLITE_BUSY)",
                    "busy": "_busy_timeout=15000 in the DSN, and SetMaxOpenConns(1) for the writer pool",
                },
                {
                    "lang": "Rust",
                    "error": "database is locked",
                    "busy": "conn.busy_timeout(Duration::from_secs(15)) with rusqlite",
                },
                {
                    "lang": "Java",
                    "error": "[SQLITE_BUSY] The database file is locked (database is locked)",
                    "busy": "SQLiteConfig.setBusyTimeout(15000)",
                },
            ),
            "writers": (
                "several worker processes",
                "a web server and a background job",
                "a CLI and a long-running daemon",
                "parallel test workers",
                "a nightly import and the live API",
                "several threads with their own connections",
                "two containers mounting the same volume",
                "a desktop app and its sync helper",
                "a Jupyter notebook and a script",
                "a cron export and the web UI",
            ),
        },
    ),
    Problem(
        slug="migration_history_drift",
        category="repair",
        summary="Repair {tool} migration history that no longer matches the {env} database",
        task=(
            "Deploying to the {env} database failed because {tool} reported '{error}'; bring the recorded "
            "migration history and the real schema back into agreement."
        ),
        steps=(
            "Read the tool's history table ({table}) and compare it with the migration files and the actual "
            "schema",
            "Find the cause: an applied migration edited afterwards, two branches adding parallel heads, a "
            "hotfix applied by hand, or a restore from an older backup",
            "Make the schema right first, then record the truth with {fix_cmd}",
            "Check with {status_cmd}, and add future changes as new migrations instead of editing applied "
            "ones",
        ),
        avoid=(
            "Do not mark migrations as applied when their changes are not in the schema: the next migration "
            "then fails or silently skips data changes",
        ),
        signals=(
            "{error}",
            "{table}",
            "migration history",
        ),
        validation=("{status_cmd}",),
        slots={
            "tool": (
                {
                    "tool": "Alembic",
                    "error": "Can't locate revision identified by",
                    "table": "alembic_version",
                    "fix_cmd": "alembic stamp <revision>, or alembic merge for two heads",
                    "status_cmd": "alembic current",
                },
                {
                    "tool": "Flyway",
                    "error": "Validate failed: Migrations have failed validation",
                    "table": "flyway_schema_history",
                    "fix_cmd": "flyway repair after restoring the original file",
                    "status_cmd": "flyway info",
                },
                {
                    "tool": "Django",
                    "error": "InconsistentMigrationHistory",
                    "table": "django_migrations",
                    "fix_cmd": (
                        "python manage.py migrate <app> <migration> --fake for migrations whose changes "
                        "already exist"
                    ),
                    "status_cmd": "python manage.py showmigrations",
                },
                {
                    "tool": "Liquibase",
                    "error": "Validation Failed: changesets check sum",
                    "table": "DATABASECHANGELOG",
                    "fix_cmd": "liquibase clear-checksums or a validCheckSum entry for an intended edit",
                    "status_cmd": "liquibase status",
                },
                {
                    "tool": "Prisma Migrate",
                    "error": (
                        "Drift detected: Your database schema is not in sync with your migration history"
                    ),
                    "table": "_prisma_migrations",
                    "fix_cmd": "prisma migrate resolve --applied or --rolled-back",
                    "status_cmd": "npx prisma migrate status",
                },
                {
                    "tool": "golang-migrate",
                    "error": "Dirty database version",
                    "table": "schema_migrations",
                    "fix_cmd": "migrate force <last good version> after fixing the half-applied change",
                    "status_cmd": (
                        "migrate -path migrations -database postgres://localhost:5432/app?sslmode=disable "
                        "version"
                    ),
                },
                {
                    "tool": "Rails",
                    "error": "PG::DuplicateTable: ERROR: relation already exists",
                    "table": "schema_migrations",
                    "fix_cmd": (
                        "a schema_migrations version row added or removed by hand once the schema matches"
                    ),
                    "status_cmd": "bin/rails db:migrate:status",
                },
            ),
            "env": (
                "staging",
                "production",
                "local development",
                "restored-from-backup",
                "CI ephemeral",
                "tenant",
            ),
        },
    ),
    Problem(
        slug="slow_query_missing_index",
        category="optimize",
        summary="Speed up a slow {db} query behind {feature} by reading its plan and adding the right index",
        task=(
            "Requests to {feature} took several seconds; the query behind it on {db} scanned far more rows "
            "than it returned. Make it fast without slowing writes noticeably."
        ),
        steps=(
            "Find the query and its real cost: {find}",
            "Read the plan: {plan}",
            "Design one index for the filter and sort: equality columns first, then the sort or range "
            "column, and include the selected columns when that avoids lookups",
            "Build it without blocking writes ({build}), re-run the plan to confirm it is used, and compare "
            "latency",
        ),
        avoid=(
            "Do not add a single-column index for every filtered column: column order in one compound index "
            "matters, and each index slows writes",
        ),
        signals=(
            "{sig1}",
            "{sig2}",
            "missing index|full scan",
        ),
        validation=("python bench_query.py --feature slow-endpoint",),
        slots={
            "db": (
                {
                    "db": "PostgreSQL",
                    "find": "pg_stat_statements ordered by total_exec_time",
                    "plan": (
                        "EXPLAIN (ANALYZE, BUFFERS), looking for Seq Scan and a large Rows Removed by Filter"
                    ),
                    "build": "CREATE INDEX CONCURRENTLY",
                    "sig1": "Seq Scan",
                    "sig2": "EXPLAIN ANALYZE",
                },
                {
                    "db": "MySQL",
                    "find": "the slow query log summarised with pt-query-digest",
                    "plan": "EXPLAIN ANALYZE, looking for type ALL and high rows examined",
                    "build": "ALTER TABLE ... ADD INDEX, ALGORITHM=INPLACE, LOCK=NONE",
                    "sig1": "type: ALL",
                    "sig2": "pt-query-digest",
                },
                {
                    "db": "MongoDB",
                    "find": "the database profiler or slow operations in the logs",
                    "plan": (
                        "explain('executionStats'), looking for COLLSCAN and totalDocsExamined far above "
                        "nReturned"
                    ),
                    "build": "createIndex, which builds without blocking on current versions",
                    "sig1": "COLLSCAN",
                    "sig2": "totalDocsExamined",
                },
                {
                    "db": "SQL Server",
                    "find": "Query Store's top resource-consuming queries",
                    "plan": "the actual execution plan, looking for scans and the missing index hint",
                    "build": "CREATE INDEX ... WITH (ONLINE = ON) on editions that support it",
                    "sig1": "Clustered Index Scan",
                    "sig2": "sys.dm_db_missing_index_details",
                },
            ),
            "feature": (
                "an admin search page",
                "a nightly report",
                "an order-history endpoint",
                "an autocomplete box",
                "a dashboard count widget",
                "a paginated activity feed",
                "a CSV export",
                "a leaderboard",
                "a job-queue status filter",
                "a tenant-scoped listing",
                "an audit-log viewer",
            ),
        },
    ),
    # -------------------- networking
    Problem(
        slug="websocket_through_reverse_proxy",
        category="repair",
        summary="Get WebSocket connections for {app} working through {proxy}",
        task=(
            "Connecting directly to {app} worked, but through {proxy} the WebSocket handshake failed or "
            "connections dropped after a minute of silence; make real-time updates work through the proxy."
        ),
        steps=(
            "Watch the handshake in the browser's network panel: a working upgrade returns 101 Switching "
            "Protocols; 400, 426 or a plain 200 means the proxy did not pass the Upgrade",
            "Configure the upgrade on {proxy}: {upgrade}",
            "Raise the idle timeout for the WebSocket route ({idle}) and send application pings more often "
            "than it",
            "With several backends, pin a client to one backend when the library's fallback transport needs "
            "it (Socket.IO polling, SignalR negotiation), then test with a long-idle connection",
        ),
        avoid=(
            "Do not force the client to long polling to hide the proxy problem: it multiplies requests and "
            "latency",
        ),
        signals=(
            "{sig}",
            "101 Switching Protocols",
            "Error during WebSocket handshake|1006",
        ),
        validation=("python ws_probe.py --url wss://app.example.test/ws --idle 300",),
        slots={
            "proxy": (
                {
                    "proxy": "nginx",
                    "upgrade": (
                        "proxy_http_version 1.1 and proxy_set_header Upgrade $http_upgrade and Connection "
                        '"upgrade" in the location'
                    ),
                    "idle": "proxy_read_timeout",
                    "sig": "proxy_set_header Upgrade",
                },
                {
                    "proxy": "HAProxy",
                    "upgrade": (
                        "HTTP mode handles the upgrade; make sure no option forces connection close on that "
                        "backend"
                    ),
                    "idle": "timeout tunnel",
                    "sig": "timeout tunnel",
                },
                {
                    "proxy": "Traefik",
                    "upgrade": (
                        "the router passes upgrades by default; check that no middleware buffers or "
                        "rewrites the request"
                    ),
                    "idle": "the entry point's respondingTimeouts and the server transport's idle settings",
                    "sig": "traefik",
                },
                {
                    "proxy": "an AWS Application Load Balancer",
                    "upgrade": (
                        "WebSockets are supported on HTTP and HTTPS listeners; check the target group "
                        "health check path separately"
                    ),
                    "idle": "the load balancer idle timeout, 60 seconds by default",
                    "sig": "idle_timeout.timeout_seconds",
                },
                {
                    "proxy": "Cloudflare",
                    "upgrade": "WebSockets are enabled in the zone's network settings",
                    "idle": "Cloudflare's fixed idle limit, which pings must beat",
                    "sig": "cloudflare websockets",
                },
                {
                    "proxy": "ingress-nginx on Kubernetes",
                    "upgrade": "the controller handles upgrades; set the timeout annotations on the Ingress",
                    "idle": "nginx.ingress.kubernetes.io/proxy-read-timeout and proxy-send-timeout",
                    "sig": "proxy-read-timeout",
                },
                {
                    "proxy": "Caddy",
                    "upgrade": (
                        "reverse_proxy passes upgrades automatically; check that an encode or header "
                        "directive does not interfere"
                    ),
                    "idle": "the transport's read and write timeouts",
                    "sig": "reverse_proxy",
                },
            ),
            "app": (
                "a Socket.IO chat",
                "a GraphQL subscriptions server",
                "a Jupyter server",
                "a Home Assistant instance",
                "a SignalR live dashboard",
                "a Phoenix LiveView app",
                "a Rails Action Cable app",
            ),
        },
    ),
    Problem(
        slug="cors_preflight_failures",
        category="repair",
        summary="Fix CORS preflight failures when {frontend} calls an API built with {backend}",
        task=(
            "Browser requests from {frontend} to an API built with {backend} were blocked by CORS policy, "
            "while the same calls with curl worked; configure CORS correctly without opening the API to "
            "every site."
        ),
        steps=(
            "Read the console error and reproduce the preflight with curl -i -X OPTIONS, sending Origin, "
            "Access-Control-Request-Method and Access-Control-Request-Headers",
            "Configure CORS in {backend}: {cfg}, listing the exact origins, methods and request headers "
            "(Authorization, Content-Type) the frontend uses",
            "Make sure OPTIONS requests are answered before authentication: {order}",
            "When cookies are sent, return the specific origin with Access-Control-Allow-Credentials: true "
            "and Vary: Origin, then re-test in the browser",
        ),
        avoid=(
            "Do not reflect any Origin with credentials allowed: every website can then make authenticated "
            "calls as the user",
        ),
        signals=(
            "has been blocked by CORS policy",
            "Access-Control-Allow-Origin",
            "preflight",
        ),
        validation=(
            "curl -i -X OPTIONS http://localhost:8000/api/items -H 'Origin: http://localhost:5173' -H "
            "'Access-Control-Request-Method: POST'",
        ),
        slots={
            "backend": (
                {
                    "backend": "Express",
                    "cfg": "the cors middleware with an origin allow-list",
                    "order": "register cors() before the auth middleware",
                },
                {
                    "backend": "FastAPI",
                    "cfg": "CORSMiddleware with allow_origins, allow_methods and allow_headers",
                    "order": "add the middleware on the app, not behind a dependency that requires a token",
                },
                {
                    "backend": "Django",
                    "cfg": "django-cors-headers with CORS_ALLOWED_ORIGINS",
                    "order": "put CorsMiddleware high in MIDDLEWARE, before CommonMiddleware",
                },
                {
                    "backend": "Spring Boot",
                    "cfg": "a CorsConfigurationSource bean",
                    "order": "enable http.cors() in the Spring Security filter chain",
                },
                {
                    "backend": "ASP.NET Core",
                    "cfg": "AddCors with a named policy",
                    "order": "call UseCors after UseRouting and before UseAuthorization",
                },
                {
                    "backend": "AWS API Gateway HTTP",
                    "cfg": "the API's CORS configuration",
                    "order": "do not attach an authoriser to the OPTIONS route",
                },
                {
                    "backend": "Flask",
                    "cfg": "flask-cors with an origins list per resource",
                    "order": "let flask-cors answer OPTIONS before login_required views",
                },
            ),
            "frontend": (
                "a React app on localhost:5173",
                "a Vue app on a CDN domain",
                "a browser extension",
                "an Angular app on a staging subdomain",
                "a Next.js client component",
                "a static site on GitHub Pages",
            ),
        },
    ),
    Problem(
        slug="localhost_ipv6_resolution_refused",
        category="repair",
        summary="Fix '{error}' when {client} calls {service} through localhost",
        task=(
            "On a developer machine, {client} could not reach {service} via localhost and failed with "
            "'{error}', though the service was up and curl to 127.0.0.1 worked: localhost resolved to ::1 "
            "while the service listened on IPv4 only."
        ),
        steps=(
            "Check both sides: ss -ltnp shows whether the service listens on 127.0.0.1, [::1] or all "
            "addresses, and getent ahosts localhost shows the order the resolver returns",
            "Point the client at the address the service listens on (127.0.0.1) in its configuration, or "
            "{client_fix}",
            "Alternatively bind the service to both families (:: with dual-stack, or both loopback "
            "addresses) when other clients expect localhost",
            "Re-run the client and confirm the connection in the service's access log",
        ),
        avoid=(
            "Do not remove the ::1 localhost line from /etc/hosts: other software relies on it and the fix "
            "belongs in the client or the bind address",
        ),
        signals=(
            "{error}",
            "::1",
            "127.0.0.1|localhost resolution",
        ),
        validation=("ss -ltnp",),
        slots={
            "client": (
                {
                    "client": "Node.js fetch",
                    "error": "TypeError: fetch failed (connect ECONNREFUSED ::1:8000)",
                    "client_fix": "start Node with --dns-result-order=ipv4first",
                },
                {
                    "client": "an axios client in Node.js",
                    "error": "connect ECONNREFUSED ::1:8000",
                    "client_fix": "call dns.setDefaultResultOrder('ipv4first') at start-up",
                },
                {
                    "client": "the Vite dev-server proxy",
                    "error": "http proxy error: connect ECONNREFUSED ::1:8000",
                    "client_fix": "use http://127.0.0.1:8000 as the proxy target",
                },
                {
                    "client": "Playwright's webServer check",
                    "error": "Timed out waiting 60000ms from config.webServer",
                    "client_fix": "use a 127.0.0.1 URL in webServer.url",
                },
                {
                    "client": "Cypress",
                    "error": "Cypress could not verify that this server is running",
                    "client_fix": "use a 127.0.0.1 baseUrl",
                },
                {
                    "client": "Next.js server-side fetch",
                    "error": "TypeError: fetch failed (connect ECONNREFUSED ::1:8000)",
                    "client_fix": "read the API base URL from an environment variable set to 127.0.0.1",
                },
            ),
            "service": (
                "a Django runserver on port 8000",
                "a Flask dev server on port 8000",
                "an API container published with -p 127.0.0.1:8000:8000",
                "a Go API bound to 127.0.0.1:8000",
                "a Rails server started with -p 8000",
                "a Spring Boot app in WSL2 on port 8000",
                "a FastAPI app under uvicorn on port 8000",
                "a PHP built-in server on 127.0.0.1:8000",
            ),
        },
    ),
    Problem(
        slug="path_mtu_blackhole",
        category="repair",
        summary="Diagnose {symptom} over {link} while small requests work",
        task=(
            "Over {link}, small requests succeeded but large transfers hung ({symptom}); find and fix the "
            "MTU problem on the path."
        ),
        steps=(
            "Probe the path MTU: ping -M do -s 1472 <host> and lower the size until replies come back "
            "(payload plus 28 bytes of headers), and run tracepath <host> to see where the PMTU drops",
            "Check whether ICMP 'fragmentation needed' messages are filtered anywhere on the path",
            "Set the right MTU on the tunnel or overlay: {mtu_fix}",
            "Or clamp TCP MSS on the forwarding host (iptables -t mangle ... -j TCPMSS "
            "--clamp-mss-to-pmtu), then repeat the large transfer that failed",
        ),
        avoid=(
            "Do not block all ICMP on the path: path MTU discovery depends on 'fragmentation needed' replies",
        ),
        signals=(
            "{sig}",
            "tracepath|pmtu",
            "ping -M do",
        ),
        validation=(
            "tracepath -n 10.0.0.10",
            "ping -M do -s 1372 -c 3 10.0.0.10",
        ),
        slots={
            "link": (
                {
                    "link": "a WireGuard tunnel",
                    "mtu_fix": "MTU = 1420 (or lower) in the wg-quick interface section",
                    "sig": "wireguard mtu",
                },
                {
                    "link": "an IPsec site-to-site VPN",
                    "mtu_fix": "a lower MTU on the tunnel interface or MSS clamping on both gateways",
                    "sig": "ipsec",
                },
                {
                    "link": "a Docker bridge network on a cloud VM",
                    "mtu_fix": 'the "mtu" option in /etc/docker/daemon.json matching the VM\'s interface',
                    "sig": "docker0 mtu",
                },
                {
                    "link": "a Kubernetes VXLAN overlay",
                    "mtu_fix": (
                        "the CNI's MTU setting (for example Calico's veth_mtu) at the node MTU minus 50"
                    ),
                    "sig": "vxlan",
                },
                {
                    "link": "an OpenVPN connection",
                    "mtu_fix": "tun-mtu and mssfix in the client and server configs",
                    "sig": "mssfix",
                },
                {
                    "link": "a PPPoE uplink",
                    "mtu_fix": "MTU 1492 on the WAN interface and MSS clamping for LAN clients",
                    "sig": "pppoe",
                },
                {
                    "link": "a GRE tunnel between two VPCs",
                    "mtu_fix": "MTU 1476 or lower on the gre interfaces",
                    "sig": "gre tunnel",
                },
            ),
            "symptom": (
                "git clones stalling",
                "TLS handshakes timing out",
                "SSH sessions freezing when output scrolls",
                "docker pull hanging on one layer",
                "HTTPS downloads stopping after a few kilobytes",
                "database queries with large results hanging",
                "apt-get update stalling on index files",
            ),
        },
    ),
    Problem(
        slug="idle_timeout_connection_resets",
        category="repair",
        summary="Stop intermittent '{error}' from {client} calling a service behind {lb}",
        task=(
            "Requests from {client} to an API behind {lb} failed a few times an hour with '{error}', always "
            "on the first request after a quiet period; make pooled keep-alive connections stop dying under "
            "it."
        ),
        steps=(
            "Correlate the failures with idle time: they hit the first request on a connection that sat "
            "idle longer than the load balancer allows ({lb_timeout})",
            "Order the timeouts: client pool idle timeout < the load balancer's idle timeout < backend "
            "keep-alive timeout",
            "Set the client side: {client_cfg}",
            "Retry idempotent requests once on a reset of a reused connection, and confirm with a test that "
            "idles past the old limit",
        ),
        avoid=(
            "Do not disable keep-alive entirely to hide the resets: every request then pays a new TCP and "
            "TLS handshake",
        ),
        signals=(
            "{error}",
            "keep-alive|idle timeout",
            "{lb_sig}",
        ),
        validation=("python idle_probe.py --idle 400 --requests 20",),
        slots={
            "client": (
                {
                    "client": "a Node.js service",
                    "error": "socket hang up",
                    "client_cfg": (
                        "an http.Agent with keepAlive and a freeSocketTimeout below the load balancer's"
                    ),
                },
                {
                    "client": "a Python requests client",
                    "error": "ConnectionResetError(104, 'Connection reset by peer')",
                    "client_cfg": (
                        "a Session with an HTTPAdapter and urllib3 Retry for idempotent methods, and "
                        "refresh idle sessions"
                    ),
                },
                {
                    "client": "a Java Apache HttpClient",
                    "error": "NoHttpResponseException: The target server failed to respond",
                    "client_cfg": "evictIdleConnections and a connection TTL below the load balancer's",
                },
                {
                    "client": "a Go service",
                    "error": "read: connection reset by peer",
                    "client_cfg": "http.Transport IdleConnTimeout below the load balancer's",
                },
                {
                    "client": "a Ruby Net::HTTP client",
                    "error": "Errno::ECONNRESET: Connection reset by peer",
                    "client_cfg": (
                        "keep_alive_timeout on the connection (or the pool of a persistent HTTP gem) below "
                        "the load balancer's"
                    ),
                },
                {
                    "client": "a .NET HttpClient",
                    "error": "An existing connection was forcibly closed by the remote host",
                    "client_cfg": "SocketsHttpHandler.PooledConnectionIdleTimeout below the load balancer's",
                },
            ),
            "lb": (
                {
                    "lb": "an AWS Application Load Balancer",
                    "lb_timeout": "60 seconds by default",
                    "lb_sig": "idle_timeout.timeout_seconds",
                },
                {
                    "lb": "an AWS Network Load Balancer",
                    "lb_timeout": "350 seconds for idle TCP flows",
                    "lb_sig": "tcp idle timeout",
                },
                {
                    "lb": "a Google Cloud HTTP(S) load balancer",
                    "lb_timeout": "a 610-second keep-alive timeout",
                    "lb_sig": "backend service timeout",
                },
                {
                    "lb": "an Azure Load Balancer",
                    "lb_timeout": "4 minutes by default",
                    "lb_sig": "idleTimeoutInMinutes",
                },
                {
                    "lb": "an Azure Application Gateway",
                    "lb_timeout": "its configured request timeout",
                    "lb_sig": "application gateway",
                },
                {
                    "lb": "an nginx reverse proxy",
                    "lb_timeout": "keepalive_timeout",
                    "lb_sig": "keepalive_timeout",
                },
                {
                    "lb": "HAProxy",
                    "lb_timeout": "timeout client and timeout http-keep-alive",
                    "lb_sig": "timeout http-keep-alive",
                },
                {
                    "lb": "an Envoy sidecar",
                    "lb_timeout": "the cluster's idle_timeout",
                    "lb_sig": "idle_timeout",
                },
            ),
        },
    ),
    Problem(
        slug="dns_cutover_ttl_planning",
        category="explore",
        summary=(
            "Plan a DNS cutover on {provider} of a production hostname to {target} with minimal stale traffic"
        ),
        task=(
            "A production hostname hosted on {provider} had to move to {target}; plan and run the switch so "
            "clients move over quickly and nothing breaks while caches expire."
        ),
        steps=(
            "Record the current records and TTLs (dig +noall +answer) and the SOA negative-caching value",
            "Lower the TTL to 60-300 seconds at least one old TTL before the switch, and confirm resolvers "
            "see it",
            "Stand up {target} in parallel and test it with curl --resolve host:443:<new address> before "
            "changing DNS",
            "Switch the record, watch traffic drain from the old endpoint (some resolvers ignore TTLs), "
            "keep the old endpoint serving for well over the old TTL, then raise the TTL again",
        ),
        avoid=("Do not put a CNAME at the zone apex: use {apex} instead",),
        signals=(
            "{sig}",
            "TTL",
            "dig +noall +answer",
        ),
        validation=(
            "dig +noall +answer www.example.com",
            "dig +short www.example.com",
        ),
        slots={
            "provider": (
                {"provider": "Route 53", "apex": "an alias record", "sig": "route53 alias"},
                {"provider": "Cloudflare", "apex": "CNAME flattening", "sig": "cname flattening"},
                {
                    "provider": "Google Cloud DNS",
                    "apex": "A and AAAA records or the provider's routing policy",
                    "sig": "gcloud dns record-sets",
                },
                {"provider": "Azure DNS", "apex": "an alias record set", "sig": "az network dns record-set"},
            ),
            "target": (
                "a new load balancer",
                "a new CDN",
                "a new hosting provider",
                "a blue-green environment",
                "a new region",
                "another Kubernetes cluster's ingress",
                "a managed API gateway",
                "a new static site host",
                "a failover data centre",
                "a SaaS helpdesk portal",
                "an object-storage website endpoint",
                "a partner's hosted checkout",
            ),
        },
    ),
    # -------------------- spreadsheets, email and calendar
    Problem(
        slug="csv_import_value_mangling",
        category="repair",
        summary="Import a CSV of {data} into {app} without the values being converted or stripped",
        task=(
            "A spreadsheet agent imported a CSV of {data} into {app}, and {damage}; re-import it so every "
            "cell holds exactly the text in the file."
        ),
        steps=(
            "Inspect the raw file first (head, file -i for encoding, the delimiter and any BOM) and list "
            "the columns that must stay text",
            "Declare those columns as text before or during import: {text_cfg}",
            "Import with the right encoding and delimiter, without automatic type detection for those "
            "columns",
            "Read the cells back and compare them with the CSV values in a script, column by column",
        ),
        avoid=(
            "Do not open the CSV in the spreadsheet and save it again: the converted values get written "
            "back to the file",
        ),
        signals=(
            "{sig}",
            "leading zeros|scientific notation",
            "{data_sig}",
        ),
        validation=("python check_state.py --task csv-import --exact",),
        slots={
            "app": (
                {
                    "app": "Excel",
                    "text_cfg": (
                        "Data > From Text/CSV, Transform Data, and set the column type to Text in Power Query"
                    ),
                    "sig": "power query",
                },
                {
                    "app": "Google Sheets",
                    "text_cfg": (
                        "File > Import with 'Convert text to numbers, dates, and formulas' turned off, or "
                        "values.update with RAW"
                    ),
                    "sig": "valueInputOption RAW",
                },
                {
                    "app": "LibreOffice Calc",
                    "text_cfg": (
                        "the Text Import dialog with the column type set to Text, or the CSV filter's "
                        "column-format token in soffice --infilter"
                    ),
                    "sig": "text import",
                },
                {
                    "app": "an openpyxl workbook",
                    "text_cfg": (
                        "pandas.read_csv(dtype=str, keep_default_na=False) and cells written as strings "
                        "with number_format '@'"
                    ),
                    "sig": "dtype=str",
                },
            ),
            "data": (
                {"data": "US ZIP codes", "damage": "02134 became 2134", "data_sig": "zip code"},
                {"data": "product SKUs", "damage": "SKU 00123 lost its zeros", "data_sig": "sku"},
                {
                    "data": "phone numbers",
                    "damage": "the leading + and zeros disappeared",
                    "data_sig": "phone number",
                },
                {
                    "data": "gene symbols",
                    "damage": "MARCH1 and SEPT2 turned into dates",
                    "data_sig": "gene symbols",
                },
                {"data": "invoice numbers", "damage": "1-2 became a date", "data_sig": "invoice number"},
                {
                    "data": "EAN barcodes",
                    "damage": "13-digit codes showed as 4.00638E+12",
                    "data_sig": "ean barcode",
                },
                {"data": "part numbers", "damage": "1E5 became 100000", "data_sig": "part number"},
                {
                    "data": "employee IDs",
                    "damage": "IDs with leading zeros no longer matched HR records",
                    "data_sig": "employee id",
                },
                {
                    "data": "18-digit order references",
                    "damage": "the last digits were rounded to zeros",
                    "data_sig": "15-digit precision",
                },
                {"data": "UK sort codes", "damage": "01-02-03 turned into a date", "data_sig": "sort code"},
                {
                    "data": "fiscal periods",
                    "damage": "2024-01 became 1 January 2024",
                    "data_sig": "fiscal period",
                },
                {
                    "data": "postal codes with letters",
                    "damage": "values like 1E3 were read as numbers",
                    "data_sig": "postal code",
                },
            ),
        },
    ),
    Problem(
        slug="spreadsheet_data_validation_rules",
        category="innovate",
        summary="Add {rule} data validation to a spreadsheet column with {tool}",
        task=(
            "A spreadsheet agent had to enforce {rule} validation on a column of a shared workbook using "
            "{tool}, so that bad values are rejected on entry and existing bad values are reported."
        ),
        steps=(
            "Locate the header and define the target range: from the first data row down to the expected "
            "end, not the header cell",
            "Create the rule with {api}, with {rule_detail}",
            "Make it reject invalid input rather than warn, and add an input message explaining the allowed "
            "values",
            "Existing values are not re-checked by a new rule: scan them with a script and report the rows "
            "that break it, then read the rule back with {readback}",
        ),
        avoid=(
            "Do not apply the rule to the whole sheet or the header row: it blocks legitimate edits "
            "elsewhere",
        ),
        signals=(
            "{sig}",
            "data validation",
            "{rule_sig}",
        ),
        validation=("python check_state.py --task data-validation",),
        slots={
            "tool": (
                {
                    "tool": "openpyxl",
                    "api": (
                        "openpyxl.worksheet.datavalidation.DataValidation added with ws.add_data_validation "
                        "and dv.add(range)"
                    ),
                    "readback": "ws.data_validations.dataValidation after reloading",
                    "sig": "DataValidation",
                },
                {
                    "tool": "the Google Sheets API",
                    "api": "a spreadsheets.batchUpdate setDataValidation request with strict set to true",
                    "readback": "spreadsheets.get with the dataValidation field",
                    "sig": "setDataValidation",
                },
                {
                    "tool": "XlsxWriter",
                    "api": "worksheet.data_validation(range, options)",
                    "readback": "openpyxl after the file is written",
                    "sig": "xlsxwriter data_validation",
                },
                {
                    "tool": "Office Scripts",
                    "api": "range.getDataValidation().setRule(...)",
                    "readback": "getRule() on the same range",
                    "sig": "getDataValidation",
                },
                {
                    "tool": "Google Apps Script",
                    "api": "SpreadsheetApp.newDataValidation() ... .build() and range.setDataValidation",
                    "readback": "range.getDataValidation()",
                    "sig": "newDataValidation",
                },
            ),
            "rule": (
                {
                    "rule": "a dropdown list",
                    "rule_detail": "the allowed values listed in the rule",
                    "rule_sig": "list validation",
                },
                {
                    "rule": "a whole-number range",
                    "rule_detail": "minimum and maximum bounds",
                    "rule_sig": "whole number",
                },
                {
                    "rule": "a future-date",
                    "rule_detail": "a date-after-today condition",
                    "rule_sig": "date validation",
                },
                {
                    "rule": "a unique-value",
                    "rule_detail": "a custom formula such as =COUNTIF($A:$A,A2)=1",
                    "rule_sig": "COUNTIF",
                },
                {"rule": "a text-length", "rule_detail": "a maximum text length", "rule_sig": "text length"},
                {
                    "rule": "a lookup-list",
                    "rule_detail": "the list taken from a range on a reference sheet",
                    "rule_sig": "list from range",
                },
                {
                    "rule": "a percentage",
                    "rule_detail": "a decimal between 0 and 1",
                    "rule_sig": "decimal between",
                },
                {
                    "rule": "a working-hours time",
                    "rule_detail": "a time between 08:00 and 18:00",
                    "rule_sig": "time validation",
                },
                {
                    "rule": "a positive-amount",
                    "rule_detail": "a decimal greater than 0",
                    "rule_sig": "decimal greater than",
                },
                {
                    "rule": "an email-format",
                    "rule_detail": "a custom formula that checks for one @ and a dot in the domain",
                    "rule_sig": "custom formula",
                },
            ),
        },
    ),
    Problem(
        slug="email_bounce_suppression",
        category="innovate",
        summary="Process {esp} bounces and complaints so {sender} stops mailing dead addresses",
        task=(
            "Using {esp}, {sender} kept sending to addresses that had hard-bounced, and the provider warned "
            "about the bounce rate; process bounce and complaint events and suppress the right addresses."
        ),
        steps=(
            "Receive the provider's events: {events}",
            "Classify them: permanent failures (5.x.x such as 550 5.1.1 user unknown) suppress at once; "
            "temporary ones (4.x.x, mailbox full) retry and suppress after repeated failures; complaints "
            "suppress and unsubscribe",
            "Store suppressions keyed by the normalised address and check the list before every send",
            "Test with {test} and confirm the address lands in the suppression list and the next send is "
            "skipped",
        ),
        avoid=(
            "Do not treat every bounce as permanent: soft bounces from full mailboxes or greylisting recover",
            "Do not process webhook events without verifying their signature",
        ),
        signals=(
            "550 5.1.1",
            "hard bounce|permanent failure",
            "{sig}",
        ),
        validation=("python check_state.py --task bounces",),
        slots={
            "esp": (
                {
                    "esp": "Amazon SES",
                    "events": (
                        "bounce and complaint notifications through an SNS topic (Bounce type Permanent or "
                        "Transient)"
                    ),
                    "test": "the SES mailbox simulator addresses",
                    "sig": "bounceType Permanent",
                },
                {
                    "esp": "SendGrid",
                    "events": "the Event Webhook's bounce, dropped and spamreport events",
                    "test": "a test address on a domain you control that rejects mail",
                    "sig": "sendgrid event webhook",
                },
                {
                    "esp": "Mailgun",
                    "events": "permanent_fail and temporary_fail webhooks and complained events",
                    "test": "a test address on a domain you control that rejects mail",
                    "sig": "permanent_fail",
                },
                {
                    "esp": "Postmark",
                    "events": (
                        "the bounce and spam complaint webhooks with their Type field (HardBounce, "
                        "SoftBounce)"
                    ),
                    "test": "Postmark's bounce test addresses",
                    "sig": "HardBounce",
                },
                {
                    "esp": "a self-hosted Postfix",
                    "events": "delivery status notifications parsed from a VERP return path",
                    "test": "a local test address that rejects with 550 5.1.1",
                    "sig": "VERP",
                },
            ),
            "sender": (
                "a newsletter platform",
                "a transactional receipts service",
                "a SaaS signup flow",
                "a CRM campaign tool",
                "an event invitation sender",
                "a billing reminder job",
                "a support-ticket notifier",
                "a B2B outreach tool",
                "a marketplace order notifier",
                "a school announcements mailer",
            ),
        },
    ),
    Problem(
        slug="ics_invite_update_cancel",
        category="repair",
        summary=(
            "Send invite updates and cancellations from {sender} that {client} applies to the original event"
        ),
        task=(
            "Invites from {sender} went out as .ics attachments; when a meeting moved or was cancelled, "
            "{client} showed a second event or ignored the change. Make updates and cancellations apply to "
            "the existing event."
        ),
        steps=(
            "Keep one stable UID per event for its whole life, stored with the booking",
            "For an update send METHOD:REQUEST with the same UID, an incremented SEQUENCE and a new "
            "DTSTAMP, as Content-Type: text/calendar; method=REQUEST",
            "For a cancellation send METHOD:CANCEL with the same UID, STATUS:CANCELLED and a higher "
            "SEQUENCE, listing the attendees being cancelled",
            "Keep ORGANIZER matching the sending address, validate the file with the icalendar library, and "
            "test each step in {client}",
        ),
        avoid=(
            "Do not generate a fresh UID for an update: {client} then creates a second event instead of "
            "moving the first",
        ),
        signals=(
            "METHOD:REQUEST|METHOD:CANCEL",
            "SEQUENCE",
            "{sig}",
        ),
        validation=("python check_ics.py invites/",),
        slots={
            "client": (
                {"client": "Outlook", "sig": "outlook duplicate meeting"},
                {"client": "Google Calendar", "sig": "gmail invitation"},
                {"client": "Apple Calendar", "sig": "apple calendar invite"},
                {"client": "Thunderbird", "sig": "thunderbird lightning"},
            ),
            "sender": (
                "a Python booking service",
                "a Django clinic scheduler",
                "a Node.js interview scheduler",
                "a Rails class-booking app",
                "a ticketing system",
                "a webinar platform",
                "a Go reservation API",
                "a PHP appointment plugin",
                "a Java HR system",
                "a .NET room-booking tool",
                "a tutoring marketplace",
            ),
        },
    ),
    Problem(
        slug="mailbox_migration_imapsync",
        category="innovate",
        summary="Migrate {mailbox} from {src} to {dst} with imapsync without duplicates or lost folders",
        task=(
            "An agent had to move {mailbox} from {src} to {dst} while the user kept working; every folder "
            "and message must arrive once, with read and flagged state kept."
        ),
        steps=(
            "Do a dry run of the folder structure first (imapsync --dry --justfolders) and map names that "
            "differ with --automap or --regextrans2",
            "{src_note}",
            "Authenticate with what the providers require ({auth}) and read secrets from --passfile files, "
            "never the command line",
            "Run the full sync, then repeat it before the cutover: imapsync skips messages already copied, "
            "so the second pass only moves new mail; compare per-folder counts with --justfoldersizes",
        ),
        avoid=(
            "Do not run two imapsync passes on the same account pair in parallel: both copy the same new "
            "messages",
        ),
        signals=(
            "imapsync",
            "{sig}",
            "--justfolders|--automap",
        ),
        validation=("imapsync --justfoldersizes --host1 imap.old.example --host2 imap.new.example",),
        slots={
            "src": (
                {
                    "src": "Gmail",
                    "src_note": (
                        "Exclude [Gmail]/All Mail and Important (or use --gmail1) so labels do not turn "
                        "into duplicate copies"
                    ),
                    "sig": "[Gmail]/All Mail",
                },
                {
                    "src": "Microsoft 365",
                    "src_note": (
                        "Skip system folders such as Sync Issues and Conversation History that exist only "
                        "on Exchange"
                    ),
                    "sig": "outlook.office365.com",
                },
                {
                    "src": "Dovecot",
                    "src_note": (
                        "Check the namespace separator and prefix (INBOX. or /) with --justfolders output "
                        "before mapping"
                    ),
                    "sig": "dovecot",
                },
                {
                    "src": "Zimbra",
                    "src_note": (
                        "Exclude Zimbra's Chats, Contacts and Emailed Contacts folders, which are not mail"
                    ),
                    "sig": "zimbra",
                },
                {
                    "src": "Fastmail",
                    "src_note": "Map Fastmail's Archive and Spam folders to the target's special-use folders",
                    "sig": "fastmail",
                },
                {
                    "src": "Yahoo Mail",
                    "src_note": "Throttle with --maxbytespersecond, because Yahoo drops fast IMAP sessions",
                    "sig": "imap.mail.yahoo.com",
                },
            ),
            "dst": (
                {
                    "dst": "Microsoft 365",
                    "auth": (
                        "OAuth2 with --authmech2 XOAUTH2 and an access-token file, since basic auth is off"
                    ),
                },
                {"dst": "Google Workspace", "auth": "OAuth2 (XOAUTH2) or an app password per account"},
                {
                    "dst": "a Dovecot server",
                    "auth": "a master user, or each user's login read from a passfile",
                },
                {"dst": "Fastmail", "auth": "an app password created for the migration"},
            ),
            "mailbox": (
                "a 20 GB executive mailbox",
                "a shared support mailbox with 40,000 messages",
            ),
        },
    ),
    # -------------------- game and simulated environments, robotics
    Problem(
        slug="gymnasium_api_migration",
        category="repair",
        summary="Port a training loop for {env} from the old Gym API to Gymnasium after {error}",
        task=(
            "A training script for {env} written against the old gym package broke after switching to "
            "Gymnasium: {error}. Update the loop to the Gymnasium API without changing what it learns."
        ),
        steps=(
            "Unpack step() as obs, reward, terminated, truncated, info and end the episode when either flag "
            "is set",
            "Call reset(seed=...) once to seed, unpack it as obs, info, and seed the action space "
            "separately with env.action_space.seed()",
            "Pass render_mode to gymnasium.make instead of calling render(mode=...)",
            "Bootstrap value targets on truncated steps but not on terminated ones, and run "
            "gymnasium.utils.env_checker.check_env on any custom environment",
        ),
        avoid=(
            "Do not fold truncated into done for value targets: a time-limit cut-off is not a terminal state",
        ),
        signals=(
            "{sig}",
            "gymnasium",
            "terminated, truncated",
        ),
        validation=("python train.py --smoke-test --episodes 3",),
        slots={
            "error": (
                {
                    "error": "step() raised 'ValueError: too many values to unpack (expected 4)'",
                    "sig": "too many values to unpack (expected 4)",
                },
                {
                    "error": "reset() returned a tuple and the policy crashed on the observation shape",
                    "sig": "reset() returns (obs, info)",
                },
                {
                    "error": "render(mode='human') raised an unexpected keyword argument error",
                    "sig": "render_mode",
                },
                {"error": "env.seed() raised AttributeError", "sig": "has no attribute 'seed'"},
                {"error": "episodes never ended because done was never set", "sig": "TimeLimit truncated"},
            ),
            "env": (
                "CartPole-v1",
                "LunarLander-v3",
                "MountainCar-v0",
                "ALE/Pong-v5",
                "HalfCheetah-v5",
                "a custom grid environment",
                "Acrobot-v1",
                "Pendulum-v1",
                "FrozenLake-v1",
            ),
        },
    ),
    Problem(
        slug="vectorized_env_throughput",
        category="optimize",
        summary="Raise rollout throughput for {env} with {lib} vectorised environments",
        task=(
            "Rollout collection for {env} ran one environment at a time and left most CPU cores idle; use "
            "{lib} to collect several times more steps per second with the same results."
        ),
        steps=(
            "Measure steps per second with a single environment and note whether the time goes to the "
            "simulator or to policy inference",
            "Run N copies with {vec}, picking the synchronous variant for cheap environments and subprocess "
            "workers for expensive ones, with N near the number of physical cores",
            "Batch the policy forward pass over all N observations per step, on the GPU if the policy is "
            "large",
            "Respect the library's autoreset semantics ({autoreset}) when storing transitions, and compare "
            "episode returns with the single-environment baseline",
        ),
        avoid=(
            "Do not create a CUDA context before forking worker processes: use the spawn start method or "
            "workers crash or hang",
        ),
        signals=(
            "{sig}",
            "steps per second|SPS",
            "vector env|vectorized environment",
        ),
        validation=("python bench_rollout.py --envs 16 --steps 20000",),
        slots={
            "lib": (
                {
                    "lib": "Gymnasium",
                    "vec": "gymnasium.vector.SyncVectorEnv or AsyncVectorEnv",
                    "autoreset": "in Gymnasium 1.x the reset happens on the step after an episode ends",
                    "sig": "AsyncVectorEnv",
                },
                {
                    "lib": "Stable-Baselines3",
                    "vec": "make_vec_env with DummyVecEnv or SubprocVecEnv",
                    "autoreset": "the terminal observation is in info['terminal_observation']",
                    "sig": "SubprocVecEnv",
                },
                {
                    "lib": "TorchRL",
                    "vec": "SerialEnv or ParallelEnv with a create_env_fn",
                    "autoreset": (
                        "collectors reset finished sub-environments, so read the final observation from the "
                        "'next' entry"
                    ),
                    "sig": "ParallelEnv",
                },
                {
                    "lib": "RLlib",
                    "vec": "num_env_runners and num_envs_per_env_runner in the algorithm config",
                    "autoreset": "RLlib's episode objects, which handle it for you",
                    "sig": "num_envs_per_env_runner",
                },
            ),
            "env": (
                "Atari Breakout",
                "MuJoCo Ant",
                "Procgen CoinRun",
                "a custom physics simulator",
                "MiniGrid",
                "CarRacing",
                "a PyBullet arm",
                "a board-game simulator",
                "a traffic simulator",
                "a warehouse simulator",
                "VizDoom",
                "a Unity ML-Agents build",
            ),
        },
    ),
    Problem(
        slug="sokoban_deadlock_pruning",
        category="repair",
        summary=(
            "Stop an agent from making {puzzle} levels {level} unsolvable by pushing boxes into dead "
            "positions"
        ),
        task=(
            "An agent solving {puzzle} levels {level} kept pushing boxes into corners and against walls "
            "with no goal, then ran out of steps; make it avoid deadlocks and finish the levels."
        ),
        steps=(
            "Precompute dead squares once per level: from each goal, pull a box backwards over the map; any "
            "floor square a box can never be pulled to is dead",
            "Reject pushes onto dead squares and detect freeze deadlocks (boxes blocked on both axes, such "
            "as 2x2 groups of boxes and walls not all on goals)",
            "Search over push states (box positions plus the player's reachable region) with A* and a "
            "heuristic from box-to-goal matching",
            "Replay the found plan in {runner} move by move and compare the final state with the goal",
        ),
        avoid=(
            "Do not search over single player moves: the state space explodes and the step budget runs out",
        ),
        signals=(
            "{sig}",
            "deadlock",
            "dead square|freeze deadlock",
        ),
        validation=("python replay_env.py --task sokoban --check",),
        slots={
            "puzzle": (
                {"puzzle": "gym-sokoban", "runner": "the gym environment", "sig": "gym-sokoban"},
                {"puzzle": "Boxoban", "runner": "the level loader", "sig": "boxoban"},
                {"puzzle": "text-rendered Sokoban", "runner": "the text environment", "sig": "sokoban"},
                {
                    "puzzle": "PuzzleScript push-puzzle",
                    "runner": "the PuzzleScript engine",
                    "sig": "puzzlescript",
                },
            ),
            "level": (
                "with two boxes",
                "with four boxes in narrow corridors",
                "with goals in corners",
                "on 10x10 maps",
                "with tunnels",
                "with a single-width entrance",
                "with goals along walls",
                "with rooms joined by doorways",
                "with a tight push budget",
                "with boxes starting next to walls",
                "with more goals than corridors",
            ),
        },
    ),
    Problem(
        slug="pettingzoo_legal_actions",
        category="repair",
        summary="Make {harness} act legally in PettingZoo's {game} through the AEC API",
        task=(
            "In PettingZoo's {game}, {harness} kept losing games instantly: it played illegal moves and "
            "stepped agents that were already done. Make every action legal and the loop correct."
        ),
        steps=(
            "Drive the game with for agent in env.agent_iter(): observation, reward, termination, "
            "truncation, info = env.last()",
            "When termination or truncation is set, call env.step(None) for that agent",
            "Otherwise choose only among legal actions from observation['action_mask'] (np.flatnonzero), "
            "masking policy logits to -inf for illegal ones{extra}",
            "Play a few hundred games against a random legal-move baseline and assert no illegal-move "
            "penalty occurs",
        ),
        avoid=(
            "Do not sample from env.action_space(agent) directly: it includes illegal moves, which end the "
            "game with a penalty",
        ),
        signals=(
            "action_mask",
            "agent_iter",
            "illegal move",
        ),
        validation=("python play_games.py --games 200 --assert-legal",),
        slots={
            "game": (
                {
                    "game": "chess_v6",
                    "extra": (
                        ", and map indices to UCI moves only through the environment's own action encoding"
                    ),
                },
                {"game": "connect_four_v3", "extra": ""},
                {"game": "tictactoe_v3", "extra": ""},
                {"game": "go_v5", "extra": ", keeping the pass action available"},
                {"game": "texas_holdem_no_limit_v6", "extra": ", since legal bet sizes change every street"},
                {
                    "game": "gin_rummy_v4",
                    "extra": ", since knock and gin actions are legal only at certain counts",
                },
                {"game": "leduc_holdem_v4", "extra": ""},
            ),
            "harness": (
                "a random-baseline tournament script",
                "a self-play training loop",
                "an LLM agent choosing moves from text",
                "an evaluation against a fixed bot",
                "an RLlib multi-agent setup",
                "a human-versus-agent demo",
            ),
        },
    ),
    Problem(
        slug="crafting_recipe_planning",
        category="innovate",
        summary="Plan the gather-and-craft sequence to obtain {item} in {env}",
        task=(
            "An agent in {env} had to obtain {item}; it wandered, crafted the wrong intermediates and "
            "lacked the right tool when it found the resources. Plan the whole dependency chain first."
        ),
        steps=(
            "Expand the recipe tree for {item} from {recipes} into base resources with counts, required "
            "tools and required stations (table, furnace)",
            "Order the goals topologically, taking tool gates into account (stone needs a wooden pickaxe, "
            "iron a stone pickaxe)",
            "Execute one subgoal at a time and read the inventory from each observation; replan when counts "
            "differ from the plan",
            "Confirm {item} is in the inventory before reporting success",
        ),
        avoid=(
            "Do not use recipes from memory: recipes and requirements vary between environments and game "
            "versions",
        ),
        signals=(
            "{sig}",
            "recipe|crafting",
            "inventory",
        ),
        validation=("python replay_env.py --task craft --check",),
        slots={
            "env": (
                {
                    "env": "Crafter",
                    "recipes": "Crafter's achievement and recipe definitions (data.yaml)",
                    "sig": "crafter",
                },
                {"env": "MineDojo", "recipes": "the environment's recipe data", "sig": "minedojo"},
                {
                    "env": "Minecraft through a Mineflayer bot",
                    "recipes": "minecraft-data's recipes for the server version",
                    "sig": "mineflayer",
                },
                {
                    "env": "a TextCraft-style text environment",
                    "recipes": "the crafting commands listed in the task prompt",
                    "sig": "textcraft",
                },
                {
                    "env": "MineRL",
                    "recipes": "the environment's craft and nearbyCraft action spaces",
                    "sig": "minerl",
                },
            ),
            "item": (
                "a wooden pickaxe",
                "a stone pickaxe",
                "an iron pickaxe",
                "a wooden sword",
                "a stone sword",
                "an iron sword",
                "a crafting table",
                "a furnace",
            ),
        },
    ),
    Problem(
        slug="ros2_tf_lookup_failures",
        category="repair",
        summary="Fix tf2 '{error}' in a ROS 2 {node} on {robot}",
        task=(
            "A ROS 2 {node} on {robot} kept logging '{error}' and dropped its data; make the transforms it "
            "needs available at the timestamps it uses."
        ),
        steps=(
            "Draw the transform tree with ros2 run tf2_tools view_frames and query the pair with ros2 run "
            "tf2_ros tf2_echo <target> <source>",
            "{fix}",
            "Check that every node agrees on use_sim_time and, on real hardware, that the machines' clocks "
            "are synchronised (chrony)",
            "Wait for transforms with buffer.can_transform and a timeout, or a tf2 message filter for "
            "sensor data, instead of failing on the first lookup",
        ),
        avoid=(
            "Do not restamp sensor messages with the current time to silence the error: the data is then "
            "fused at the wrong pose",
        ),
        signals=(
            "{error}",
            "tf2_echo|view_frames",
            "use_sim_time",
        ),
        validation=("ros2 run tf2_ros tf2_echo map base_link",),
        slots={
            "error": (
                {
                    "error": "Lookup would require extrapolation into the future",
                    "fix": (
                        "Look up at the message's own stamp with a small tolerance, and find which "
                        "publisher lags (ros2 topic hz /tf)"
                    ),
                },
                {
                    "error": "Lookup would require extrapolation into the past",
                    "fix": (
                        "Enlarge the buffer's cache time for slow consumers and check for a clock jump "
                        "after a simulation reset"
                    ),
                },
                {
                    "error": "not part of the same tree",
                    "fix": (
                        "Find the missing link (usually odom to base_link from odometry, or map to odom "
                        "from localisation) and start its publisher"
                    ),
                },
                {
                    "error": "passed to lookupTransform argument target_frame does not exist",
                    "fix": (
                        "Check the frame id spelling and namespace prefixes, and that robot_state_publisher "
                        "has the URDF"
                    ),
                },
            ),
            "node": (
                "perception node",
                "costmap layer",
                "AMCL localiser",
                "arm grasp planner",
                "lidar obstacle detector",
                "SLAM node",
            ),
            "robot": (
                "a TurtleBot 4",
                "a Gazebo-simulated robot",
            ),
        },
    ),
    Problem(
        slug="uav_survey_battery_planning",
        category="innovate",
        summary="Plan a survey of {area} for {vehicle} that always keeps enough battery to return home",
        task=(
            "A survey mission for {vehicle} had to photograph {area}; the first plan ran the battery into "
            "the failsafe far from home. Plan coverage that returns with the required reserve, splitting "
            "into several sorties if needed."
        ),
        steps=(
            "Turn the area into lawnmower (boustrophedon) survey lines, with spacing from the camera "
            "footprint at the survey altitude and the required side overlap",
            "Estimate energy for each leg from distance, speed, climb and a wind margin, calibrated on a "
            "short test flight in simulation",
            "Walk the route and, at every waypoint, require remaining energy greater than the cost of "
            "flying home plus a reserve (for example 25%); cut the sortie where this would fail and resume "
            "from there on the next",
            "Upload each sortie with {upload} and fly it in SITL, checking the reported battery at landing",
        ),
        avoid=(
            "Do not rely on the battery failsafe as the plan: it triggers return-to-home wherever the "
            "vehicle is, which may already be too far",
        ),
        signals=(
            "{sig}",
            "mission upload|waypoint",
            "battery failsafe|RTL",
        ),
        validation=("python sitl_check.py --mission plan.json --min-landing-battery 20",),
        slots={
            "vehicle": (
                {
                    "vehicle": "a PX4 quadcopter",
                    "upload": "MAVSDK's mission plugin (upload_mission, start_mission)",
                    "sig": "mavsdk",
                },
                {
                    "vehicle": "an ArduPilot Copter",
                    "upload": "pymavlink MISSION_ITEM_INT messages",
                    "sig": "pymavlink",
                },
                {
                    "vehicle": "an ArduPilot fixed-wing plane",
                    "upload": "pymavlink MISSION_ITEM_INT messages with turn radius allowances",
                    "sig": "ardupilot plane",
                },
                {
                    "vehicle": "a PX4 VTOL",
                    "upload": "MAVSDK's mission plugin, with transition points",
                    "sig": "px4 vtol",
                },
            ),
            "area": (
                "a 40-hectare farm field",
                "a solar park",
                "a pipeline corridor",
                "a coastline segment",
                "a construction site",
                "a burn-scar perimeter",
                "a bridge approach",
                "a vineyard",
                "a quarry",
                "a railway stretch",
                "a warehouse roof",
                "a search-and-rescue grid",
            ),
        },
    ),
    # -------------------- more browser, Kubernetes and CI work
    Problem(
        slug="browser_async_export_download",
        category="repair",
        summary=(
            "Download the {fmt} export from {app} with {framework} when the link appears only after a "
            "background job"
        ),
        task=(
            "A browser agent using {framework} clicked Export in {app}; the page said the {fmt} export was "
            "being prepared and the agent gave up or downloaded an empty placeholder. Fetch the finished "
            "file."
        ),
        steps=(
            "Click Export once and capture the job reference from the network response or the confirmation "
            "message",
            "Wait for completion with a bounded poll: reload the exports list or call the same status "
            "endpoint the page polls, backing off between checks, until the job shows as ready",
            "Download the file the way {framework} supports: {download}",
            "Check the saved file: non-zero size, the expected type for {fmt}, and a row or page count that "
            "matches the filter used",
        ),
        avoid=(
            "Do not click Export again while the first job is running: each click queues another job and "
            "many apps rate-limit or cancel duplicate exports",
        ),
        signals=(
            "{sig}",
            "export is being prepared|preparing your export",
            "download link",
        ),
        validation=("python check_state.py --task export-download",),
        slots={
            "framework": (
                {
                    "framework": "Playwright",
                    "download": (
                        "wrap the click on the ready link in page.expect_download() and call "
                        "download.save_as()"
                    ),
                    "sig": "expect_download",
                },
                {
                    "framework": "Selenium",
                    "download": (
                        "set Chrome's download.default_directory preference and wait until the file exists "
                        "without a .crdownload suffix"
                    ),
                    "sig": ".crdownload",
                },
                {
                    "framework": "Puppeteer",
                    "download": (
                        "set Browser.setDownloadBehavior to a known folder through a CDP session and wait "
                        "for the file"
                    ),
                    "sig": "setDownloadBehavior",
                },
                {
                    "framework": "Cypress",
                    "download": "click the link and cy.readFile the file from downloadsFolder with a timeout",
                    "sig": "downloadsFolder",
                },
            ),
            "app": (
                {"app": "a CRM admin console", "fmt": "contacts CSV"},
                {"app": "an analytics dashboard", "fmt": "PDF report"},
                {"app": "an HR portal", "fmt": "headcount XLSX"},
                {"app": "a billing system", "fmt": "invoices ZIP"},
                {"app": "a data-privacy portal", "fmt": "account data archive"},
                {"app": "a project tracker", "fmt": "issues CSV"},
                {"app": "a support helpdesk", "fmt": "ticket history"},
                {"app": "a learning platform", "fmt": "grade-book XLSX"},
                {"app": "an e-commerce back office", "fmt": "orders CSV"},
                {"app": "an expense tool", "fmt": "monthly PDF"},
                {"app": "a survey platform", "fmt": "responses XLSX"},
            ),
        },
    ),
    Problem(
        slug="k8s_volume_multi_attach",
        category="repair",
        summary="Fix 'Multi-Attach error for volume' when rolling out {workload} on {storage}",
        task=(
            "A rollout of {workload} on {storage} left the new pod stuck in ContainerCreating with "
            "'Multi-Attach error for volume': the old pod on another node still held the ReadWriteOnce "
            "volume."
        ),
        steps=(
            "Read the pod events (kubectl describe pod) and list kubectl get volumeattachment to see which "
            "node holds the volume",
            "For a single-writer Deployment, set strategy type Recreate so the old pod releases the volume "
            "before the new one starts, or move the workload to a StatefulSet",
            "If the old node is dead rather than draining, confirm it is down, then mark it with the "
            "node.kubernetes.io/out-of-service taint so {driver} can detach the volume",
            "Re-run the rollout and confirm the pod mounts the volume; consider the ReadWriteOncePod access "
            "mode to make the single-writer rule explicit",
        ),
        avoid=(
            "Do not switch the claim to ReadWriteMany on block storage: {storage} does not support it, and "
            "two writers on one filesystem corrupt it",
        ),
        signals=(
            "Multi-Attach error for volume",
            "{driver}",
            "volumeattachment",
        ),
        validation=(
            "kubectl get volumeattachment",
            "kubectl rollout status deployment/app --timeout=300s",
        ),
        slots={
            "storage": (
                {"storage": "Amazon EBS", "driver": "ebs.csi.aws.com"},
                {"storage": "GCE persistent disks", "driver": "pd.csi.storage.gke.io"},
                {"storage": "Azure Disk", "driver": "disk.csi.azure.com"},
                {"storage": "Longhorn", "driver": "driver.longhorn.io"},
                {"storage": "Ceph RBD", "driver": "rbd.csi.ceph.com"},
            ),
            "workload": (
                "a single-replica PostgreSQL Deployment",
                "a Jenkins controller",
                "a Grafana instance with a PVC",
                "a Gitea server",
                "a Nextcloud app",
                "a Prometheus server",
                "a single-node MinIO",
                "a WordPress site",
            ),
        },
    ),
    Problem(
        slug="ci_git_lfs_pointer_files",
        category="repair",
        summary="Fix {ci} jobs that read Git LFS pointer files instead of {asset}",
        task=(
            "Tests passed locally, but in {ci} they failed with '{error}': the checkout contained Git LFS "
            "pointer text instead of {asset}. Make the pipeline fetch the real files."
        ),
        steps=(
            "Confirm it: head -c 120 of the file shows 'version https://git-lfs.github.com/spec/v1', and "
            "git lfs ls-files marks it as not downloaded",
            "Enable LFS in the checkout: {lfs_fix}",
            "Make sure git-lfs is installed on the runner image and run git lfs install once before the "
            "checkout",
            "Fetch only the paths the job needs (git lfs pull --include=...) and cache .git/lfs keyed on "
            "the LFS object list to save bandwidth quota",
        ),
        avoid=(
            "Do not commit the binaries outside LFS to get around it: the repository history grows and the "
            "push size limit comes back",
        ),
        signals=(
            "{error}",
            "version https://git-lfs.github.com/spec/v1",
            "git lfs pull",
        ),
        validation=(
            "git lfs ls-files",
            "git lfs fsck",
        ),
        slots={
            "ci": (
                {"ci": "GitHub Actions", "lfs_fix": "actions/checkout with lfs: true"},
                {
                    "ci": "GitLab CI",
                    "lfs_fix": (
                        "make sure GIT_LFS_SKIP_SMUDGE is not set for the job and the runner has git-lfs"
                    ),
                },
                {"ci": "Azure Pipelines", "lfs_fix": "lfs: true on the checkout step"},
                {"ci": "Bitbucket Pipelines", "lfs_fix": "clone: lfs: true"},
                {
                    "ci": "Jenkins",
                    "lfs_fix": "the Git LFS pull after checkout behaviour in the Git SCM settings",
                },
                {"ci": "CircleCI", "lfs_fix": "git lfs pull right after the checkout step"},
                {"ci": "Buildkite", "lfs_fix": "git lfs pull in a post-checkout hook"},
            ),
            "asset": (
                {
                    "asset": "test fixture images",
                    "error": "PIL.UnidentifiedImageError: cannot identify image file",
                },
                {"asset": "model weights", "error": "_pickle.UnpicklingError: invalid load key, 'v'"},
                {"asset": "game textures", "error": "failed to decode texture: unknown format"},
                {"asset": "large CSV test data", "error": "ParserError: Error tokenizing data"},
                {"asset": "font files", "error": "OSError: unknown file format"},
                {"asset": "firmware blobs", "error": "image size mismatch: expected 524288 bytes"},
            ),
        },
    ),
]
