"""Coherent crowd for code_generation: fixing, writing and speeding up code, on problems no labelled Gene
states.

Each Problem is one failure or task (a test runner that never exits, a webhook whose signature never matches,
row-by-row inserts, ...) written once and filled with every combination of its slot values; dict slot values
keep a language, its framework, its commands and its error strings consistent within one Gene.
"""

from __future__ import annotations

from . import Problem

# Project settings that read naturally with any language or framework.
SERVICES = (
    "an order-management service",
    "a payments webhook worker",
    "a chat backend",
    "a metrics exporter",
    "a file-sync daemon",
    "a job-scheduler library",
    "a notification service",
    "an inventory API",
    "a search indexer",
    "a billing platform",
)

PROBLEMS: list[Problem] = [
    Problem(
        slug="test_runner_never_exits_open_handles",
        category="repair",
        summary=(
            "Make a {runner} suite for {setting} exit after the last test by closing leaked handles and "
            "background threads"
        ),
        task=(
            "The {lang} test suite of {setting} passes under {runner}, but the process never finishes in CI "
            "({hang_msg}); make the test run exit cleanly on its own."
        ),
        steps=(
            "Reproduce outside watch mode with the CI command and confirm the symptom: {hang_msg}",
            "{detect}",
            "Give every resource a test opens a matching teardown: {teardown}",
            (
                "Re-run the whole suite three times and check that the process exits with status 0 in its "
                "normal time"
            ),
        ),
        avoid=(
            (
                "Do not force the process to exit ({force}): it hides the leak and cuts off pending writes "
                "such as coverage and report files"
            ),
            (
                "Do not just raise the CI job timeout: the run still hangs, and the next test that opens a "
                "handle makes it worse"
            ),
        ),
        signals=("{sig}", "/did not exit|never exits|timed out after|open handles?/i", "{runner}"),
        preconditions=("All tests pass; only the process exit hangs",),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "runner": "Jest",
                    "lang": "Node.js",
                    "hang_msg": "Jest did not exit one second after the test run has completed",
                    ("detect"): (
                        "Run npx jest --detectOpenHandles --runInBand to list the sockets, timers and "
                        "servers still open at the end"
                    ),
                    ("teardown"): (
                        "close HTTP servers, database pools and Redis clients in afterAll with await, and "
                        "clear intervals or use jest.useFakeTimers() for code that schedules timers"
                    ),
                    "force": "--forceExit",
                    "cmd": "npx jest --detectOpenHandles --runInBand",
                    "sig": "--detectopenhandles",
                },
                {
                    "runner": "Vitest",
                    "lang": "TypeScript",
                    "hang_msg": "close timed out after 10000ms",
                    ("detect"): (
                        "Run npx vitest run --reporter=hanging-process to print what keeps the worker alive"
                    ),
                    ("teardown"): (
                        "stop the Fastify or Express server and disconnect the database client in afterAll, "
                        "and restore real timers with vi.useRealTimers() in afterEach"
                    ),
                    "force": "teardownTimeout hacks or process.exit in a setup file",
                    "cmd": "npx vitest run --reporter=hanging-process",
                    "sig": "hanging-process",
                },
                {
                    "runner": "pytest",
                    "lang": "Python",
                    "hang_msg": "the pytest process never exits after printing the summary line",
                    ("detect"): (
                        "Dump the live threads with py-spy dump --pid, or call "
                        "faulthandler.dump_traceback_later in conftest.py, to see which non-daemon thread "
                        "is still running"
                    ),
                    ("teardown"): (
                        "stop background threads and executors in fixture teardown after yield, calling "
                        "executor.shutdown(wait=True), joining threads and closing event loops"
                    ),
                    "force": "os._exit in conftest.py",
                    "cmd": "pytest -q -p no:cacheprovider",
                    "sig": "threading._shutdown",
                },
                {
                    "runner": "go test",
                    "lang": "Go",
                    "hang_msg": "panic: test timed out after 10m0s",
                    ("detect"): (
                        "Run go test -timeout 60s and read the goroutine dump for goroutines blocked in "
                        "chan receive, select or net.(*conn).Read"
                    ),
                    ("teardown"): (
                        "cancel contexts and close listeners in t.Cleanup, and fail the package on leftover "
                        "goroutines with go.uber.org/goleak in TestMain"
                    ),
                    "force": "os.Exit in TestMain before the cleanups run",
                    "cmd": "go test -timeout 60s -count=1 ./...",
                    "sig": "goleak",
                },
                {
                    "runner": "Gradle with JUnit 5",
                    "lang": "Java",
                    "hang_msg": "the Gradle test task stays in EXECUTING after the last test finishes",
                    ("detect"): (
                        "Take a thread dump with jstack on the Gradle test executor JVM and look for "
                        "non-daemon threads from unclosed ExecutorServices or embedded servers"
                    ),
                    ("teardown"): (
                        "shut down ExecutorServices and embedded servers in @AfterAll, and build worker "
                        "pools with daemon thread factories"
                    ),
                    "force": "System.exit in a test listener",
                    "cmd": "./gradlew test --no-daemon",
                    "sig": "jstack",
                },
            ),
            "setting": SERVICES,
        },
    ),
    Problem(
        slug="clock_dependent_tests_fail_on_dates",
        category="repair",
        summary=(
            "Fix {lang} tests that fail {trigger} by injecting a controllable clock instead of reading the "
            "real time"
        ),
        task=(
            "Tests of a {lang} billing module started failing {trigger} although nothing changed; make them "
            "pass on any date by controlling time in the tests."
        ),
        steps=(
            (
                "Reproduce by pinning the clock to the failing moment and running the suite: the edge case "
                "is {edge}"
            ),
            (
                "Find every direct read of the real clock in the code under test ({clock_call}) and route "
                "it through one injectable source"
            ),
            "In tests, {fake}",
            "Add explicit tests for the boundary, {edge}, and for the days either side of it",
        ),
        avoid=(
            (
                "Do not compute expected values in the test from the real clock too: both sides move "
                "together and the test stops checking anything"
            ),
            "Do not skip the tests on certain dates: the production code has the same bug on those dates",
        ),
        signals=("{sig}", "{clock_call}", "/fails? (on|at) (month end|midnight|leap day)/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    "clock_call": "datetime.now()",
                    ("fake"): (
                        "freeze the clock with time-machine or freezegun (for example "
                        "@time_machine.travel('2024-02-29 23:59:30', tick=False)) or pass a clock callable "
                        "into the service"
                    ),
                    "sig": "freezegun",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "TypeScript",
                    "clock_call": "Date.now()",
                    ("fake"): (
                        "call jest.useFakeTimers() and jest.setSystemTime(new Date('2024-02-29T23:59:30Z')) "
                        "in beforeEach and restore real timers in afterEach"
                    ),
                    "sig": "setsystemtime",
                    "cmd": "npx jest",
                },
                {
                    "lang": "Go",
                    "clock_call": "time.Now()",
                    ("fake"): (
                        "inject a func() time.Time or a Clock interface (for example "
                        "github.com/jonboulle/clockwork) and give tests a fixed clock"
                    ),
                    "sig": "clockwork",
                    "cmd": "go test -count=1 ./...",
                },
                {
                    "lang": "Java",
                    "clock_call": "LocalDate.now()",
                    ("fake"): (
                        "inject java.time.Clock and construct the service with "
                        'Clock.fixed(Instant.parse("2024-02-29T23:59:30Z"), ZoneOffset.UTC)'
                    ),
                    "sig": "clock.fixed",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Ruby",
                    "clock_call": "Time.now",
                    ("fake"): (
                        "use ActiveSupport::Testing::TimeHelpers travel_to with a block (it stubs Time.now, "
                        "Date.today and DateTime.now), or Timecop.freeze outside Rails"
                    ),
                    "sig": "travel_to",
                    "cmd": "bundle exec rspec",
                },
                {
                    "lang": "C#",
                    "clock_call": "DateTime.UtcNow",
                    ("fake"): (
                        "inject TimeProvider (.NET 8) and use FakeTimeProvider from "
                        "Microsoft.Extensions.TimeProvider.Testing, advancing it with SetUtcNow"
                    ),
                    "sig": "faketimeprovider",
                    "cmd": "dotnet test",
                },
            ),
            "when": (
                {"trigger": "on the last day of each month", "edge": "adding one month to January 31"},
                {"trigger": "on February 29", "edge": "adding one year to 2024-02-29"},
                {
                    "trigger": "between midnight UTC and midnight local time",
                    ("edge"): (
                        "a timestamp at 23:59:30 UTC that is already the next day for a customer in "
                        "Asia/Tokyo"
                    ),
                },
                {
                    "trigger": "since a hard-coded date in a fixture passed",
                    ("edge"): (
                        "a coupon whose expiry date is written as a literal instead of relative to the "
                        "frozen now"
                    ),
                },
                {
                    "trigger": "when the CI runner is slow",
                    "edge": "a trial that ends exactly one second after it starts",
                },
                {
                    "trigger": "in the first days of January",
                    "edge": "ISO week 1 that starts in the previous calendar year",
                },
                {
                    "trigger": "on the first day of each month",
                    "edge": "a 'last month' report computed on the first of the month",
                },
                {
                    "trigger": "on New Year's Eve",
                    "edge": "an annual invoice number sequence that resets on January 1",
                },
            ),
        },
    ),
    Problem(
        slug="int64_ids_lose_precision_in_javascript",
        category="repair",
        summary=(
            "Stop {ids} from losing their last digits in JavaScript clients by serializing them as strings "
            "from an API built on {backend}"
        ),
        task=(
            "Browser clients of an API built on {backend} show wrong {ids}: values above 2^53 come back "
            "rounded after JSON.parse, so lookups 404. Make the IDs round-trip exactly."
        ),
        steps=(
            (
                "Confirm the cause: any ID above Number.MAX_SAFE_INTEGER (9007199254740991) is rounded by "
                "JSON.parse, so compare the raw response body with the parsed value"
            ),
            "Serialize the ID fields as JSON strings on the server: {fix}",
            (
                "Change the TypeScript types of those fields to string and stop doing arithmetic on IDs in "
                "the client"
            ),
            "During rollout, accept both number and string forms on input so old clients keep working",
            "Add a round-trip test with an ID of 2^53 + 1 through the API and the client",
        ),
        avoid=(
            (
                "Do not fix it on the client with a custom JSON.parse reviver: by the time the reviver runs "
                "the number is already rounded"
            ),
            (
                "Do not switch every integer field to strings: only identifiers can exceed 2^53, and counts "
                "or prices should stay numbers"
            ),
        ),
        signals=("MAX_SAFE_INTEGER", "/ids?.{0,30}(precision|rounded|last digits)/i", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "backend": "Go",
                    ("fix"): (
                        'add the string option to the struct tag, json:"id,string", which encodes and '
                        "decodes the int64 as a quoted number"
                    ),
                    "sig": "encoding/json",
                    "cmd": "go test ./...",
                },
                {
                    "backend": "Spring Boot",
                    ("fix"): (
                        "annotate the Long ID fields with @JsonSerialize(using = ToStringSerializer.class), "
                        "or register a Jackson module that writes Long IDs as strings"
                    ),
                    "sig": "tostringserializer",
                    "cmd": "mvn -q test",
                },
                {
                    "backend": "FastAPI",
                    ("fix"): (
                        "declare the Pydantic field as Annotated[int, PlainSerializer(str, "
                        "when_used='json')] so responses carry strings while the code keeps ints"
                    ),
                    "sig": "plainserializer",
                    "cmd": "pytest -q",
                },
                {
                    "backend": "Rust axum",
                    ("fix"): (
                        'annotate the field with #[serde_as(as = "DisplayFromStr")] from serde_with so the '
                        "u64 is written and read as a string"
                    ),
                    "sig": "displayfromstr",
                    "cmd": "cargo test",
                },
                {
                    "backend": "ASP.NET Core",
                    ("fix"): (
                        "mark the long properties with "
                        "[JsonNumberHandling(JsonNumberHandling.WriteAsString)] and allow reading from "
                        "strings for inbound requests"
                    ),
                    "sig": "jsonnumberhandling",
                    "cmd": "dotnet test",
                },
                {
                    "backend": "Rails",
                    ("fix"): (
                        "render the IDs with id.to_s in the serializer (or an attribute method in "
                        "ActiveModel::Serializer) for every bigint column"
                    ),
                    "sig": "bigint",
                    "cmd": "bundle exec rspec",
                },
            ),
            "ids": (
                "Snowflake-style order IDs",
                "PostgreSQL BIGSERIAL primary keys",
                "post IDs copied from an upstream social API",
                "Discord-style snowflake user IDs",
                "64-bit hashed account IDs",
                "sequence IDs sharded with a high-bit prefix",
                "Kafka offsets used as cursors",
                "nanosecond timestamps used as event IDs",
            ),
        },
    ),
    Problem(
        slug="unicode_lookalike_strings_compare_unequal",
        category="repair",
        summary=(
            "Normalize {data} to NFC and case-fold them in {lang} so strings that look identical compare "
            "equal"
        ),
        task=(
            "Values in {data} that look identical on screen were treated as different by the {lang} code, "
            "creating duplicate records and failed lookups; make comparisons and the uniqueness check treat "
            "them as the same value."
        ),
        steps=(
            (
                "Find failing pairs and print their code points: a precomposed é (U+00E9) versus e plus a "
                "combining accent (U+0065 U+0301), or ß versus ss"
            ),
            "Normalize at the boundary where the values enter the system: {normalize}",
            "Compare case-insensitively with full case folding rather than lower-casing: {fold}",
            (
                "Backfill existing rows with the normalized form, merge the duplicates it reveals, then "
                "enforce uniqueness on the normalized column"
            ),
        ),
        avoid=(
            (
                "Do not strip accents or non-ASCII characters to make values match: distinct names collide "
                "and users cannot enter their real names"
            ),
            (
                "Do not normalize only at comparison time in one code path: other paths still store and "
                "index the raw form"
            ),
        ),
        signals=("{sig}", "/nfc|nfd|normaliz/i", "unicode normalization|case folding"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    "normalize": "unicodedata.normalize('NFC', value) in the model's validator",
                    "fold": "value.casefold(), which maps ß to ss where lower() does not",
                    "sig": "unicodedata.normalize",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "TypeScript",
                    "normalize": "value.normalize('NFC') in the request schema transform",
                    ("fold"): (
                        "Intl.Collator with sensitivity 'accent' for comparisons, or a folded key stored "
                        "alongside the value"
                    ),
                    "sig": "string.prototype.normalize",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "Java",
                    "normalize": "Normalizer.normalize(value, Normalizer.Form.NFC) in the DTO mapper",
                    ("fold"): (
                        "a key built with toLowerCase(Locale.ROOT) after NFC, or ICU4J CaseMap.fold() for "
                        "full folding"
                    ),
                    "sig": "java.text.normalizer",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Go",
                    "normalize": "norm.NFC.String(value) from golang.org/x/text/unicode/norm",
                    ("fold"): (
                        "cases.Fold().String(value) from golang.org/x/text/cases, or strings.EqualFold for "
                        "simple pairs"
                    ),
                    "sig": "golang.org/x/text/unicode/norm",
                    "cmd": "go test ./...",
                },
                {
                    "lang": "Rust",
                    "normalize": "value.nfc().collect::<String>() from the unicode-normalization crate",
                    "fold": "the caseless crate's default_case_fold_str, applied after NFC",
                    "sig": "unicode-normalization",
                    "cmd": "cargo test",
                },
                {
                    "lang": "PostgreSQL-backed Ruby",
                    ("normalize"): (
                        "value.unicode_normalize(:nfc) in a before_validation callback, and "
                        "normalize(column, NFC) in the backfill SQL"
                    ),
                    "fold": "a nondeterministic ICU collation or a stored folded column with a unique index",
                    "sig": "unicode_normalize",
                    "cmd": "bundle exec rspec",
                },
            ),
            "data": (
                "signup usernames",
                "file names uploaded from macOS clients",
                "product SKUs pasted from spreadsheets",
                "tag names",
                "city names in address search",
                "German street names containing ß",
                "Vietnamese customer names",
                "project names used in URLs",
            ),
        },
    ),
    Problem(
        slug="shallow_copy_mutates_shared_defaults",
        category="repair",
        summary=(
            "Fix {lang} code where changing a copy of {what} also changes the shared original, because the "
            "copy is shallow"
        ),
        task=(
            "In a {lang} service, editing {what} for one customer leaked into every later request until "
            "restart; make each request work on its own copy."
        ),
        steps=(
            (
                "Reproduce with two calls in one process: change the nested value in the first and observe "
                "it in the second"
            ),
            "Find where the shared object is copied and why the copy is shallow: {cause}",
            "Make a real copy or make the shared value immutable: {fix}",
            (
                "Add a test that mutates a nested field of the returned value and asserts the defaults are "
                "unchanged"
            ),
        ),
        avoid=(
            (
                "Do not reload the defaults from disk on every request to get a fresh object: it hides the "
                "aliasing and adds I/O to the hot path"
            ),
            (
                "Do not deep-copy large objects in a tight loop without measuring: freeze or rebuild the "
                "small mutable part instead"
            ),
        ),
        signals=("{sig}", "shallow copy|aliasing|shared mutable state", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    ("cause"): (
                        "dict(defaults) and copy.copy copy only the top level, and a mutable default "
                        "argument (def build(opts={})) is one object for every call"
                    ),
                    ("fix"): (
                        "copy.deepcopy for nested structures, None defaults with a fresh object built "
                        "inside the function, or frozen dataclasses and MappingProxyType for the shared "
                        "value"
                    ),
                    "sig": "copy.deepcopy",
                    "sig2": "mutable default argument",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "TypeScript",
                    ("cause"): (
                        "the spread operator {...defaults} and Object.assign copy only the top level, so "
                        "nested arrays and objects stay shared"
                    ),
                    ("fix"): (
                        "structuredClone(defaults) for plain data, or Object.freeze plus readonly types so "
                        "accidental writes fail at compile time"
                    ),
                    "sig": "structuredclone",
                    "sig2": "object.assign",
                    "cmd": "npx tsc --noEmit",
                },
                {
                    "lang": "Go",
                    ("cause"): (
                        "assigning a struct copies its map and slice headers, not their contents, and "
                        "append can write into the original backing array"
                    ),
                    ("fix"): (
                        "a Clone method that uses maps.Clone and slices.Clone for every nested map and "
                        "slice, and full slice expressions s[:len(s):len(s)] before append"
                    ),
                    "sig": "maps.clone",
                    "sig2": "slices.clone",
                    "cmd": "go test -race ./...",
                },
                {
                    "lang": "Java",
                    ("cause"): (
                        "a static HashMap handed out by a getter is one object, and new ArrayList<>(list) "
                        "copies references to mutable elements"
                    ),
                    ("fix"): (
                        "Map.copyOf and List.copyOf over records (immutable values), or a factory method "
                        "that builds a fresh instance per call"
                    ),
                    "sig": "map.copyof",
                    "sig2": "unmodifiablemap",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Ruby",
                    ("cause"): (
                        "dup and clone copy only the outer Hash, and a constant Hash is shared by every "
                        "caller"
                    ),
                    ("fix"): (
                        "deep_dup from ActiveSupport or a builder method, and deep-freeze the constant so "
                        "accidental writes raise FrozenError"
                    ),
                    "sig": "deep_dup",
                    "sig2": "frozenerror",
                    "cmd": "bundle exec rspec",
                },
                {
                    "lang": "C#",
                    ("cause"): (
                        "MemberwiseClone and record with-expressions copy references to nested lists and "
                        "dictionaries"
                    ),
                    ("fix"): (
                        "ImmutableDictionary and ImmutableList for the shared defaults, or an explicit deep "
                        "copy constructor for the mutable parts"
                    ),
                    "sig": "memberwiseclone",
                    "sig2": "immutabledictionary",
                    "cmd": "dotnet test",
                },
            ),
            "what": (
                "per-tenant configuration defaults",
                "request option objects",
                "a default HTTP header set",
                "feature-flag defaults",
                "pricing rule templates",
                "form initial values",
                "retry policy settings",
                "report column definitions",
            ),
        },
    ),
    Problem(
        slug="date_range_filter_misses_end_day",
        category="repair",
        summary=(
            "Fix a {db} {report} that misses rows from the last day because BETWEEN compares timestamps "
            "with a bare end date"
        ),
        task=(
            "The {report} built on {db} with {orm} leaves out everything that happened on the last day of "
            "the chosen range; make the range include the whole end day."
        ),
        steps=(
            (
                "Confirm the cause: created_at BETWEEN '2024-03-01' AND '2024-03-31' compares against "
                "2024-03-31 00:00:00, so rows later that day are excluded"
            ),
            (
                "Rewrite the filter as a half-open interval: created_at >= start AND created_at < end + 1 "
                "day; in {orm}: {orm_fix}"
            ),
            (
                "Keep the column bare on the left side so the index on created_at is still used; check with "
                "{explain}"
            ),
            "Add a test with rows at 00:00:00, at 23:59:59.999 on the end day and at 00:00:00 the day after",
        ),
        avoid=(
            "Do not write the end bound as 23:59:59: rows with fractional seconds after it are still lost",
            (
                "Do not cast the column to a date inside the WHERE clause: it hides the index and turns the "
                "query into a full scan"
            ),
        ),
        signals=("BETWEEN", "/end date|last day.{0,20}missing/i", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "db": "PostgreSQL",
                    "orm": "SQLAlchemy",
                    "orm_fix": "where(Order.created_at >= start, Order.created_at < end + timedelta(days=1))",
                    "explain": "EXPLAIN ANALYZE",
                    "sig": "timestamptz",
                    "cmd": "pytest -q tests/reports",
                },
                {
                    "db": "MySQL",
                    "orm": "the Django ORM",
                    ("orm_fix"): (
                        "filter(created_at__gte=start, created_at__lt=end + timedelta(days=1)) instead of "
                        "created_at__range"
                    ),
                    "explain": "EXPLAIN FORMAT=TREE",
                    "sig": "__range",
                    "cmd": "python manage.py test reports",
                },
                {
                    "db": "SQL Server",
                    "orm": "EF Core",
                    "orm_fix": "Where(o => o.CreatedAt >= start && o.CreatedAt < end.AddDays(1))",
                    "explain": "the actual execution plan in SSMS",
                    "sig": "datetime2",
                    "cmd": "dotnet test",
                },
                {
                    "db": "SQLite",
                    "orm": "ActiveRecord",
                    ("orm_fix"): (
                        "where(created_at: start.beginning_of_day...(end + 1.day).beginning_of_day), an "
                        "endless-exclusive range"
                    ),
                    "explain": "EXPLAIN QUERY PLAN",
                    "sig": "beginning_of_day",
                    "cmd": "bundle exec rspec spec/reports",
                },
                {
                    "db": "PostgreSQL",
                    "orm": "Prisma",
                    "orm_fix": "where: { createdAt: { gte: start, lt: addDays(end, 1) } }",
                    "explain": "EXPLAIN ANALYZE on the SQL from the Prisma query log",
                    "sig": "gte",
                    "cmd": "npx vitest run",
                },
            ),
            "report": (
                "monthly revenue report",
                "daily active users export",
                "weekly payroll summary",
                "quarterly tax extract",
                "invoice list behind a date picker",
                "audit log search",
                "end-of-day settlement report",
                "subscription churn report",
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="upload_rejected_413_body_size_limits",
        category="repair",
        summary=(
            "Fix {uploads} failing with 413 or a reset connection in an app built on {stack}, by raising "
            "the size limit at every layer"
        ),
        task=(
            "Users of an app built on {stack} cannot send {uploads}: small files work, larger ones fail "
            "with 413 Request Entity Too Large or a dropped connection. Accept files up to the agreed size "
            "without loading them into memory."
        ),
        steps=(
            (
                "Find which layer rejects the request: compare the response body and Server header of the "
                "413 ({layers}) and check the app log for {app_error}"
            ),
            "Raise the limit in the proxy first: {proxy_fix}",
            "Raise the application limit to the same agreed size: {app_fix}",
            (
                "Stream the upload to disk or object storage instead of buffering it, and return a clear "
                "413 with the limit in the message when it is exceeded"
            ),
            (
                "Test with a file just under and just over the limit through the full proxy chain, not "
                "against the app port directly"
            ),
        ),
        avoid=(
            (
                "Do not remove the limits altogether: an unbounded body lets one client fill the disk or "
                "memory of every instance"
            ),
            (
                "Do not test only against the app on localhost: the proxy in front has its own limit and "
                "that is usually the one that fires"
            ),
        ),
        signals=("413 Request Entity Too Large", "{app_error}", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Express",
                    "layers": "nginx in front, then multer",
                    "app_error": "MulterError: File too large",
                    "proxy_fix": "client_max_body_size in the nginx server block",
                    ("app_fix"): (
                        "limits.fileSize in the multer options; express.json({ limit }) covers only JSON "
                        "bodies"
                    ),
                    "sig": "client_max_body_size",
                    "cmd": "npx jest tests/upload.test.ts",
                },
                {
                    "stack": "Django",
                    "layers": "nginx in front, then Django's request parsing",
                    "app_error": "RequestDataTooBig",
                    "proxy_fix": "client_max_body_size in the nginx server block",
                    ("app_fix"): (
                        "DATA_UPLOAD_MAX_MEMORY_SIZE for non-file fields and FILE_UPLOAD_MAX_MEMORY_SIZE so "
                        "larger files spool to a temporary file"
                    ),
                    "sig": "data_upload_max_memory_size",
                    "cmd": "python manage.py test uploads",
                },
                {
                    "stack": "Spring Boot",
                    "layers": "the ingress controller, then Tomcat's multipart resolver",
                    "app_error": "MaxUploadSizeExceededException",
                    "proxy_fix": "the nginx.ingress.kubernetes.io/proxy-body-size annotation on the Ingress",
                    ("app_fix"): (
                        "spring.servlet.multipart.max-file-size and max-request-size, plus "
                        "server.tomcat.max-swallow-size"
                    ),
                    "sig": "max-file-size",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "ASP.NET Core",
                    "layers": "IIS or a reverse proxy, then Kestrel",
                    "app_error": "BadHttpRequestException: Request body too large",
                    ("proxy_fix"): (
                        "maxAllowedContentLength in web.config under IIS, or the proxy's body size setting"
                    ),
                    ("app_fix"): (
                        "[RequestSizeLimit] on the upload action and FormOptions.MultipartBodyLengthLimit, "
                        "with Kestrel's MaxRequestBodySize as the global cap"
                    ),
                    "sig": "requestsizelimit",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Go net/http",
                    "layers": "the load balancer, then http.MaxBytesReader",
                    "app_error": "http: request body too large",
                    "proxy_fix": "the body size setting of the load balancer or nginx in front",
                    ("app_fix"): (
                        "http.MaxBytesReader(w, r.Body, limit) with the agreed limit, and "
                        "r.MultipartReader() to stream parts instead of ParseMultipartForm"
                    ),
                    "sig": "maxbytesreader",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "FastAPI",
                    "layers": "nginx in front, then Starlette's multipart parser",
                    "app_error": "Part exceeded maximum size",
                    ("proxy_fix"): (
                        "client_max_body_size and proxy_request_buffering off for the upload location"
                    ),
                    ("app_fix"): (
                        "read UploadFile in chunks with an explicit size check, and raise max_part_size in "
                        "request.form() only for form fields that need it"
                    ),
                    "sig": "uploadfile",
                    "cmd": "pytest -q tests/test_upload.py",
                },
            ),
            "uploads": (
                "200 MB video uploads",
                "scanned PDF batches",
                "50 MB CSV imports",
                "phone photos in HEIC format",
                "zipped log bundles",
                "CAD drawings",
                "audio interview recordings",
                "database export files",
            ),
        },
    ),
    Problem(
        slug="webhook_signature_never_matches",
        category="repair",
        summary=(
            "Fix {provider} webhook signature checks that always fail in {stack} because the body is parsed "
            "before it is verified"
        ),
        task=(
            "An endpoint built on {stack} receiving {provider} webhooks rejects every event with 'signature "
            "mismatch' although the signing secret is right; verify signatures correctly and keep rejecting "
            "forged requests."
        ),
        steps=(
            (
                "Check what is being signed: {provider} signs the exact raw request bytes ({scheme}), sent "
                "in the {header} header; re-serialized JSON differs in spacing and key order"
            ),
            "Capture the raw body before any JSON parsing: {raw}",
            (
                "Compute the HMAC over those bytes with the secret read from the environment and compare "
                "with a constant-time function (hmac.compare_digest, crypto.timingSafeEqual, hmac.Equal, "
                "MessageDigest.isEqual)"
            ),
            (
                "Parse the JSON from the same bytes only after verification, and reject stale timestamps "
                "where the scheme includes one"
            ),
            "Test with a recorded payload and its header, plus a one-byte change that must fail",
        ),
        avoid=(
            (
                "Do not disable verification or log-and-continue on mismatch: anyone can then post fake "
                "events to the endpoint"
            ),
            (
                "Do not compare signatures with == on strings: a timing side channel leaks how many leading "
                "bytes matched"
            ),
        ),
        signals=("{header}", "/signature (mismatch|verification failed|invalid)/i", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Express",
                    ("raw"): (
                        "mount express.raw({ type: 'application/json' }) on the webhook route before "
                        "app.use(express.json()) so req.body is a Buffer"
                    ),
                    "sig": "express.raw",
                    "cmd": "npx jest tests/webhooks.test.ts",
                },
                {
                    "stack": "FastAPI",
                    ("raw"): (
                        "read payload = await request.body() in the route instead of declaring a Pydantic "
                        "body parameter"
                    ),
                    "sig": "request.body()",
                    "cmd": "pytest -q tests/test_webhooks.py",
                },
                {
                    "stack": "Django",
                    ("raw"): (
                        "use request.body in a csrf_exempt view rather than json.loads followed by json.dumps"
                    ),
                    "sig": "request.body",
                    "cmd": "python manage.py test webhooks",
                },
                {
                    "stack": "Spring Boot",
                    ("raw"): (
                        "declare @RequestBody byte[] payload (or String) instead of a mapped DTO, and map "
                        "with the ObjectMapper afterwards"
                    ),
                    "sig": "@requestbody",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Go net/http",
                    ("raw"): (
                        "read body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit)) once and "
                        "decode from those bytes"
                    ),
                    "sig": "io.readall",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "Rails",
                    ("raw"): (
                        "use request.raw_post in the controller, with skip_forgery_protection for the "
                        "webhook action only"
                    ),
                    "sig": "raw_post",
                    "cmd": "bundle exec rspec spec/requests/webhooks_spec.rb",
                },
            ),
            "provider": (
                {
                    "provider": "Stripe",
                    "header": "Stripe-Signature",
                    "scheme": "HMAC-SHA256 over the timestamp, a dot and the payload",
                },
                {
                    "provider": "GitHub",
                    "header": "X-Hub-Signature-256",
                    "scheme": "HMAC-SHA256 hex digest prefixed with sha256=",
                },
                {
                    "provider": "Shopify",
                    "header": "X-Shopify-Hmac-Sha256",
                    "scheme": "base64-encoded HMAC-SHA256",
                },
                {
                    "provider": "Slack",
                    "header": "X-Slack-Signature",
                    "scheme": "HMAC-SHA256 over v0, the request timestamp and the body joined by colons",
                },
                {
                    "provider": "Square",
                    "header": "x-square-hmacsha256-signature",
                    "scheme": "HMAC-SHA256 over the notification URL and the body",
                },
                {
                    "provider": "Typeform",
                    "header": "Typeform-Signature",
                    "scheme": "base64 HMAC-SHA256 prefixed with sha256=",
                },
                {
                    "provider": "Zoom",
                    "header": "x-zm-signature",
                    "scheme": "HMAC-SHA256 over v0, the timestamp and the body",
                },
            ),
        },
    ),
    Problem(
        slug="queue_job_redelivered_runs_twice",
        category="repair",
        summary="Stop jobs for {job} from running twice on {queue} when processing outlasts the {window}",
        task=(
            "Workers on {queue} sometimes run the job for {job} twice: the second run starts while the "
            "first is still going. Make each job take effect once even under redelivery."
        ),
        steps=(
            (
                "Correlate duplicate runs with job duration: they start roughly one {window} after the "
                "first attempt, which means the broker assumed the worker died"
            ),
            "Size the window to the slowest real job, or extend it while working: {extend}",
            (
                "Make the side effect idempotent anyway: record a job key in a processed_jobs table with a "
                "unique constraint inside the same transaction as the effect, or pass an idempotency key to "
                "the external API"
            ),
            (
                "Acknowledge only after the work commits, so a crash leads to a safe retry rather than a "
                "lost job"
            ),
            "Test by forcing a redelivery (a short window and a slow job) and asserting a single effect",
        ),
        avoid=(
            (
                "Do not switch to acknowledging before processing to avoid duplicates: a worker crash then "
                "loses the job silently"
            ),
            (
                "Do not set the window to many hours as the only fix: a crashed worker's jobs then wait "
                "that long before anyone retries them"
            ),
        ),
        signals=("{sig}", "/runs? twice|duplicate (execution|processing)|redeliver/i", "at-least-once"),
        validation=("{cmd}",),
        slots={
            "queue": (
                {
                    "queue": "Celery with a Redis broker",
                    "window": "visibility_timeout",
                    ("extend"): (
                        "set broker_transport_options={'visibility_timeout': ...} above the longest task, "
                        "keeping acks_late=True only for idempotent tasks"
                    ),
                    "sig": "visibility_timeout",
                    "cmd": "pytest -q tests/tasks",
                },
                {
                    "queue": "Amazon SQS",
                    "window": "visibility timeout",
                    ("extend"): (
                        "call ChangeMessageVisibility on a heartbeat while the job runs, and set the "
                        "queue's VisibilityTimeout from measured durations"
                    ),
                    "sig": "changemessagevisibility",
                    "cmd": "pytest -q tests/consumers",
                },
                {
                    "queue": "BullMQ",
                    "window": "lock duration",
                    ("extend"): (
                        "raise lockDuration for the worker and keep the event loop free so the lock renewal "
                        "runs; long CPU work stalls renewal and the job is marked stalled"
                    ),
                    "sig": "job stalled",
                    "cmd": "npx vitest run tests/workers",
                },
                {
                    "queue": "RabbitMQ",
                    "window": "consumer acknowledgement timeout",
                    ("extend"): (
                        "raise consumer_timeout for the queue or split the job, and use manual acks with a "
                        "small prefetch count"
                    ),
                    "sig": "delivery acknowledgement on channel",
                    "cmd": "go test ./internal/consumer/...",
                },
                {
                    "queue": "Google Cloud Pub/Sub",
                    "window": "ack deadline",
                    ("extend"): (
                        "let the client library extend leases (max_lease_duration / MaxExtension) and set "
                        "flow control so messages are not held unprocessed"
                    ),
                    "sig": "ack deadline",
                    "cmd": "pytest -q tests/subscribers",
                },
                {
                    "queue": "Azure Service Bus",
                    "window": "message lock duration",
                    ("extend"): (
                        "set MaxAutoLockRenewalDuration on the ServiceBusProcessor above the longest job, "
                        "and raise the queue's LockDuration within its 5-minute cap"
                    ),
                    "sig": "messagelocklost",
                    "cmd": "dotnet test",
                },
            ),
            "job": (
                "sending invoice emails",
                "charging saved cards",
                "generating PDF statements",
                "syncing orders to an ERP",
                "posting chat notifications",
                "transcoding uploaded videos",
                "exporting reports to object storage",
                "provisioning tenant databases",
            ),
        },
    ),
    Problem(
        slug="scheduled_job_runs_on_every_replica",
        category="repair",
        summary=(
            "Make the {job} execute once per schedule instead of once per replica when the {stack} service "
            "is scaled out"
        ),
        task=(
            "After scaling the {stack} service to four replicas, the {job} runs four times per schedule. "
            "Make it run exactly once per tick without losing runs when a replica dies."
        ),
        steps=(
            (
                "Confirm that each replica starts its own scheduler: {scheduler} is started in application "
                "startup code"
            ),
            "Choose one owner per run: {fix}",
            (
                "Alternatively move the job out of the web process into a single scheduled workload (a "
                "Kubernetes CronJob with concurrencyPolicy: Forbid)"
            ),
            (
                "Record each run with its scheduled time in a table with a unique constraint so a retried "
                "or late run is skipped"
            ),
            "Test with two app instances against the same database and assert one run per tick",
        ),
        avoid=(
            (
                "Do not pick the runner by hostname or by an environment variable on one replica: the job "
                "stops when that pod is rescheduled"
            ),
            (
                "Do not use a lock without an expiry: a replica that crashes while holding it stops the job "
                "for good"
            ),
        ),
        signals=(
            "{sig}",
            "/runs? (twice|on every (pod|replica|instance))/i",
            "distributed lock|leader election",
        ),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Python",
                    "scheduler": "APScheduler in every gunicorn worker",
                    ("fix"): (
                        "take a PostgreSQL advisory lock with SELECT pg_try_advisory_lock(key) at the start "
                        "of the run and skip when it returns false"
                    ),
                    "sig": "apscheduler",
                    "cmd": "pytest -q tests/scheduler",
                },
                {
                    "stack": "Node.js",
                    "scheduler": "node-cron",
                    ("fix"): (
                        "acquire a Redis lock with SET key value NX PX ttl (or the redlock package) before "
                        "the run and release it only if still owned"
                    ),
                    "sig": "node-cron",
                    "cmd": "npx vitest run tests/scheduler",
                },
                {
                    "stack": "Spring Boot",
                    "scheduler": "@Scheduled",
                    ("fix"): (
                        "add ShedLock with a JDBC lock provider and annotate the method with "
                        "@SchedulerLock(name = ..., lockAtMostFor = ...)"
                    ),
                    "sig": "@schedulerlock",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Go",
                    "scheduler": "robfig/cron",
                    ("fix"): (
                        "run the scheduler only in the leader chosen by client-go's leaderelection with a "
                        "Lease lock, or wrap each run in pg_try_advisory_lock"
                    ),
                    "sig": "leaderelection",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "ASP.NET Core",
                    "scheduler": "a BackgroundService with a PeriodicTimer",
                    ("fix"): (
                        "move the job to Quartz.NET with a clustered ADO.NET job store, or Hangfire "
                        "recurring jobs, which hand each trigger to one server"
                    ),
                    "sig": "backgroundservice",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Rails",
                    "scheduler": "a whenever crontab installed on every app server",
                    ("fix"): (
                        "install the crontab on one role only, or move the schedule to a GoodJob or Solid "
                        "Queue recurring task backed by the database"
                    ),
                    "sig": "whenever",
                    "cmd": "bundle exec rspec spec/jobs",
                },
            ),
            "job": (
                "nightly billing run",
                "hourly cache warm-up",
                "daily digest email",
                "expired-session cleanup",
                "monthly invoice generation",
                "five-minute price sync",
                "weekly data export",
                "reminder SMS dispatch",
            ),
        },
    ),
    Problem(
        slug="migration_history_branch_conflict",
        category="repair",
        summary=(
            "Resolve a migration history conflict in {tool} after two branches each added a migration, one "
            "{change}"
        ),
        task=(
            "After merging two feature branches, one {change}, {tool} refuses to migrate ({error}). Make "
            "the migration history linear again so every environment migrates cleanly."
        ),
        steps=(
            "Read the current state: {inspect}",
            "Order the two migrations: check that they touch different objects, then {resolve}",
            (
                "Apply the merged history on a fresh database and on a copy of production's schema at the "
                "pre-merge version"
            ),
            (
                "Add a CI step that fails when the history has more than one head or the models drift from "
                "the migrations"
            ),
        ),
        avoid=(
            (
                "Do not edit or delete a migration that has already run in a shared environment: databases "
                "that applied it diverge from the files"
            ),
            (
                "Do not regenerate all migrations from scratch to get rid of the conflict: existing "
                "databases can no longer be upgraded"
            ),
        ),
        signals=("{error}", "{sig}", "migration conflict|multiple heads"),
        validation=("{check}",),
        slots={
            "tool": (
                {
                    "tool": "Alembic",
                    "error": "Multiple head revisions are present",
                    ("inspect"): (
                        "alembic heads and alembic history --verbose show the two revisions that share a "
                        "down_revision"
                    ),
                    ("resolve"): (
                        "create a merge revision with alembic merge -m 'merge heads' and the two revision ids"
                    ),
                    "sig": "alembic merge",
                    "check": "alembic heads",
                },
                {
                    "tool": "Django",
                    "error": "Conflicting migrations detected; multiple leaf nodes in the migration graph",
                    "inspect": "python manage.py showmigrations shows two leaf migrations in the same app",
                    ("resolve"): (
                        "run python manage.py makemigrations --merge, or renumber the newer unapplied "
                        "migration to depend on the other"
                    ),
                    "sig": "makemigrations --merge",
                    "check": "python manage.py makemigrations --check --dry-run",
                },
                {
                    "tool": "Flyway",
                    "error": "Found more than one migration with version",
                    "inspect": "flyway info lists both scripts with the same version number",
                    ("resolve"): (
                        "renumber the unapplied script to the next free version, and enable outOfOrder only "
                        "for environments that already ran the later one"
                    ),
                    "sig": "flyway info",
                    "check": "flyway validate",
                },
                {
                    "tool": "Prisma Migrate",
                    ("error"): (
                        "Drift detected: Your database schema is not in sync with your migration history"
                    ),
                    ("inspect"): (
                        "npx prisma migrate status and npx prisma migrate diff between the migrations "
                        "folder and the database"
                    ),
                    ("resolve"): (
                        "rebase the branch's migration: remove the unapplied folder, merge schema.prisma, "
                        "and create it again with npx prisma migrate dev"
                    ),
                    "sig": "prisma migrate",
                    "check": "npx prisma migrate status",
                },
                {
                    "tool": "EF Core",
                    ("error"): (
                        "The model snapshot has merge conflicts after both migrations regenerated "
                        "ModelSnapshot.cs"
                    ),
                    ("inspect"): (
                        "dotnet ef migrations list and the conflict markers in the ModelSnapshot.cs file"
                    ),
                    ("resolve"): (
                        "take the target branch's snapshot, remove your unapplied migration with dotnet ef "
                        "migrations remove and add it again on top"
                    ),
                    "sig": "modelsnapshot",
                    "check": "dotnet ef migrations has-pending-model-changes",
                },
                {
                    "tool": "Rails",
                    "error": "merge conflict in db/schema.rb with two migration versions",
                    "inspect": "bin/rails db:migrate:status and the version line at the top of db/schema.rb",
                    ("resolve"): (
                        "resolve schema.rb by running the migrations on a clean database and dumping it "
                        "again with bin/rails db:schema:dump"
                    ),
                    "sig": "schema.rb",
                    "check": "bin/rails db:migrate:status",
                },
            ),
            "change": (
                "adding a coupons table",
                "renaming a customer column",
                "adding an index on orders.status",
                "splitting the address table",
                "adding a soft-delete flag",
                "creating an audit log table",
                "widening a varchar column",
                "adding a foreign key to invoices",
            ),
        },
    ),
    Problem(
        slug="orm_lazy_load_after_session_closed",
        category="repair",
        summary=(
            "Fix {error_short} when {where} touches a lazy-loaded relation after its session is gone ({orm})"
        ),
        task=(
            "In a service using {orm}, {where} fails with {error}. Load the data it needs while the session "
            "is open, without turning on global lazy-loading workarounds."
        ),
        steps=(
            (
                "Find the attribute access that triggers the load from the stack trace, and where the "
                "session or context was closed before it"
            ),
            "Load the relation explicitly in the query that fetches the objects: {eager}",
            (
                "Where only a few fields are needed, return a DTO or dict built inside the session instead "
                "of passing entities out"
            ),
            (
                "Add a test that runs the failing path with the session closed (or strict loading on) so an "
                "accidental lazy load fails loudly"
            ),
        ),
        avoid=(
            (
                "Do not work around it with {antipattern}: it hides the problem and trades it for hidden "
                "queries, held connections or over-fetching"
            ),
            (
                "Do not keep one long-lived session for the whole process to avoid closing it: stale "
                "objects and connection exhaustion follow"
            ),
        ),
        signals=("{error}", "{sig}", "lazy load|lazy loading"),
        validation=("{cmd}",),
        slots={
            "orm": (
                {
                    "orm": "SQLAlchemy",
                    ("error"): (
                        "DetachedInstanceError: Parent instance is not bound to a Session; lazy load "
                        "operation cannot proceed"
                    ),
                    "error_short": "DetachedInstanceError",
                    ("eager"): (
                        "options(selectinload(Order.lines)) on the select, and expire_on_commit=False on "
                        "the sessionmaker if objects are read after commit"
                    ),
                    "antipattern": "a global session that is never closed",
                    "sig": "selectinload",
                    "cmd": "pytest -q",
                },
                {
                    "orm": "SQLAlchemy asyncio",
                    ("error"): (
                        "MissingGreenlet: greenlet_spawn has not been called; can't call await_only() here"
                    ),
                    "error_short": "MissingGreenlet",
                    ("eager"): (
                        "options(selectinload(...)) in the async query, or await obj.awaitable_attrs.lines "
                        "with the AsyncAttrs mixin"
                    ),
                    "antipattern": "lazy='selectin' on every relationship",
                    "sig": "awaitable_attrs",
                    "cmd": "pytest -q",
                },
                {
                    "orm": "Hibernate with Spring Data JPA",
                    "error": "LazyInitializationException: could not initialize proxy - no Session",
                    "error_short": "LazyInitializationException",
                    ("eager"): (
                        "a JOIN FETCH query or @EntityGraph(attributePaths = ...) on the repository method"
                    ),
                    "antipattern": "spring.jpa.open-in-view or hibernate.enable_lazy_load_no_trans",
                    "sig": "@entitygraph",
                    "cmd": "./gradlew test",
                },
                {
                    "orm": "EF Core with lazy-loading proxies",
                    "error": "ObjectDisposedException: Cannot access a disposed context instance",
                    "error_short": "ObjectDisposedException",
                    "eager": "Include(o => o.Lines) on the query, or a Select projection into a DTO",
                    "antipattern": "a singleton DbContext",
                    "sig": ".include(",
                    "cmd": "dotnet test",
                },
                {
                    "orm": "the Django ORM in async views",
                    "error": "SynchronousOnlyOperation: You cannot call this from an async context",
                    "error_short": "SynchronousOnlyOperation",
                    ("eager"): (
                        "select_related or prefetch_related on the queryset, iterated with async for, or a "
                        "sync_to_async wrapper around the whole read"
                    ),
                    "antipattern": "the DJANGO_ALLOW_ASYNC_UNSAFE setting",
                    "sig": "sync_to_async",
                    "cmd": "python manage.py test",
                },
                {
                    "orm": "ActiveRecord with strict_loading",
                    "error": "ActiveRecord::StrictLoadingViolationError",
                    "error_short": "StrictLoadingViolationError",
                    "eager": "includes(:line_items) or preload on the relation that feeds the code path",
                    "antipattern": "strict_loading turned off on the model",
                    "sig": "strict_loading",
                    "cmd": "bundle exec rspec",
                },
            ),
            "where": (
                "a background job serializing orders",
                "a JSON response rendered after the transaction closed",
                "a cached entity reused in a later request",
                "an email template listing customer addresses",
                "a CSV export streamed after the query",
                "a websocket push handler",
                "a scheduled report task",
            ),
        },
    ),
    Problem(
        slug="cancellation_not_propagated_on_disconnect",
        category="repair",
        summary=(
            "Propagate cancellation in {lang} so {work} stops when the client disconnects or the deadline "
            "passes"
        ),
        task=(
            "When users close the page, the {lang} service keeps running {work} to completion and load "
            "piles up during incidents. Stop the work as soon as the request is cancelled."
        ),
        steps=(
            (
                "Reproduce by cancelling a request mid-flight and watching the downstream calls in logs or "
                "traces continue"
            ),
            "Take the request's cancellation signal at the edge: {source}",
            "Pass it through every layer to I/O: {thread}",
            "Make catch blocks let cancellation through: {rethrow}",
            (
                "Test that a cancelled request stops the downstream call within a short bound and releases "
                "its connection"
            ),
        ),
        avoid=(
            (
                "Do not create a fresh background context or token deep in the call chain for convenience: "
                "it detaches the work from the request's lifetime"
            ),
            (
                "Do not treat cancellation as an error to retry: retrying cancelled work recreates the load "
                "the cancellation was shedding"
            ),
        ),
        signals=("{sig}", "{sig2}", "client disconnect|request cancelled"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Go",
                    ("source"): (
                        "ctx := r.Context() in the handler, with context.WithTimeout for the overall deadline"
                    ),
                    ("thread"): (
                        "db.QueryContext(ctx, ...), http.NewRequestWithContext(ctx, ...) and select on "
                        "ctx.Done() in loops"
                    ),
                    ("rethrow"): (
                        "return ctx.Err() unchanged and check errors.Is(err, context.Canceled) only to skip "
                        "error logging"
                    ),
                    "sig": "context canceled",
                    "sig2": "r.context()",
                    "cmd": "go test -race ./...",
                },
                {
                    "lang": "Python asyncio",
                    ("source"): (
                        "the task running the handler is cancelled by the server on disconnect; check await "
                        "request.is_disconnected() in long streams"
                    ),
                    ("thread"): (
                        "await the I/O directly (no run_in_executor for cancellable work), and use "
                        "asyncio.timeout() around downstream calls"
                    ),
                    ("rethrow"): (
                        "never catch asyncio.CancelledError in a bare except or except BaseException "
                        "without re-raising it"
                    ),
                    "sig": "cancellederror",
                    "sig2": "is_disconnected",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "Node.js",
                    ("source"): (
                        "an AbortController aborted on req.on('close') when the response is not finished"
                    ),
                    ("thread"): (
                        "fetch(url, { signal }), the database driver's cancellation API, and "
                        "signal.throwIfAborted() between steps"
                    ),
                    ("rethrow"): (
                        "rethrow errors whose name is AbortError instead of mapping them to 500 responses"
                    ),
                    "sig": "aborterror",
                    "sig2": "abortsignal",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "C#",
                    ("source"): (
                        "HttpContext.RequestAborted, bound automatically to a CancellationToken parameter "
                        "on the action"
                    ),
                    ("thread"): (
                        "ToListAsync(cancellationToken), HttpClient.SendAsync(request, cancellationToken) "
                        "and token.ThrowIfCancellationRequested() in loops"
                    ),
                    ("rethrow"): (
                        "catch OperationCanceledException only at the top, never in a general catch "
                        "(Exception) that continues"
                    ),
                    "sig": "operationcanceledexception",
                    "sig2": "requestaborted",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "Kotlin",
                    ("source"): (
                        "the coroutine scope of the Ktor or Spring WebFlux handler, which is cancelled when "
                        "the client goes away"
                    ),
                    ("thread"): (
                        "suspend functions all the way down, with ensureActive() in CPU loops and "
                        "withTimeout around downstream calls"
                    ),
                    ("rethrow"): (
                        "rethrow CancellationException in every catch (e: Exception) block, or use "
                        "runCatching carefully"
                    ),
                    "sig": "cancellationexception",
                    "sig2": "ensureactive",
                    "cmd": "./gradlew test",
                },
                {
                    "lang": "Rust",
                    "source": "the handler future, which axum or hyper drops when the connection closes",
                    ("thread"): (
                        "keep work inside the request future; for spawned tasks pass a tokio_util "
                        "CancellationToken and select! on token.cancelled()"
                    ),
                    ("rethrow"): (
                        "abort or cancel the JoinHandle of spawned tasks when the parent is dropped, using "
                        "a drop guard"
                    ),
                    "sig": "cancellationtoken",
                    "sig2": "tokio::select!",
                    "cmd": "cargo test",
                },
            ),
            "work": (
                "a slow search query",
                "a report export calling three downstream APIs",
                "a fan-out to pricing services",
                "an LLM completion stream",
                "a large file conversion",
                "a dashboard aggregation query",
                "a geocoding batch",
                "a recommendation scoring call",
            ),
        },
    ),
    Problem(
        slug="blocking_call_stalls_event_loop",
        category="repair",
        summary=(
            "Move {call} off the event loop in a {stack} service so one slow request stops stalling all the "
            "others"
        ),
        task=(
            "Latency of every endpoint in a {stack} service spikes whenever one request performs {call}; "
            "find the blocking call and keep the event loop responsive."
        ),
        steps=(
            "Prove the loop is blocked: {detect}",
            (
                "Locate {call} in the handler and confirm it is synchronous (it does not yield while "
                "waiting or computing)"
            ),
            "Move it off the loop: {fix}",
            (
                "Load-test with concurrent requests and check that p99 latency of the unrelated endpoints "
                "stays flat while the heavy one runs"
            ),
        ),
        avoid=(
            (
                "Do not wrap the blocking call in an async function and await it: it is still executed on "
                "the loop thread"
            ),
            "Do not simply add more replicas: every replica stalls the same way and the tail latency stays",
        ),
        signals=("{sig}", "event loop blocked|blocking call", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "FastAPI",
                    ("detect"): (
                        "run with PYTHONASYNCIODEBUG=1 and look for 'Executing <Task ...> took 1.2 seconds' "
                        "warnings from slow callbacks"
                    ),
                    ("fix"): (
                        "use an async client (httpx.AsyncClient, asyncpg) or await asyncio.to_thread(fn); a "
                        "plain def endpoint also runs in the thread pool"
                    ),
                    "sig": "pythonasynciodebug",
                    "sig2": "asyncio.to_thread",
                    "cmd": "pytest -q",
                },
                {
                    "stack": "Node.js Express",
                    ("detect"): (
                        "record perf_hooks.monitorEventLoopDelay() percentiles, or run clinic doctor, while "
                        "the heavy request is in flight"
                    ),
                    ("fix"): (
                        "use the async API (fs.promises, crypto.pbkdf2 with a callback) or move CPU work to "
                        "a worker_threads pool such as piscina"
                    ),
                    "sig": "monitoreventloopdelay",
                    "sig2": "worker_threads",
                    "cmd": "npx vitest run",
                },
                {
                    "stack": "Rust tokio",
                    ("detect"): (
                        "run tokio-console and look for tasks with long busy times, or enable the tokio "
                        "metrics for worker poll durations"
                    ),
                    ("fix"): (
                        "use tokio::task::spawn_blocking for the synchronous call, or the async equivalent "
                        "in tokio::fs and an async client"
                    ),
                    "sig": "spawn_blocking",
                    "sig2": "tokio-console",
                    "cmd": "cargo test",
                },
                {
                    "stack": "Spring WebFlux",
                    ("detect"): (
                        "install BlockHound in tests and read its 'Blocking call!' report with the "
                        "offending stack"
                    ),
                    ("fix"): (
                        "move the call onto Schedulers.boundedElastic() with "
                        "Mono.fromCallable(...).subscribeOn(...), or replace JDBC with R2DBC"
                    ),
                    "sig": "blockhound",
                    "sig2": "boundedelastic",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Kotlin Ktor",
                    ("detect"): (
                        "enable the kotlinx-coroutines debug agent and watch for Dispatchers.Default "
                        "threads stuck in blocking frames"
                    ),
                    ("fix"): (
                        "wrap the blocking call in withContext(Dispatchers.IO) and keep CPU-heavy work on a "
                        "bounded dispatcher"
                    ),
                    "sig": "dispatchers.io",
                    "sig2": "withcontext",
                    "cmd": "./gradlew test",
                },
            ),
            "call": (
                "password hashing on login",
                "PDF rendering",
                "a synchronous object-storage upload",
                "image thumbnail resizing",
                "a query through a blocking database driver",
                "reading a large file per request",
                "JSON parsing of a 20 MB payload",
                "gzip compression of large responses",
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="collection_modified_during_iteration",
        category="repair",
        summary="Fix {lang} code that removes {items} while iterating over them, which {failure}",
        task=(
            "A {lang} cleanup routine that drops {items} matching a condition {failure}; rewrite it so "
            "every matching element is removed and nothing else."
        ),
        steps=(
            "Reproduce with a small collection where two adjacent elements match: {symptom}",
            "Separate deciding from mutating: {fix}",
            (
                "If other threads modify the collection too, protect it with one lock or switch to a "
                "concurrent collection, instead of relying on iteration order"
            ),
            "Add tests with no matches, all matches and adjacent matches",
        ),
        avoid=(
            (
                "Do not catch the error and continue the loop: the remaining elements are skipped and the "
                "collection ends half cleaned"
            ),
            (
                "Do not iterate by index while removing by index: every removal shifts the following "
                "elements and one is skipped"
            ),
        ),
        signals=("{error}", "{sig}", "modified during iteration|remove while iterating"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    "failure": "raises RuntimeError: dictionary changed size during iteration",
                    "symptom": "deleting keys inside for key in d raises as soon as the size changes",
                    ("fix"): (
                        "iterate over list(d.items()) or build a new dict with a comprehension and assign "
                        "it back"
                    ),
                    "error": "dictionary changed size during iteration",
                    "sig": "runtimeerror",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "Java",
                    "failure": "throws ConcurrentModificationException",
                    "symptom": "list.remove inside a for-each loop throws on the next call to the iterator",
                    "fix": "use collection.removeIf(predicate), or Iterator.remove() on an explicit iterator",
                    "error": "java.util.ConcurrentModificationException",
                    "sig": "removeif",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "C#",
                    "failure": "throws InvalidOperationException",
                    ("symptom"): (
                        "list.Remove inside foreach throws 'Collection was modified; enumeration operation "
                        "may not execute'"
                    ),
                    ("fix"): (
                        "use list.RemoveAll(predicate), or iterate over a ToList() snapshot for dictionaries"
                    ),
                    "error": "Collection was modified; enumeration operation may not execute",
                    "sig": "removeall",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "JavaScript",
                    "failure": "silently skips elements",
                    ("symptom"): (
                        "array.splice inside forEach shifts the next element into the current index, so it "
                        "is never visited"
                    ),
                    ("fix"): (
                        "replace the loop with array = array.filter(keep), or iterate backwards when the "
                        "array must be mutated in place"
                    ),
                    "error": "splice inside forEach",
                    "sig": "array.prototype.filter",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "Ruby",
                    "failure": "raises RuntimeError: can't add a new key into hash during iteration",
                    ("symptom"): (
                        "hash changes inside each raise, and array.delete inside each skips the element "
                        "after a deleted one"
                    ),
                    "fix": "use hash.reject! or array.delete_if, or build a new collection with select",
                    "error": "can't add a new key into hash during iteration",
                    "sig": "delete_if",
                    "cmd": "bundle exec rspec",
                },
                {
                    "lang": "Kotlin",
                    "failure": "throws ConcurrentModificationException",
                    "symptom": "mutableList.remove inside for (x in list) throws on the next iteration",
                    "fix": "use removeAll { predicate } or filter into a new list",
                    "error": "ConcurrentModificationException",
                    "sig": "removeall",
                    "cmd": "./gradlew test",
                },
            ),
            "items": (
                "expired sessions",
                "a cart's out-of-stock line items",
                "unsubscribed event-bus listeners",
                "completed retry jobs",
                "cache entries past their TTL",
                "disconnected players in a lobby",
                "closed file watchers",
                "empty rate-limit buckets",
            ),
        },
    ),
    Problem(
        slug="equality_and_hash_contract_broken",
        category="repair",
        summary=(
            "Fix {lang} lookups of {objects} in hash sets and maps that miss equal values because equality "
            "and hashing disagree"
        ),
        task=(
            "In a {lang} service, {objects} put into a set or used as map keys are not found again with an "
            "equal value, so deduplication fails; make equal values hash and compare consistently."
        ),
        steps=(
            (
                "Reproduce with two separately built equal values: contains or lookup returns false even "
                "though equality says they are equal"
            ),
            "Find the broken contract: {cause}",
            "Fix it at the type: {fix}",
            (
                "Keep key fields immutable after insertion; if a key must change, remove it, change it and "
                "insert it again"
            ),
            "Add a contract test: {test}",
        ),
        avoid=(
            (
                "Do not work around it by scanning the collection linearly with equals: lookups become O(n) "
                "and the type stays broken elsewhere"
            ),
            (
                "Do not hash a field that equality ignores (or the reverse): equal values then land in "
                "different buckets"
            ),
        ),
        signals=("{sig}", "{sig2}", "hash set lookup fails|equal keys not found"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Java",
                    ("cause"): (
                        "equals is overridden without hashCode, so equal objects get identity hash codes"
                    ),
                    ("fix"): (
                        "turn the class into a record, or generate equals and hashCode together with "
                        "Objects.hash over the same fields"
                    ),
                    "test": "EqualsVerifier.forClass(Type.class).verify()",
                    "sig": "hashcode",
                    "sig2": "equalsverifier",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Kotlin",
                    ("cause"): (
                        "a data class with var properties is mutated after being added to a HashSet, so its "
                        "bucket no longer matches"
                    ),
                    "fix": "make key properties val and copy() instead of mutating",
                    "test": "insert, mutate a copy, and assert the original is still found",
                    "sig": "data class",
                    "sig2": "hashset",
                    "cmd": "./gradlew test",
                },
                {
                    "lang": "Python",
                    ("cause"): (
                        "defining __eq__ sets __hash__ to None (TypeError: unhashable type), and a "
                        "hand-written __hash__ covers different fields than __eq__"
                    ),
                    ("fix"): (
                        "use @dataclass(frozen=True) so __eq__ and __hash__ are generated from the same "
                        "fields"
                    ),
                    "test": "a Hypothesis property that a == b implies hash(a) == hash(b)",
                    "sig": "unhashable type",
                    "sig2": "__hash__",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "C#",
                    ("cause"): (
                        "Equals is overridden without GetHashCode (warning CS0659), so Dictionary and "
                        "HashSet use reference hashes"
                    ),
                    ("fix"): (
                        "use a record or record struct, or implement IEquatable<T> with HashCode.Combine "
                        "over the same fields"
                    ),
                    "test": "an xUnit theory asserting equal pairs have equal hash codes",
                    "sig": "cs0659",
                    "sig2": "gethashcode",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "Ruby",
                    "cause": "== is overridden but eql? and hash are not, which is what Hash and Set use",
                    ("fix"): (
                        "define eql? and hash together from the same attributes (or use Data.define in Ruby "
                        "3.2)"
                    ),
                    "test": "a spec asserting Set[a].include?(b) for equal a and b",
                    "sig": "eql?",
                    "sig2": "data.define",
                    "cmd": "bundle exec rspec",
                },
                {
                    "lang": "Go",
                    ("cause"): (
                        "pointers are used as map keys, so equal values at different addresses are "
                        "different keys"
                    ),
                    ("fix"): (
                        "key the map by a comparable value struct or a normalized string built from the "
                        "identifying fields"
                    ),
                    ("test"): (
                        "a table test building two equal values separately and looking one up with the other"
                    ),
                    "sig": "map key",
                    "sig2": "comparable",
                    "cmd": "go test ./...",
                },
            ),
            "objects": (
                "money amounts",
                "geographic coordinates",
                "SKU and warehouse pairs",
                "email addresses compared case-insensitively",
                "date ranges",
                "composite order line keys",
                "semantic version numbers",
                "graph edges",
            ),
        },
    ),
    Problem(
        slug="locale_dependent_number_formatting",
        category="repair",
        summary=(
            "Make {lang} code write {output} the same on every server by formatting and parsing with an "
            "invariant locale"
        ),
        task=(
            "{output_cap} from a {lang} app are wrong on servers and devices with a German or Turkish "
            "locale (decimal commas, changed letters); make machine-readable output independent of the host "
            "locale."
        ),
        steps=(
            "Reproduce by running the code under a de-DE and a tr-TR locale: {repro}",
            "List every locale-sensitive call on machine-readable paths: {calls}",
            "Pass the invariant locale explicitly: {fix}",
            (
                "Keep locale-aware formatting only for text shown to people, and enable the analyzer or "
                "lint that flags implicit locale use"
            ),
        ),
        avoid=(
            (
                "Do not set the process default locale to en-US at startup as the fix: user-facing "
                "formatting breaks and any library that changes it brings the bug back"
            ),
            (
                "Do not replace commas with dots after formatting: thousands separators and other locales "
                "produce different strings"
            ),
        ),
        signals=("{sig}", "{sig2}", "/decimal comma|locale|invariantculture/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "C#",
                    ("repro"): (
                        'set CultureInfo.CurrentCulture = new CultureInfo("de-DE") in a test and watch '
                        "double.Parse throw FormatException"
                    ),
                    ("calls"): (
                        "ToString(), string.Format, interpolated strings and double.Parse without an "
                        "IFormatProvider"
                    ),
                    ("fix"): (
                        "CultureInfo.InvariantCulture in ToString and Parse, or FormattableString.Invariant "
                        "for interpolations"
                    ),
                    "sig": "invariantculture",
                    "sig2": "ca1305",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "Java",
                    ("repro"): (
                        'run with -Duser.language=tr and see "TITLE".toLowerCase() return a dotless i, or '
                        'String.format("%.2f") write 3,14 under de'
                    ),
                    ("calls"): (
                        "String.format, toLowerCase, toUpperCase and NumberFormat.getInstance() without a "
                        "Locale"
                    ),
                    "fix": "Locale.ROOT for case changes and String.format(Locale.ROOT, ...) for numbers",
                    "sig": "locale.root",
                    "sig2": "string.format",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Kotlin Android",
                    ("repro"): (
                        "switch the emulator to German and to Arabic, where String.format also swaps in "
                        "Arabic-Indic digits"
                    ),
                    ("calls"): (
                        'String.format, "%.2f".format(x), lowercase() overloads that take the default locale'
                    ),
                    "fix": "String.format(Locale.ROOT, ...) for payloads and lowercase(Locale.ROOT) for keys",
                    "sig": "locale.root",
                    "sig2": "defaultlocale",
                    "cmd": "./gradlew testDebugUnitTest",
                },
                {
                    "lang": "JavaScript",
                    ("repro"): (
                        "run the formatter with Intl defaults under LANG=de_DE.UTF-8 in Node and see "
                        "toLocaleString() return 3,14"
                    ),
                    ("calls"): (
                        "toLocaleString(), Intl.NumberFormat() with no locale, and parseFloat on "
                        "user-formatted strings"
                    ),
                    ("fix"): (
                        "String(x) or x.toFixed(2) for payloads, and new Intl.NumberFormat('en-US', ...) "
                        "only where grouping is required"
                    ),
                    "sig": "tolocalestring",
                    "sig2": "intl.numberformat",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "PHP 7.4",
                    ("repro"): (
                        "call setlocale(LC_ALL, 'de_DE.UTF-8') and see (string)$price become 3,14 (PHP 8 "
                        "made float to string locale-independent)"
                    ),
                    "calls": "string casts of floats, sprintf('%f') and strftime",
                    ("fix"): (
                        "number_format($x, 2, '.', '') or sprintf('%F'), and DateTimeImmutable::format "
                        "instead of strftime"
                    ),
                    "sig": "setlocale",
                    "sig2": "sprintf",
                    "cmd": "vendor/bin/phpunit",
                },
            ),
            "output": (
                {"output": "decimal prices in a CSV export", "output_cap": "Decimal prices in a CSV export"},
                {
                    "output": "coordinates in map-tile query strings",
                    "output_cap": "Coordinates in map-tile query strings",
                },
                {
                    "output": "numeric literals in generated SQL",
                    "output_cap": "Numeric literals in generated SQL",
                },
                {
                    "output": "percentages read from config files",
                    "output_cap": "Percentages read from config files",
                },
                {
                    "output": "amounts sent to a payment gateway",
                    "output_cap": "Amounts sent to a payment gateway",
                },
                {
                    "output": "sensor readings in a line-protocol payload",
                    "output_cap": "Sensor readings in a line-protocol payload",
                },
                {"output": "lower-cased lookup keys", "output_cap": "Lower-cased lookup keys"},
                {
                    "output": "weights in shipping label requests",
                    "output_cap": "Weights in shipping label requests",
                },
            ),
        },
    ),
    Problem(
        slug="check_then_insert_unique_violation_race",
        category="repair",
        summary=(
            "Replace check-then-insert for {entity} with an atomic upsert in {db} with {orm}, so concurrent "
            "requests stop failing on the unique key"
        ),
        task=(
            "Under concurrent traffic, creating {entity} with {orm} on {db} intermittently fails with "
            "{error}: two requests both see no row and both insert. Make the write atomic."
        ),
        steps=(
            (
                "Reproduce with two concurrent requests for the same key (a barrier in a test, or a load "
                "tool) and capture the unique violation"
            ),
            (
                "Make sure the uniqueness rule is a real unique constraint or index on the key columns, not "
                "only application logic"
            ),
            "Replace the read-then-insert with one statement: {upsert}",
            (
                "Where an upsert cannot express the logic, catch the unique violation and re-read the "
                "winning row in a fresh transaction"
            ),
            "Re-run the concurrent test many times and assert exactly one row and no errors",
        ),
        avoid=(
            "Do not add a mutex in application memory: other instances and workers still race",
            (
                "Do not serialize the whole table with a table lock or SERIALIZABLE for this: throughput "
                "drops and the unique constraint already gives the guarantee"
            ),
        ),
        signals=("{error}", "{sig}", "race condition|check-then-insert"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "db": "PostgreSQL",
                    "orm": "SQLAlchemy",
                    "error": "duplicate key value violates unique constraint",
                    ("upsert"): (
                        "insert(Table).values(...).on_conflict_do_update(index_elements=[...], set_={...}) "
                        "from sqlalchemy.dialects.postgresql"
                    ),
                    "sig": "on_conflict_do_update",
                    "cmd": "pytest -q tests/test_concurrency.py",
                },
                {
                    "db": "MySQL",
                    "orm": "the Django ORM",
                    "error": 'IntegrityError (1062, "Duplicate entry")',
                    ("upsert"): (
                        "bulk_create([...], update_conflicts=True, unique_fields=[...], "
                        "update_fields=[...]), which emits INSERT ... ON DUPLICATE KEY UPDATE"
                    ),
                    "sig": "update_conflicts",
                    "cmd": "python manage.py test",
                },
                {
                    "db": "PostgreSQL",
                    "orm": "ActiveRecord",
                    "error": "ActiveRecord::RecordNotUnique",
                    ("upsert"): (
                        "Model.upsert(attrs, unique_by: :index_name), or create_or_find_by when a plain "
                        "create-if-missing is enough"
                    ),
                    "sig": "create_or_find_by",
                    "cmd": "bundle exec rspec",
                },
                {
                    "db": "SQL Server",
                    "orm": "EF Core",
                    "error": "Cannot insert duplicate key row in object",
                    ("upsert"): (
                        "a MERGE ... WITH (HOLDLOCK) statement through ExecuteSqlInterpolated, or catching "
                        "DbUpdateException with SqlException number 2601 or 2627"
                    ),
                    "sig": "dbupdateexception",
                    "cmd": "dotnet test",
                },
                {
                    "db": "PostgreSQL",
                    "orm": "Prisma",
                    "error": "P2002 Unique constraint failed on the fields",
                    ("upsert"): (
                        "prisma.model.upsert({ where: { uniqueKey }, create, update }), which Prisma runs "
                        "as a native INSERT ... ON CONFLICT when the where clause has one unique field"
                    ),
                    "sig": "p2002",
                    "cmd": "npx vitest run",
                },
                {
                    "db": "SQLite",
                    "orm": "Go database/sql",
                    "error": "UNIQUE constraint failed",
                    "upsert": "INSERT INTO ... VALUES (...) ON CONFLICT (key) DO UPDATE SET ... RETURNING id",
                    "sig": "on conflict",
                    "cmd": "go test -race ./...",
                },
            ),
            "entity": (
                "daily usage counters per customer",
                "user profiles on first login",
                "tags while saving posts",
                "device registrations",
                "carts per session",
                "stock rows per SKU and warehouse",
                "linked login accounts",
                "product rows in a repeatable import",
            ),
        },
    ),
    Problem(
        slug="app_behind_proxy_wrong_scheme_and_ip",
        category="repair",
        summary=(
            "Make an app built on {stack} honour forwarded headers behind {proxy}, so redirects use https, "
            "Secure cookies stick and client IPs are real"
        ),
        task=(
            "Deployed behind {proxy}, an app built on {stack} builds http:// redirect URLs, loops on its "
            "HTTPS redirect, drops its Secure session cookie and logs the proxy's IP for every client. Fix "
            "the app's view of the original request."
        ),
        steps=(
            (
                "Log the headers the app receives (X-Forwarded-Proto, X-Forwarded-For, X-Forwarded-Host or "
                "Forwarded) to see what {proxy} sends"
            ),
            "Tell the framework to trust them from the proxy only: {fix}",
            (
                "Limit trust to the proxy's addresses or hop count so clients cannot spoof their IP or "
                "scheme by sending the headers themselves"
            ),
            (
                "Check the OAuth callback URL, absolute links in emails and the session cookie flags in a "
                "deployed environment"
            ),
        ),
        avoid=(
            (
                "Do not hard-code https:// in URL builders: local and internal traffic breaks and the "
                "client IP stays wrong"
            ),
            (
                "Do not trust forwarded headers from every source: anyone can then fake their IP address "
                "for rate limits and audit logs"
            ),
        ),
        signals=("X-Forwarded-Proto", "{sig}", "/redirect loop|too many redirects/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Express",
                    ("fix"): (
                        "app.set('trust proxy', 1) (the number of proxy hops), after which req.secure, "
                        "req.protocol and req.ip use the forwarded values"
                    ),
                    "sig": "trust proxy",
                    "cmd": "npx jest",
                },
                {
                    "stack": "Django",
                    ("fix"): (
                        "SECURE_PROXY_SSL_HEADER = ('HTTP_X_FORWARDED_PROTO', 'https'), "
                        "USE_X_FORWARDED_HOST where needed and CSRF_TRUSTED_ORIGINS with the https origin"
                    ),
                    "sig": "secure_proxy_ssl_header",
                    "cmd": "python manage.py check --deploy",
                },
                {
                    "stack": "Flask",
                    ("fix"): (
                        "wrap the app with werkzeug.middleware.proxy_fix.ProxyFix(app.wsgi_app, x_for=1, "
                        "x_proto=1, x_host=1)"
                    ),
                    "sig": "proxyfix",
                    "cmd": "pytest -q",
                },
                {
                    "stack": "Spring Boot",
                    ("fix"): (
                        "server.forward-headers-strategy=framework (or native for Tomcat's RemoteIpValve) "
                        "with the proxy's internal addresses trusted"
                    ),
                    "sig": "forward-headers-strategy",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "ASP.NET Core",
                    ("fix"): (
                        "app.UseForwardedHeaders() with ForwardedHeaders.XForwardedFor and XForwardedProto, "
                        "and KnownProxies or KnownNetworks set to the proxy"
                    ),
                    "sig": "useforwardedheaders",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Rails",
                    ("fix"): (
                        "config.assume_ssl = true with config.force_ssl, and "
                        "config.action_dispatch.trusted_proxies for the proxy's network"
                    ),
                    "sig": "assume_ssl",
                    "cmd": "bundle exec rspec",
                },
            ),
            "proxy": (
                "an AWS Application Load Balancer",
                "Cloudflare",
                "an ingress-nginx controller",
                "Traefik",
                "Heroku's router",
                "Google Cloud Run's front end",
                "Azure Front Door",
                "Caddy",
            ),
        },
    ),
    Problem(
        slug="csrf_token_rejected_on_valid_requests",
        category="repair",
        summary=(
            "Fix {stack} rejecting legitimate requests from {client} with a CSRF error, without turning "
            "CSRF protection off"
        ),
        task=(
            "Since a recent change, requests from {client} to an app built on {stack} fail with '{error}' "
            "even for logged-in users; make real requests pass while forged cross-site requests stay "
            "blocked."
        ),
        steps=(
            (
                "Compare a failing request with a working one: is the token sent at all, does it match the "
                "session, and does the Origin or Referer check pass"
            ),
            "Send the token the way the framework expects: {send}",
            "Check the origin and cookie settings: {origin}",
            "Add a test that a request without the token is rejected and one with it succeeds",
        ),
        avoid=(
            (
                "Do not exempt the endpoints from CSRF or disable the middleware: every "
                "cookie-authenticated action becomes forgeable from any site"
            ),
            (
                "Do not relax the session cookie to SameSite=None to make the request go through: it widens "
                "exactly the cross-site exposure CSRF protects against"
            ),
        ),
        signals=("{error}", "{sig}", "csrf"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Django",
                    "error": "403 CSRF verification failed. Request aborted.",
                    ("send"): (
                        "read the csrftoken cookie and send it in the X-CSRFToken header, and use "
                        "ensure_csrf_cookie on the view that serves the page"
                    ),
                    ("origin"): (
                        "Django 4+ checks Origin against CSRF_TRUSTED_ORIGINS, which must include the "
                        "scheme (https://app.example.com)"
                    ),
                    "sig": "csrf_trusted_origins",
                    "cmd": "python manage.py test",
                },
                {
                    "stack": "Rails",
                    "error": "ActionController::InvalidAuthenticityToken",
                    ("send"): (
                        "render csrf_meta_tags and send the value in an X-CSRF-Token header from JavaScript"
                    ),
                    ("origin"): (
                        "forgery protection also compares the Origin header to the base URL, so check the "
                        "proxy sets X-Forwarded-Proto"
                    ),
                    "sig": "csrf_meta_tags",
                    "cmd": "bundle exec rspec",
                },
                {
                    "stack": "Spring Security 6",
                    "error": "403 Forbidden: Invalid CSRF Token",
                    ("send"): (
                        "use CookieCsrfTokenRepository.withHttpOnlyFalse() and send X-XSRF-TOKEN; with the "
                        "default XorCsrfTokenRequestAttributeHandler an SPA needs a handler that accepts "
                        "the raw cookie value"
                    ),
                    ("origin"): (
                        "the token is loaded lazily in Spring Security 6, so make sure a request has "
                        "rendered it before the first POST"
                    ),
                    "sig": "cookiecsrftokenrepository",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Laravel",
                    "error": "419 Page Expired",
                    ("send"): (
                        "include @csrf in forms, and let axios send the XSRF-TOKEN cookie back as the "
                        "X-XSRF-TOKEN header"
                    ),
                    ("origin"): (
                        "SESSION_DOMAIN and SANCTUM_STATEFUL_DOMAINS must cover the SPA's domain so the "
                        "session cookie is sent"
                    ),
                    "sig": "x-xsrf-token",
                    "cmd": "php artisan test",
                },
                {
                    "stack": "ASP.NET Core",
                    "error": "The antiforgery token could not be decrypted",
                    ("send"): (
                        "send the token from IAntiforgery.GetAndStoreTokens in the RequestVerificationToken "
                        "header"
                    ),
                    ("origin"): (
                        "with several instances, persist Data Protection keys to shared storage "
                        "(PersistKeysToDbContext or blob storage) so every instance can decrypt tokens"
                    ),
                    "sig": "antiforgery",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Express with csrf-csrf",
                    "error": "ForbiddenError: invalid csrf token",
                    ("send"): (
                        "expose the token from generateToken(req, res) and send it in the x-csrf-token header"
                    ),
                    ("origin"): (
                        "the double-submit cookie needs cookie-parser and consistent cookie options (path, "
                        "sameSite, secure) across routes"
                    ),
                    "sig": "csrf-csrf",
                    "cmd": "npx jest",
                },
            ),
            "client": (
                "a React single-page app using fetch",
                "an htmx admin page",
                "a Vue app on a sibling subdomain",
                "forms left open for hours",
                "a multipart file-upload form",
                "an embedded mobile web view",
                "a login form served by one of three instances",
                "a page cached by the CDN",
            ),
        },
    ),
    Problem(
        slug="jwt_validation_accepts_bad_tokens",
        category="repair",
        summary="Close a JWT validation gap in {lib} where {gap}",
        task=(
            "A security review of an API using {lib} found that {gap}. Make token validation reject such "
            "tokens while valid tokens from the real issuer keep working."
        ),
        steps=(
            "Write failing tests first with locally signed test tokens: {probe}",
            "Validate with explicit parameters instead of defaults: {validate}",
            (
                "Pin the accepted algorithms to the one the issuer uses and take keys from the issuer's "
                "JWKS, cached with rotation"
            ),
            (
                "Check expiry and not-before with a small leeway (30 to 60 seconds), and issuer and "
                "audience against configured values"
            ),
        ),
        avoid=(
            (
                "Do not decode the payload without verifying to read claims early (for routing or logging): "
                "code later trusts those claims"
            ),
            (
                "Do not accept the algorithm named in the token header: that is how none and "
                "HS256-with-public-key tokens get through"
            ),
        ),
        signals=("{sig}", "/jwt|json web token/i", "{gap_sig}"),
        validation=("{cmd}",),
        slots={
            "lib": (
                {
                    "lib": "PyJWT",
                    ("validate"): (
                        "jwt.decode(token, key, algorithms=['RS256'], audience=API_AUDIENCE, issuer=ISSUER, "
                        "leeway=30) with PyJWKClient for keys"
                    ),
                    "sig": "pyjwt",
                    "cmd": "pytest -q tests/test_auth.py",
                },
                {
                    "lib": "jose for Node.js",
                    ("validate"): (
                        "jwtVerify(token, createRemoteJWKSet(jwksUrl), { issuer, audience, algorithms: "
                        "['RS256'], clockTolerance: '30s' })"
                    ),
                    "sig": "jwtverify",
                    "cmd": "npx vitest run tests/auth",
                },
                {
                    "lib": "golang-jwt/jwt v5",
                    ("validate"): (
                        'jwt.Parse(token, keyFunc, jwt.WithValidMethods([]string{"RS256"}), '
                        "jwt.WithIssuer(iss), jwt.WithAudience(aud), jwt.WithLeeway(30*time.Second))"
                    ),
                    "sig": "golang-jwt",
                    "cmd": "go test ./internal/auth/...",
                },
                {
                    "lib": "Spring Security's resource server",
                    ("validate"): (
                        "a NimbusJwtDecoder from the JWKS URI with "
                        "JwtValidators.createDefaultWithIssuer(issuer) plus an audience validator combined "
                        "in DelegatingOAuth2TokenValidator"
                    ),
                    "sig": "nimbusjwtdecoder",
                    "cmd": "./gradlew test",
                },
                {
                    "lib": "Microsoft.IdentityModel in ASP.NET Core",
                    ("validate"): (
                        "TokenValidationParameters with ValidateIssuer, ValidateAudience, ValidateLifetime "
                        "and ValidateIssuerSigningKey all true, ValidAlgorithms set and ClockSkew of 30 "
                        "seconds"
                    ),
                    "sig": "tokenvalidationparameters",
                    "cmd": "dotnet test",
                },
                {
                    "lib": "the Rust jsonwebtoken crate",
                    ("validate"): (
                        "Validation::new(Algorithm::RS256) with set_issuer, set_audience and leeway, and "
                        "decode::<Claims>(token, &DecodingKey::from_jwk(jwk)?, &validation)"
                    ),
                    "sig": "jsonwebtoken",
                    "cmd": "cargo test",
                },
            ),
            "gap": (
                {
                    "gap": "tokens with alg set to none are accepted",
                    "probe": "an unsigned token whose header says alg none",
                    "gap_sig": "alg none",
                },
                {
                    "gap": "expired tokens are still accepted",
                    "probe": "a correctly signed token whose exp is an hour ago",
                    "gap_sig": "exp claim",
                },
                {
                    "gap": "tokens issued for another service's audience are accepted",
                    "probe": "a valid token from the same issuer with a different aud",
                    "gap_sig": "aud claim",
                },
                {
                    "gap": "HS256 tokens signed with the RSA public key are accepted",
                    "probe": "an HS256 token whose HMAC key is the issuer's public key (algorithm confusion)",
                    "gap_sig": "algorithm confusion",
                },
                {
                    "gap": "tokens from the staging identity provider work in production",
                    "probe": "a token signed by a second key pair with a different iss",
                    "gap_sig": "iss claim",
                },
                {
                    "gap": "a retired signing key stays trusted because the key set is loaded once at boot",
                    "probe": "a token signed with a key that was removed from the JWKS",
                    "gap_sig": "jwks",
                },
                {
                    "gap": "one middleware decodes tokens without verifying the signature",
                    "probe": "a token with a valid shape and a garbage signature",
                    "gap_sig": "signature verification",
                },
            ),
        },
    ),
    Problem(
        slug="stored_xss_unsanitized_user_html",
        category="repair",
        summary=(
            "Fix stored XSS in {field} rendered by {stack}, by escaping by default and sanitizing the "
            "little HTML that is allowed"
        ),
        task=(
            "A pentest showed that script in {field} runs in other users' browsers on a page rendered with "
            "{stack}, through {sink}. Render user content safely while keeping the allowed formatting "
            "(links, bold, lists)."
        ),
        steps=(
            (
                "Reproduce with a payload such as <img src=x onerror=alert(1)> saved in {field} and viewed "
                "as another user"
            ),
            "Find every place the value bypasses escaping: {sink}",
            "Render as text where formatting is not needed; otherwise {sanitize}",
            (
                "Add a Content-Security-Policy that disallows inline script as a second layer, and a "
                "regression test that asserts the payload is rendered inert"
            ),
        ),
        avoid=(
            (
                "Do not filter with a regex that strips <script> tags: event-handler attributes, "
                "javascript: URLs and SVG still execute"
            ),
            (
                "Do not sanitize on input only and then trust stored data: old rows and other writers "
                "bypass it, so sanitize at render time"
            ),
        ),
        signals=("{sig}", "/xss|cross.site scripting/i", "onerror="),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "React",
                    "sink": "dangerouslySetInnerHTML={{ __html: value }}",
                    ("sanitize"): (
                        "run DOMPurify.sanitize(value, { ALLOWED_TAGS: [...] }) right before "
                        "dangerouslySetInnerHTML"
                    ),
                    "sig": "dangerouslysetinnerhtml",
                    "cmd": "npx vitest run",
                },
                {
                    "stack": "Django templates",
                    "sink": "the |safe filter or mark_safe() on user content",
                    ("sanitize"): (
                        "clean the HTML with nh3.clean(value, tags={...}) and only then mark_safe the result"
                    ),
                    "sig": "mark_safe",
                    "cmd": "python manage.py test",
                },
                {
                    "stack": "Rails views",
                    "sink": "raw, html_safe or <%== on user content",
                    "sanitize": "use the sanitize helper with an explicit tags and attributes allowlist",
                    "sig": "html_safe",
                    "cmd": "bundle exec rspec",
                },
                {
                    "stack": "Vue",
                    "sink": "the v-html directive",
                    ("sanitize"): (
                        "sanitize with DOMPurify in a computed property and bind that to v-html, or render "
                        "with interpolation"
                    ),
                    "sig": "v-html",
                    "cmd": "npx vitest run",
                },
                {
                    "stack": "Go html/template",
                    "sink": "values converted to template.HTML, or pages rendered with text/template",
                    ("sanitize"): (
                        "sanitize with bluemonday.UGCPolicy().Sanitize before converting to template.HTML, "
                        "and keep html/template everywhere"
                    ),
                    "sig": "template.html",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "Angular",
                    "sink": "DomSanitizer.bypassSecurityTrustHtml",
                    ("sanitize"): (
                        "bind [innerHTML] without bypass so Angular's sanitizer runs, or sanitize with "
                        "DOMPurify before bypassing"
                    ),
                    "sig": "bypasssecuritytrusthtml",
                    "cmd": "npx ng test --watch=false",
                },
                {
                    "stack": "Jinja2 in Flask",
                    "sink": "Markup(value), the |safe filter or a template with autoescape disabled",
                    "sanitize": "clean the HTML with nh3 and wrap only the cleaned result in Markup",
                    "sig": "markupsafe",
                    "cmd": "pytest -q",
                },
            ),
            "field": (
                "product review bodies",
                "user profile bios",
                "markdown comments",
                "support ticket subjects",
                "search terms echoed on the results page",
                "wiki page titles",
                "chat messages",
                "team names",
            ),
        },
    ),
    Problem(
        slug="ssrf_in_server_side_url_fetch",
        category="repair",
        summary=(
            "Block SSRF in {feature} implemented with {client}, so user-supplied URLs cannot reach internal "
            "addresses"
        ),
        task=(
            "{feature_cap} fetches whatever URL the user gives with {client}; a tester used it to read the "
            "cloud metadata endpoint at 169.254.169.254. Keep the feature working for public URLs and block "
            "internal ones."
        ),
        steps=(
            "Allow only http and https schemes and the standard ports, and reject credentials in the URL",
            (
                "Resolve the host and reject loopback, private, link-local, unique-local and metadata "
                "addresses for IPv4 and IPv6, including IPv4-mapped IPv6"
            ),
            (
                "Enforce the check at connect time so DNS rebinding cannot swap the address after "
                "validation: {connect}"
            ),
            "Disable automatic redirects or re-validate every hop, and cap response size and time",
            (
                "Test with localhost, 127.1, [::1], 10.0.0.5, 169.254.169.254, a redirect to an internal "
                "host and a name that resolves to a private address"
            ),
        ),
        avoid=(
            (
                "Do not validate the URL string with a blocklist regex: decimal IPs, IPv6 forms and DNS "
                "names that resolve inside bypass it"
            ),
            (
                "Do not check the address once before the request and then let the client resolve again: "
                "the second lookup can return an internal IP"
            ),
        ),
        signals=("169.254.169.254", "/ssrf|server.side request forgery/i", "{sig}"),
        validation=("{cmd}",),
        slots={
            "client": (
                {
                    "client": "Python requests",
                    ("connect"): (
                        "mount a transport adapter whose connection pool checks the socket's peer address, "
                        "or use a vetted wrapper such as advocate"
                    ),
                    "sig": "requests.get",
                    "cmd": "pytest -q tests/test_fetch.py",
                },
                {
                    "client": "Node.js undici",
                    ("connect"): (
                        "pass a custom connect function or an Agent with a lookup hook that rejects private "
                        "addresses before the socket opens"
                    ),
                    "sig": "undici",
                    "cmd": "npx vitest run tests/fetch",
                },
                {
                    "client": "Go net/http",
                    ("connect"): (
                        "set net.Dialer.Control on the transport to inspect the resolved IP of every "
                        "connection, redirects included"
                    ),
                    "sig": "dialer.control",
                    "cmd": "go test ./internal/fetch/...",
                },
                {
                    "client": "Java HttpClient",
                    ("connect"): (
                        "resolve the address yourself, validate it, and connect to that literal IP with the "
                        "Host header set, refusing redirects"
                    ),
                    "sig": "httpclient",
                    "cmd": "./gradlew test",
                },
                {
                    "client": "Ruby Net::HTTP",
                    ("connect"): (
                        "use the ssrf_filter gem, which resolves, validates and connects to the vetted IP "
                        "for each redirect"
                    ),
                    "sig": "ssrf_filter",
                    "cmd": "bundle exec rspec",
                },
                {
                    "client": "C# HttpClient",
                    ("connect"): (
                        "set SocketsHttpHandler.ConnectCallback to resolve, validate and connect the socket "
                        "yourself"
                    ),
                    "sig": "connectcallback",
                    "cmd": "dotnet test",
                },
            ),
            "feature": (
                {
                    "feature": "link previews for chat messages",
                    "feature_cap": "The link-preview feature for chat messages",
                },
                {
                    "feature": "customer-configured webhook URLs",
                    "feature_cap": "The webhook delivery for customer-configured URLs",
                },
                {"feature": "import from a URL", "feature_cap": "The import-from-URL feature"},
                {"feature": "avatar upload by URL", "feature_cap": "Avatar upload by URL"},
                {
                    "feature": "PDF rendering of user pages",
                    "feature_cap": "The PDF renderer for user-supplied pages",
                },
                {"feature": "RSS feed subscriptions", "feature_cap": "The RSS subscription fetcher"},
                {"feature": "Open Graph image fetching", "feature_cap": "The Open Graph image fetcher"},
                {
                    "feature": "an integration test-connection button",
                    "feature_cap": "The integration test-connection button",
                },
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="loop_closures_capture_last_value",
        category="repair",
        summary="Fix {lang} closures created in a loop for {context} that all see the last loop value",
        task=(
            "In {lang} code {context}, every callback acts on the last item of the loop instead of its own; "
            "make each closure capture its own value."
        ),
        steps=(
            (
                "Reproduce with three items and log the captured value inside each callback: all three "
                "print the last one"
            ),
            "Confirm the cause: {cause}",
            "Bind the value per iteration: {fix}",
            (
                "Turn on the check that catches it ({lint}) and add a test asserting each callback receives "
                "its own item"
            ),
        ),
        avoid=(
            (
                "Do not add sleeps or await inside the loop to make the values come out right: it "
                "serializes the work and only hides the shared binding"
            ),
            "Do not copy the whole collection into each closure: capture only the per-item value it needs",
        ),
        signals=("{sig}", "late binding|loop variable capture", "{lint}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "JavaScript",
                    ("cause"): (
                        "the loop uses var, which is function-scoped, so every callback closes over the "
                        "same variable"
                    ),
                    ("fix"): (
                        "declare the loop variable with let or const, or iterate with forEach or for...of, "
                        "which give each iteration its own binding"
                    ),
                    "lint": "ESLint no-loop-func",
                    "sig": "var in for loop",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "Python",
                    ("cause"): (
                        "closures look the name up when they run (late binding), after the loop has finished"
                    ),
                    ("fix"): (
                        "bind it as a default argument (lambda item=item: ...) or use "
                        "functools.partial(handler, item)"
                    ),
                    "lint": "ruff B023",
                    "sig": "function definition does not bind loop variable",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "Go",
                    ("cause"): (
                        "before Go 1.22, the loop variable is one variable reused by every iteration, and "
                        "goroutines read it after it has moved on"
                    ),
                    ("fix"): (
                        "set go 1.22 or later in go.mod for per-iteration variables, or shadow it with item "
                        ":= item before the goroutine"
                    ),
                    "lint": "go vet loopclosure",
                    "sig": "loopclosure",
                    "cmd": "go vet ./...",
                },
                {
                    "lang": "C#",
                    ("cause"): (
                        "a for loop's counter is one variable shared by every lambda (foreach got "
                        "per-iteration variables in C# 5, for did not)"
                    ),
                    ("fix"): (
                        "copy the counter into a local inside the loop body (var index = i;) and capture "
                        "the local"
                    ),
                    "lint": "Rider's AccessToModifiedClosure inspection",
                    "sig": "access to modified closure",
                    "cmd": "dotnet test",
                },
            ),
            "context": (
                "registering click handlers for a list of buttons",
                "starting one worker per shard",
                "building per-column validators",
                "scheduling retries for pending messages",
                "creating menu command callbacks",
                "starting one HTTP call per region",
                "attaching tooltips to chart series",
                "building routes from a handler table",
                "launching parallel file uploads",
                "creating per-tenant timers",
            ),
        },
    ),
    Problem(
        slug="multiprocessing_cannot_pickle_task",
        category="repair",
        summary=(
            "Fix {pool} failing because {culprit} cannot be pickled when tasks are sent to worker processes"
        ),
        task=(
            "A Python job that parallelizes work with {pool} fails with '{error}' (it worked on Linux with "
            "fork; macOS and Windows start workers with spawn, and Python 3.14 defaults to forkserver on "
            "Linux). Make the tasks and their arguments picklable."
        ),
        steps=(
            "Read the traceback to find what is being pickled: {culprit} is passed to the workers",
            "Keep only plain data in task arguments: {fix}",
            (
                "Create per-process resources (database connections, clients, locks) inside the worker, "
                "with the pool's initializer argument or a module-level lazy getter"
            ),
            (
                "Run under the spawn start method explicitly (multiprocessing.set_start_method('spawn') in "
                "a test) so the failure shows on every platform"
            ),
        ),
        avoid=(
            (
                "Do not force the fork start method to make the error go away: fork with threads or open "
                "connections deadlocks and corrupts state"
            ),
            (
                "Do not swap in dill or cloudpickle for everything without need: it hides that heavy "
                "objects are copied to every worker"
            ),
        ),
        signals=("{error}", "{sig}", "/can.?t pickle|cannot pickle/i"),
        validation=("pytest -q tests/test_parallel.py",),
        slots={
            "pool": (
                {"pool": "multiprocessing.Pool", "sig": "multiprocessing.pool"},
                {"pool": "concurrent.futures.ProcessPoolExecutor", "sig": "processpoolexecutor"},
                {"pool": "multiprocessing.Process workers", "sig": "multiprocessing.process"},
                {"pool": "a PyTorch DataLoader with num_workers set", "sig": "num_workers"},
            ),
            "culprit": (
                {
                    "culprit": "a lambda",
                    "error": "Can't pickle <function <lambda>>",
                    "fix": "replace the lambda with a function defined at module top level",
                },
                {
                    "culprit": "a function nested inside another function",
                    "error": "Can't pickle local object",
                    ("fix"): (
                        "move the function to module level and pass its settings as arguments or with "
                        "functools.partial"
                    ),
                },
                {
                    "culprit": "a bound method of an object holding a database connection",
                    "error": "cannot pickle 'psycopg.Connection' object",
                    "fix": "pass a connection string and open the connection in the worker initializer",
                },
                {
                    "culprit": "an open file handle",
                    "error": "cannot pickle '_io.TextIOWrapper' object",
                    "fix": "pass the file path and byte offsets, and open the file inside the worker",
                },
                {
                    "culprit": "a threading.Lock stored on the task object",
                    "error": "cannot pickle '_thread.lock' object",
                    ("fix"): (
                        "drop the lock from the object and use a multiprocessing.Manager().Lock() only if "
                        "cross-process locking is really needed"
                    ),
                },
                {
                    "culprit": "a generator",
                    "error": "cannot pickle 'generator' object",
                    ("fix"): (
                        "materialize the chunk into a list, or pass the parameters that let the worker "
                        "recreate the generator"
                    ),
                },
                {
                    "culprit": "a SQLAlchemy engine",
                    "error": "cannot pickle '_thread.RLock' object",
                    ("fix"): (
                        "create the engine in each worker and call engine.dispose() in the initializer if "
                        "one was inherited"
                    ),
                },
                {
                    "culprit": "a logger with attached handlers",
                    "error": "cannot pickle '_thread.RLock' object",
                    ("fix"): (
                        "get loggers by name inside the worker, and send records to the parent through a "
                        "QueueHandler"
                    ),
                },
                {
                    "culprit": "an httpx client",
                    "error": "cannot pickle 'SSLContext' object",
                    ("fix"): (
                        "create one session per worker in the initializer and keep it in a module-level "
                        "variable"
                    ),
                },
                {
                    "culprit": "a class defined in the __main__ script",
                    "error": "Can't get attribute on <module '__main__'>",
                    ("fix"): (
                        "move the class into an importable module and guard the pool start with if __name__ "
                        "== '__main__'"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="json_field_names_silently_unmapped",
        category="repair",
        summary=(
            "Fix {lang} models for {api} whose fields stay empty because JSON names differ in case style "
            "and unknown keys are ignored"
        ),
        task=(
            "Data from {api} arrives as {wire} JSON, but the {lang} client's fields stay zero, null or "
            "default without any error. Map every field correctly and make future mismatches fail loudly in "
            "tests."
        ),
        steps=(
            (
                "Decode a recorded response and print the resulting object: the fields whose JSON names "
                "differ only in case style are empty"
            ),
            "Declare the naming rule once instead of per field: {naming}",
            "Make unknown or missing required fields fail in tests: {strict}",
            (
                "Add a test that decodes a recorded response and asserts every field, so a renamed field in "
                "the API shows up as a failure"
            ),
        ),
        avoid=(
            (
                "Do not turn on strict unknown-field rejection in production decoding without a plan: the "
                "provider adding a field would then break the client"
            ),
            (
                "Do not rename the model fields to {wire} to match: the rest of the codebase then mixes "
                "styles and the next API differs again"
            ),
        ),
        signals=("{sig}", "snake_case|camelCase", "/fields? (always )?(null|zero|empty)/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Go",
                    "wire": "snake_case",
                    ("naming"): (
                        'add json:"field_name" struct tags to every exported field; encoding/json has no '
                        "global naming policy"
                    ),
                    ("strict"): (
                        "use a json.Decoder with DisallowUnknownFields() in tests, and pointer fields for "
                        "values that must be present"
                    ),
                    "sig": "disallowunknownfields",
                    "cmd": "go test ./...",
                },
                {
                    "lang": "Java",
                    "wire": "snake_case",
                    ("naming"): (
                        "configure the ObjectMapper with PropertyNamingStrategies.SNAKE_CASE, or "
                        "@JsonNaming on the DTOs of this API"
                    ),
                    ("strict"): (
                        "keep FAIL_ON_UNKNOWN_PROPERTIES on in tests and use @JsonProperty(required = true) "
                        "for mandatory fields"
                    ),
                    "sig": "propertynamingstrategies",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Python",
                    "wire": "camelCase",
                    ("naming"): (
                        "give the Pydantic models model_config = ConfigDict(alias_generator=to_camel, "
                        "populate_by_name=True) or explicit Field(alias=...)"
                    ),
                    ("strict"): (
                        "use extra='forbid' in a test-only subclass and make required fields non-optional"
                    ),
                    "sig": "alias_generator",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "Rust",
                    "wire": "camelCase",
                    ("naming"): (
                        'annotate structs with #[serde(rename_all = "camelCase")] or per-field '
                        "#[serde(rename = ...)]"
                    ),
                    ("strict"): (
                        "add #[serde(deny_unknown_fields)] behind a test cfg and avoid #[serde(default)] on "
                        "required fields"
                    ),
                    "sig": "rename_all",
                    "cmd": "cargo test",
                },
                {
                    "lang": "C#",
                    "wire": "snake_case",
                    ("naming"): (
                        "set JsonSerializerOptions.PropertyNamingPolicy = JsonNamingPolicy.SnakeCaseLower "
                        "(.NET 8) for this client"
                    ),
                    ("strict"): (
                        "use UnmappedMemberHandling = JsonUnmappedMemberHandling.Disallow in tests and the "
                        "required modifier on mandatory properties"
                    ),
                    "sig": "jsonnamingpolicy",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "Kotlin",
                    "wire": "snake_case",
                    ("naming"): (
                        "use kotlinx.serialization with a Json { namingStrategy = "
                        "JsonNamingStrategy.SnakeCase } instance, or @SerialName per field"
                    ),
                    ("strict"): (
                        "keep ignoreUnknownKeys = false in tests and avoid default values for required "
                        "properties"
                    ),
                    "sig": "serialname",
                    "cmd": "./gradlew test",
                },
            ),
            "api": (
                "a shipping-rates API",
                "a CRM contacts webhook",
                "a weather provider",
                "a payment processor's refunds endpoint",
                "an internal inventory service",
                "a feature-flag service",
                "a geocoding API",
                "a partner's order feed",
            ),
        },
    ),
    Problem(
        slug="container_volume_permission_denied",
        category="repair",
        summary="Fix 'permission denied' when a container running as {user} from {image} writes to {mount}",
        task=(
            "After switching a service to a non-root user, the container built from {image} crashes writing "
            "to {mount} with EACCES / permission denied. Make it write there while still running "
            "unprivileged."
        ),
        steps=(
            (
                "Compare ownership: run id inside the container and ls -ln on the mount path; the directory "
                "belongs to another uid than {user}"
            ),
            (
                "Set ownership when the image is built for paths inside it: COPY --chown and a RUN that "
                "creates and chowns the directory before USER"
            ),
            "For mounted storage, match the owner at run time: {runtime_fix}",
            (
                "Verify with a fresh volume and with an existing one created by the old root image, which "
                "may need a one-off chown"
            ),
        ),
        avoid=(
            (
                "Do not go back to running as root or chmod -R 777 the directory: any compromise of the "
                "process then owns the host path or every file in it"
            ),
            (
                "Do not bake a host user's uid into the image for one developer's machine: it breaks on CI "
                "and other hosts"
            ),
        ),
        signals=("permission denied", "EACCES", "{sig}"),
        validation=("docker compose up --wait", "docker compose exec app id"),
        slots={
            "image": (
                {
                    "image": "node:20-alpine",
                    "user": "the node user (uid 1000)",
                    ("runtime_fix"): (
                        'run the service with user: "1000:1000" and make the host directory or volume owned '
                        "by that uid, or set fsGroup: 1000 in Kubernetes"
                    ),
                    "sig": "node:20-alpine",
                },
                {
                    "image": "python:3.12-slim",
                    "user": "an app user created in the Dockerfile (uid 10001)",
                    ("runtime_fix"): (
                        "create the user with a fixed uid and gid, and set securityContext.fsGroup to that "
                        "gid so Kubernetes chowns the volume on mount"
                    ),
                    "sig": "python:3.12-slim",
                },
                {
                    "image": "nginxinc/nginx-unprivileged",
                    "user": "uid 101",
                    ("runtime_fix"): (
                        "write caches and temp files under /tmp or a mounted emptyDir owned by 101, and "
                        "listen on 8080 instead of 80"
                    ),
                    "sig": "nginx-unprivileged",
                },
                {
                    "image": "gcr.io/distroless/static:nonroot",
                    "user": "the nonroot user (uid 65532)",
                    ("runtime_fix"): (
                        "prepare the directory in a build stage and COPY --chown=65532:65532 it in, or use "
                        "fsGroup: 65532 for volumes"
                    ),
                    "sig": "distroless",
                },
                {
                    "image": "eclipse-temurin:21-jre on OpenShift",
                    "user": "a random uid in group 0",
                    ("runtime_fix"): (
                        "make the directory group-owned by 0 and group-writable (chgrp -R 0 and chmod -R "
                        "g=u) in the image, which is the OpenShift convention"
                    ),
                    "sig": "openshift",
                },
                {
                    "image": "postgres:16",
                    "user": "the postgres user (uid 999)",
                    ("runtime_fix"): (
                        "let the entrypoint initialize an empty named volume, or chown the bind mount to "
                        "999 before the first start"
                    ),
                    "sig": "initdb",
                },
            ),
            "mount": (
                "a bind-mounted ./data directory",
                "a named volume first created by a root image",
                "a Kubernetes PersistentVolumeClaim",
                "a data directory inside the image",
                "an emptyDir shared with a sidecar",
                "a mounted log directory",
                "an NFS-backed volume",
            ),
        },
    ),
    Problem(
        slug="compose_app_starts_before_dependency_ready",
        category="repair",
        summary=(
            "Make the {lang} service in Docker Compose wait for {dep} to be healthy instead of crashing "
            "with connection refused at startup"
        ),
        task=(
            "On docker compose up, the {lang} app container exits with 'connection refused' because {dep} "
            "is still starting; on the second try it works. Make startup reliable on a clean machine and in "
            "CI."
        ),
        steps=(
            (
                "Confirm the race: the app's first connection attempt happens before {dep} accepts "
                "connections, and depends_on alone only waits for the container to start"
            ),
            (
                "Add a healthcheck to the {dep} service that runs {check}, with interval, retries and "
                "start_period set"
            ),
            (
                "Make the app wait on it: under the app service's depends_on, list {dep_key} with "
                "condition: service_healthy"
            ),
            (
                "Also retry the initial connection in the app with a bounded backoff ({client_retry}), "
                "because dependencies restart in production too"
            ),
            "Verify with docker compose down -v followed by docker compose up --wait on a cold cache",
        ),
        avoid=(
            (
                "Do not add a fixed sleep to the app's entrypoint: it is too short on slow CI runners and "
                "wastes time everywhere else"
            ),
            (
                "Do not set restart: always as the fix: the app crash-loops and startup logs fill with "
                "stack traces that hide real errors"
            ),
        ),
        signals=("service_healthy", "connection refused", "depends_on"),
        validation=("docker compose up --wait", "docker compose ps"),
        slots={
            "app": (
                {"lang": "Python", "client_retry": "tenacity around the first engine.connect()"},
                {"lang": "Node.js", "client_retry": "a retry loop around the first pool.connect()"},
                {
                    "lang": "Spring Boot",
                    "client_retry": "spring.datasource.hikari.initialization-fail-timeout or a startup retry",
                },
                {"lang": "Go", "client_retry": "a backoff loop around db.PingContext"},
                {
                    "lang": "Rails",
                    "client_retry": "a bin/wait step that retries the connection before db:prepare",
                },
                {
                    "lang": "ASP.NET Core",
                    "client_retry": "EnableRetryOnFailure and a startup retry around migrations",
                },
            ),
            "dep": (
                {"dep": "PostgreSQL", "dep_key": "db", "check": "pg_isready -U app -d app"},
                {"dep": "MySQL", "dep_key": "mysql", "check": "mysqladmin ping -h 127.0.0.1"},
                {"dep": "Redis", "dep_key": "redis", "check": "redis-cli ping"},
                {"dep": "RabbitMQ", "dep_key": "rabbitmq", "check": "rabbitmq-diagnostics -q ping"},
                {
                    "dep": "Elasticsearch",
                    "dep_key": "elasticsearch",
                    "check": "curl -fs http://localhost:9200/_cluster/health",
                },
                {
                    "dep": "Kafka",
                    "dep_key": "kafka",
                    "check": "kafka-topics.sh --bootstrap-server localhost:9092 --list",
                },
                {
                    "dep": "MongoDB",
                    "dep_key": "mongo",
                    "check": "mongosh --quiet --eval \"db.adminCommand('ping')\"",
                },
            ),
        },
    ),
    Problem(
        slug="yaml_values_change_type_on_load",
        category="repair",
        summary=(
            "Stop {loader} from turning {value} into {becomes} by quoting strings and loading YAML into "
            "typed fields"
        ),
        task=(
            "A config file loaded with {loader} contains {value}, and the application receives {becomes} "
            "instead of the string; the bug only shows for some values. Make every string value load as a "
            "string."
        ),
        steps=(
            (
                "Confirm it is YAML 1.1 implicit typing: {loader} resolves unquoted scalars such as NO, on, "
                "1.10 and 0755 to booleans and numbers"
            ),
            (
                "Quote the affected values in the files and in the generated examples, and add a schema or "
                "typed target so a non-string value fails validation"
            ),
            "Switch to a YAML 1.2 loader or a string-only mode where the format allows it: {fix}",
            (
                "Add a test that loads a fixture with the tricky values (NO, yes, on, 1.10, 0755, 01234, "
                "Null) and asserts the exact types"
            ),
        ),
        avoid=(
            (
                "Do not convert the value back to a string after loading: the original text is already lost "
                "(1.10 became 1.1, 0755 became 493)"
            ),
            (
                "Do not blanket-quote numbers that really are numbers: typed fields and validation are the "
                "durable fix, not quoting everything"
            ),
        ),
        signals=("{sig}", "/norway problem|yaml 1\\.1/i", "implicit typing"),
        validation=("{cmd}",),
        slots={
            "loader": (
                {
                    "loader": "PyYAML's yaml.safe_load",
                    ("fix"): (
                        "load with ruamel.yaml (YAML 1.2) or StrictYAML, or validate into a Pydantic model "
                        "with strict string fields"
                    ),
                    "sig": "yaml.safe_load",
                    "cmd": "pytest -q tests/test_config.py",
                },
                {
                    "loader": "Go's gopkg.in/yaml.v2",
                    ("fix"): (
                        "move to gopkg.in/yaml.v3 (YAML 1.2 rules) and decode into a struct with string "
                        "fields instead of map[string]interface{}"
                    ),
                    "sig": "gopkg.in/yaml.v2",
                    "cmd": "go test ./internal/config/...",
                },
                {
                    "loader": "SnakeYAML 1.x",
                    ("fix"): (
                        "use SnakeYAML Engine (YAML 1.2) or bind into a typed POJO with Jackson's YAMLMapper"
                    ),
                    "sig": "snakeyaml",
                    "cmd": "mvn -q test",
                },
                {
                    "loader": "Ruby's Psych",
                    ("fix"): (
                        "quote the values and load with YAML.safe_load into a schema object (dry-schema) "
                        "that requires strings"
                    ),
                    "sig": "psych",
                    "cmd": "bundle exec rspec spec/config",
                },
                {
                    "loader": "Helm values rendered into a ConfigMap",
                    ("fix"): (
                        "pipe values through the quote function in templates, and declare the types in "
                        "values.schema.json so helm lint rejects them"
                    ),
                    "sig": "values.yaml",
                    "cmd": "helm lint .",
                },
            ),
            "value": (
                {"value": "the country code NO", "becomes": "the boolean false"},
                {"value": "the answer yes", "becomes": "the boolean true"},
                {"value": "a feature switch set to on", "becomes": "the boolean true"},
                {"value": "the version 1.10", "becomes": "the float 1.1"},
                {"value": "the file mode 0755", "becomes": "the integer 493"},
                {"value": "the postcode 01234", "becomes": "an octal integer"},
                {"value": "the surname Null", "becomes": "a null value"},
                {"value": "the runtime version 3.10", "becomes": "the float 3.1"},
            ),
        },
    ),
    Problem(
        slug="log_lines_emitted_twice",
        category="repair",
        summary=(
            "Fix every log line appearing twice (or more) from {setting} using {framework}, caused by "
            "duplicate handlers or propagation"
        ),
        task=(
            "Log volume of {setting} doubled after a refactor: each message from {framework} is written two "
            "or three times. Make each event appear exactly once without losing any logger's output."
        ),
        steps=(
            "Print the configured handlers per logger to see who writes: {inspect}",
            "Find the duplication: {cause}",
            "Configure logging once at the entry point: {fix}",
            "Add a test that captures output, logs one message and asserts it appears once",
        ),
        avoid=(
            (
                "Do not deduplicate lines downstream in the log pipeline: it hides the cause and drops real "
                "repeated events"
            ),
            (
                "Do not silence the library loggers to reduce volume: their warnings and errors are then "
                "lost too"
            ),
        ),
        signals=("{sig}", "duplicate log lines|logged twice", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "framework": (
                {
                    "framework": "Python logging",
                    ("inspect"): (
                        "walk logging.root.manager.loggerDict and print each logger's handlers and "
                        "propagate flag"
                    ),
                    ("cause"): (
                        "a get_logger() helper calls addHandler on every call, or a child logger has its "
                        "own handler and also propagates to root"
                    ),
                    ("fix"): (
                        "logging.config.dictConfig at startup with handlers only on the root logger, and no "
                        "handlers added in library modules"
                    ),
                    "sig": "addhandler",
                    "sig2": "propagate",
                    "cmd": "pytest -q tests/test_logging.py",
                },
                {
                    "framework": "Logback",
                    ("inspect"): (
                        "start with -Dlogback.debug=true to print the appenders attached to each logger"
                    ),
                    ("cause"): (
                        "an appender is attached to both the root and a named logger whose additivity is true"
                    ),
                    ("fix"): (
                        'attach appenders to root only, or set additivity="false" on the named logger that '
                        "has its own appender"
                    ),
                    "sig": "additivity",
                    "sig2": "logback.xml",
                    "cmd": "./gradlew test",
                },
                {
                    "framework": "Log4j 2",
                    ("inspect"): (
                        'set status="debug" in log4j2.xml to list loggers and their appender refs at startup'
                    ),
                    "cause": "a Logger element references the same appender as Root while additivity is true",
                    "fix": 'set additivity="false" on that Logger, or remove its AppenderRef',
                    "sig": "log4j2.xml",
                    "sig2": "additivity",
                    "cmd": "mvn -q test",
                },
                {
                    "framework": "winston",
                    "inspect": "log the transports of every logger instance created at import time",
                    ("cause"): (
                        "each module calls winston.createLogger with its own Console transport, or a child "
                        "logger re-adds transports"
                    ),
                    ("fix"): (
                        "create one logger in a logging module and derive per-module loggers with "
                        "logger.child({ module })"
                    ),
                    "sig": "transports.console",
                    "sig2": "createlogger",
                    "cmd": "npx vitest run",
                },
                {
                    "framework": "Serilog in ASP.NET Core",
                    ("inspect"): (
                        "list the registered ILoggerProvider instances from the service provider at startup"
                    ),
                    ("cause"): (
                        "Serilog is added with UseSerilog while the default console provider is still "
                        "registered, or a sink is configured twice"
                    ),
                    ("fix"): (
                        "call builder.Logging.ClearProviders() and configure Serilog once from appsettings"
                    ),
                    "sig": "clearproviders",
                    "sig2": "serilog",
                    "cmd": "dotnet test",
                },
            ),
            "setting": (
                "an API running under a process manager",
                "a CLI with a --verbose flag",
                "a library imported by several services",
                "a background worker",
                "a test suite that configures logging in fixtures",
                "a container feeding a log aggregator",
                "a plugin host that reloads modules",
                "a scheduled batch job",
            ),
        },
    ),
    Problem(
        slug="subprocess_hangs_when_output_pipe_fills",
        category="repair",
        summary=(
            "Fix {lang} code running {command} that hangs or fails once the child writes more output than "
            "the pipe holds"
        ),
        task=(
            "A {lang} service runs {command} as a child process; with small inputs it works, with large "
            "ones it hangs forever or errors out. Capture the output without deadlocking."
        ),
        steps=(
            "Reproduce with an input large enough that the child writes more than 64 KiB to stdout or stderr",
            "Identify the deadlock: {cause}",
            "Read both streams concurrently until end of file, then wait for exit: {fix}",
            (
                "For very large output, stream it to a file or a consumer instead of holding it in memory, "
                "and set a timeout that kills the child"
            ),
            "Test with a child that writes megabytes to both stdout and stderr",
        ),
        avoid=(
            "Do not discard stderr to make the hang go away: errors from the child are then invisible",
            "Do not raise a buffer limit as the fix: the next larger output fails again",
        ),
        signals=("{sig}", "/subprocess (hangs|deadlock)|pipe buffer/i", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    ("cause"): (
                        "Popen with stdout=PIPE and stderr=PIPE followed by p.wait() blocks while the child "
                        "blocks on a full pipe"
                    ),
                    ("fix"): (
                        "use p.communicate(timeout=...) or subprocess.run(..., capture_output=True, "
                        "timeout=...)"
                    ),
                    "sig": "communicate",
                    "sig2": "subprocess.pipe",
                    "cmd": "pytest -q tests/test_runner.py",
                },
                {
                    "lang": "Go",
                    "cause": "cmd.Wait() is called before the StdoutPipe has been read to the end",
                    ("fix"): (
                        "read from StdoutPipe and StderrPipe fully (in goroutines) before cmd.Wait(), or "
                        "set cmd.Stdout and cmd.Stderr to buffers or files"
                    ),
                    "sig": "stdoutpipe",
                    "sig2": "cmd.wait",
                    "cmd": "go test ./internal/runner/...",
                },
                {
                    "lang": "Java",
                    ("cause"): (
                        "process.waitFor() is called while nobody reads getInputStream() and getErrorStream()"
                    ),
                    ("fix"): (
                        "use redirectErrorStream(true) and read the merged stream in a thread, or "
                        "ProcessBuilder.redirectOutput to a file"
                    ),
                    "sig": "waitfor",
                    "sig2": "processbuilder",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Node.js",
                    ("cause"): (
                        "child_process.exec buffers output and fails with ERR_CHILD_PROCESS_STDIO_MAXBUFFER "
                        "when it exceeds maxBuffer"
                    ),
                    ("fix"): (
                        "use child_process.spawn and pipe child.stdout and child.stderr into streams, "
                        "awaiting the 'close' event"
                    ),
                    "sig": "err_child_process_stdio_maxbuffer",
                    "sig2": "maxbuffer",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "C#",
                    ("cause"): (
                        "WaitForExit() is called before StandardOutput.ReadToEnd(), or both streams are "
                        "read one after the other"
                    ),
                    ("fix"): (
                        "read both streams with ReadToEndAsync concurrently (or BeginOutputReadLine and "
                        "BeginErrorReadLine) and then await WaitForExitAsync"
                    ),
                    "sig": "waitforexit",
                    "sig2": "readtoendasync",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "Rust",
                    ("cause"): (
                        "the code reads the child's stdout to the end before touching stderr, while the "
                        "child blocks writing stderr"
                    ),
                    ("fix"): (
                        "use Command::output() or wait_with_output(), which drain both pipes, or read "
                        "stderr in a separate thread"
                    ),
                    "sig": "wait_with_output",
                    "sig2": "std::process::command",
                    "cmd": "cargo test",
                },
            ),
            "command": (
                "ffmpeg transcoding",
                "pg_dump backups",
                "a git log export",
                "terraform plan",
                "a LaTeX build",
                "ImageMagick conversions",
                "a verbose migration tool",
                "a code formatter over the whole repo",
            ),
        },
    ),
    Problem(
        slug="sort_comparator_breaks_ordering_contract",
        category="repair",
        summary="Fix a {lang} sort of {data} whose comparator breaks the ordering contract, which {failure}",
        task=(
            "Sorting {data} in {lang} {failure} for some inputs. Write an ordering that is total and "
            "consistent, including missing values and ties."
        ),
        steps=(
            (
                "Reproduce with the failing input, then shrink it: the cases usually involve missing "
                "values, equal keys or values that overflow"
            ),
            "Find the broken rule: {cause}",
            "Rewrite it from composable pieces: {fix}",
            (
                "Put missing values explicitly first or last, and add a final unique tiebreaker (an ID) so "
                "the order is deterministic"
            ),
            (
                "Test with shuffled inputs containing ties and missing values, and assert the sorted result "
                "is the same for every shuffle"
            ),
        ),
        avoid=(
            (
                "Do not catch the sort error and fall back to unsorted output: the page silently shows a "
                "different order each time"
            ),
            (
                "Do not compare numbers by subtracting them: the difference can overflow or be fractional "
                "and flip the sign"
            ),
        ),
        signals=("{error}", "{sig}", "comparator|strict weak ordering"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Java",
                    ("failure"): (
                        "throws IllegalArgumentException: Comparison method violates its general contract!"
                    ),
                    ("cause"): (
                        "the comparator subtracts ints, or handles null differently depending on argument "
                        "order"
                    ),
                    ("fix"): (
                        "Comparator.comparing(Item::score, "
                        "Comparator.nullsLast(Comparator.reverseOrder())).thenComparing(Item::id)"
                    ),
                    "error": "Comparison method violates its general contract",
                    "sig": "thencomparing",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "JavaScript",
                    "failure": "comes out in a different order in Chrome and Safari",
                    ("cause"): (
                        "the comparator returns a boolean (a > b) instead of a negative, zero or positive "
                        "number"
                    ),
                    ("fix"): (
                        "return a.score - b.score only for safe numbers, otherwise compare explicitly, and "
                        "use a.name.localeCompare(b.name) for strings"
                    ),
                    "error": "sort comparator returns boolean",
                    "sig": "localecompare",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "Python",
                    ("failure"): (
                        "raises TypeError: '<' not supported between instances of 'NoneType' and 'str'"
                    ),
                    ("cause"): (
                        "the key function returns None for missing values, which cannot be compared with "
                        "strings"
                    ),
                    ("fix"): (
                        "key=lambda r: (r.value is None, r.value or '', r.id), which sorts missing values "
                        "last"
                    ),
                    "error": "'<' not supported between instances of 'NoneType'",
                    "sig": "functools.cmp_to_key",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "Go",
                    "failure": "returns a different order on each run",
                    "cause": "the less function uses <= (not a strict ordering) and sort.Slice is not stable",
                    ("fix"): (
                        "slices.SortStableFunc(items, func(a, b Item) int { return "
                        "cmp.Or(cmp.Compare(a.Score, b.Score), cmp.Compare(a.ID, b.ID)) })"
                    ),
                    "error": "sort.Slice less function",
                    "sig": "cmp.compare",
                    "cmd": "go test ./...",
                },
                {
                    "lang": "C#",
                    ("failure"): (
                        "throws InvalidOperationException: IComparer.Compare() method returns inconsistent "
                        "results"
                    ),
                    "cause": "the comparer returns a random or asymmetric result for equal elements",
                    ("fix"): (
                        "OrderBy(x => x.Score).ThenBy(x => x.Id), or a Comparer<T>.Create that is "
                        "antisymmetric and transitive"
                    ),
                    "error": "IComparer.Compare() method returns inconsistent results",
                    "sig": "thenby",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "Rust",
                    "failure": "panics on called `Option::unwrap()` on a `None` value",
                    ("cause"): (
                        "the comparator uses a.partial_cmp(&b).unwrap() on floats, and NaN has no ordering"
                    ),
                    "fix": "use f64::total_cmp in sort_by, and then_with(|| a.id.cmp(&b.id)) for ties",
                    "error": "partial_cmp",
                    "sig": "total_cmp",
                    "cmd": "cargo test",
                },
            ),
            "data": (
                "search results by score and name",
                "tasks by due date where some have none",
                "leaderboard entries by points",
                "files by modification time",
                "tickets by priority and age",
                "products by discount",
                "shipments by ETA with missing estimates",
                "employees by last name",
            ),
        },
    ),
    Problem(
        slug="generated_output_order_not_deterministic",
        category="repair",
        summary=(
            "Make {artifact} produced by {lang} code byte-identical across runs by fixing iteration order"
        ),
        task=(
            "{artifact_cap} produced by a {lang} build step changes order from run to run without any input "
            "change, which breaks diffs and checksums. Make the output deterministic."
        ),
        steps=(
            "Generate the output twice from the same input and diff it to find the unstable sections",
            "Trace each unstable section to an unordered source: {source}",
            "Sort at the point of output with an explicit key: {fix}",
            (
                "Also pin other sources of variation in the output (timestamps, absolute paths, random IDs) "
                "or move them into a separate metadata file"
            ),
            "Add a test that generates twice and compares bytes",
        ),
        avoid=(
            (
                "Do not sort the final text lines as a shortcut: structured formats (JSON, XML, code) lose "
                "their meaning"
            ),
            (
                "Do not rely on the current insertion order happening to be stable: a runtime or library "
                "upgrade changes it"
            ),
        ),
        signals=("{sig}", "/non.?deterministic|order changes between runs/i", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Go",
                    "source": "range over a map, whose iteration order is randomized on purpose",
                    "fix": "iterate over slices.Sorted(maps.Keys(m)) and write entries in that order",
                    "sig": "range over map",
                    "sig2": "maps.keys",
                    "cmd": "go test ./...",
                },
                {
                    "lang": "Python",
                    ("source"): (
                        "iteration over a set of strings, whose order changes with PYTHONHASHSEED between "
                        "processes"
                    ),
                    ("fix"): (
                        "sorted(items) or sorted(items, key=...) before writing, and json.dumps(..., "
                        "sort_keys=True) for mappings"
                    ),
                    "sig": "pythonhashseed",
                    "sig2": "sort_keys",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "Java",
                    "source": "HashMap and HashSet iteration, which changes with capacity and JDK version",
                    ("fix"): (
                        "use a TreeMap or sort the entries with Map.Entry.comparingByKey(), and enable "
                        "SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS in Jackson"
                    ),
                    "sig": "hashmap",
                    "sig2": "order_map_entries_by_keys",
                    "cmd": "mvn -q test",
                },
                {
                    "lang": "Rust",
                    ("source"): (
                        "std::collections::HashMap, which is seeded randomly per process by RandomState"
                    ),
                    "fix": "use BTreeMap for output, or collect and sort the entries before writing",
                    "sig": "randomstate",
                    "sig2": "btreemap",
                    "cmd": "cargo test",
                },
                {
                    "lang": "C#",
                    ("source"): (
                        "Directory.EnumerateFiles and Dictionary iteration after removals, neither of which "
                        "promises an order"
                    ),
                    ("fix"): (
                        "OrderBy(x => x.Key, StringComparer.Ordinal) before writing, with ordinal "
                        "comparison so the culture does not change the order"
                    ),
                    "sig": "enumeratefiles",
                    "sig2": "stringcomparer.ordinal",
                    "cmd": "dotnet test",
                },
                {
                    "lang": "TypeScript",
                    ("source"): (
                        "readdir results and Promise.all over async generators that finish in varying order"
                    ),
                    ("fix"): (
                        "sort file lists with localeCompare in a fixed locale, and sort results by key "
                        "after Promise.all instead of pushing on completion"
                    ),
                    "sig": "readdir",
                    "sig2": "promise.all",
                    "cmd": "npx vitest run",
                },
            ),
            "artifact": (
                {"artifact": "a generated API client", "artifact_cap": "A generated API client"},
                {
                    "artifact": "golden files for snapshot tests",
                    "artifact_cap": "A set of golden files for snapshot tests",
                },
                {
                    "artifact": "a JSON config checked into the repo",
                    "artifact_cap": "A JSON config checked into the repo",
                },
                {"artifact": "a build manifest", "artifact_cap": "A build manifest"},
                {
                    "artifact": "a CSV export verified by checksum",
                    "artifact_cap": "A CSV export verified by checksum",
                },
                {
                    "artifact": "a generated Terraform variables file",
                    "artifact_cap": "A generated Terraform variables file",
                },
                {"artifact": "a sitemap.xml", "artifact_cap": "A sitemap.xml"},
                {"artifact": "a dependency graph report", "artifact_cap": "A dependency graph report"},
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="rust_future_not_send_across_await",
        category="repair",
        summary=(
            "Fix Rust's 'future cannot be sent between threads safely' when {culprit} is held across an "
            ".await in {spawn}"
        ),
        task=(
            "Code passed to {spawn} fails to compile with E0277 'future cannot be sent between threads "
            "safely', pointing at {culprit} that lives across an .await. Make the future Send without "
            "blocking the runtime."
        ),
        steps=(
            (
                "Read the note under the error: it names the non-Send value and the .await point it is held "
                "across"
            ),
            (
                "Decide whether the value must live across the await at all; usually it is only needed "
                "before or after it"
            ),
            "Fix it: {fix}",
            (
                "Re-check with cargo check and add a compile-time assertion (fn assert_send<T: Send>(_: "
                "&T)) on the future in a test"
            ),
        ),
        avoid=(
            (
                "Do not wrap the value in an unsafe impl Send to silence the error unless the type is "
                "really thread-safe: it turns a compile error into a data race"
            ),
            (
                "Do not switch to a single-threaded runtime or spawn_local only to avoid the bound: the "
                "service loses its parallelism"
            ),
        ),
        signals=("future cannot be sent between threads safely", "E0277", "{sig}"),
        validation=("cargo check --all-targets", "cargo test"),
        slots={
            "culprit": (
                {
                    "culprit": "an Rc<RefCell<...>> cache handle",
                    ("fix"): (
                        "use Arc<Mutex<...>> or Arc with an atomic, or keep the Rc inside a block that ends "
                        "before the .await"
                    ),
                    "sig": "rc<refcell",
                },
                {
                    "culprit": "a std::sync::MutexGuard",
                    ("fix"): (
                        "copy what you need out of the guard inside a scoped block so it drops before the "
                        ".await, or use tokio::sync::Mutex if the lock must span the await"
                    ),
                    "sig": "mutexguard",
                },
                {
                    "culprit": "a Box<dyn std::error::Error> from an earlier ?",
                    ("fix"): (
                        "use Box<dyn Error + Send + Sync> or anyhow::Error as the error type, so the held "
                        "error is Send"
                    ),
                    "sig": "dyn std::error::error",
                },
                {
                    "culprit": "a ThreadRng from rand::thread_rng()",
                    ("fix"): (
                        "generate the random values in a block before the .await, or use a StdRng seeded "
                        "from entropy, which is Send"
                    ),
                    "sig": "threadrng",
                },
                {
                    "culprit": "a raw pointer from an FFI handle",
                    ("fix"): (
                        "move the FFI work into tokio::task::spawn_blocking, or wrap the handle in a "
                        "newtype whose Send impl has been reviewed against the C library's threading rules"
                    ),
                    "sig": "*mut",
                },
                {
                    "culprit": "a RefCell borrow kept in a local",
                    "fix": "clone the needed data out of the borrow and drop the Ref before awaiting",
                    "sig": "refcell",
                },
                {
                    "culprit": "a tracing span guard from span.enter()",
                    ("fix"): (
                        "attach the span with .instrument(span) from tracing::Instrument instead of holding "
                        "the entered guard"
                    ),
                    "sig": "span.enter",
                },
            ),
            "spawn": (
                "tokio::spawn",
                "an axum handler",
                "a tonic gRPC service method",
                "a Tower middleware",
                "a JoinSet task",
                "an #[async_trait] method",
            ),
        },
    ),
    Problem(
        slug="dev_server_reload_misses_changes_in_container",
        category="repair",
        summary="Make {tool} pick up file changes again when the code runs on {host}",
        task=(
            "With the project running on {host}, {tool} starts fine but never reloads when files are edited "
            "on the host. Make edits trigger a reload within a second or two."
        ),
        steps=(
            (
                "Confirm that file events do not cross the mount: touch a file on the host and watch for "
                "inotify events inside the container or VM (inotifywait -m)"
            ),
            "Switch the watcher to polling for this setup: {poll}",
            "Limit what is watched (ignore node_modules, .git, build output) so polling stays cheap",
            (
                "If the project can live inside the Linux filesystem of the VM or container instead of a "
                "host mount, move it there: native events work and file I/O is faster"
            ),
        ),
        avoid=(
            (
                "Do not raise fs.inotify.max_user_watches as the fix here: the events never arrive across "
                "this mount, so more watches change nothing"
            ),
            (
                "Do not commit polling as the default for every developer: native watching is cheaper "
                "wherever it works, so enable polling through an environment variable"
            ),
        ),
        signals=("{sig}", "inotify", "/hot reload|hmr|live reload/i"),
        validation=("docker compose up --wait",),
        slots={
            "tool": (
                {
                    "tool": "Vite's dev server",
                    ("poll"): (
                        "set server.watch.usePolling: true in vite.config, and server.hmr.clientPort when "
                        "the port is mapped"
                    ),
                    "sig": "usepolling",
                },
                {
                    "tool": "webpack-dev-server",
                    "poll": "set watchOptions.poll (for example 1000) or WATCHPACK_POLLING=true",
                    "sig": "watchpack_polling",
                },
                {
                    "tool": "nodemon",
                    "poll": "run nodemon with --legacy-watch (-L) or legacyWatch: true in nodemon.json",
                    "sig": "legacy-watch",
                },
                {
                    "tool": "uvicorn --reload",
                    "poll": "set WATCHFILES_FORCE_POLLING=true for watchfiles",
                    "sig": "watchfiles_force_polling",
                },
                {
                    "tool": "the Django runserver autoreloader",
                    ("poll"): (
                        "uninstall or bypass pywatchman and let the StatReloader poll, or set "
                        "WATCHFILES_FORCE_POLLING=true when using django-watchfiles"
                    ),
                    "sig": "statreloader",
                },
                {
                    "tool": "Air for Go",
                    "poll": "set poll = true and poll_interval in the [build] section of .air.toml",
                    "sig": ".air.toml",
                },
                {
                    "tool": "Rails' file watcher",
                    ("poll"): (
                        "set config.file_watcher = ActiveSupport::FileUpdateChecker in development.rb "
                        "instead of the evented checker"
                    ),
                    "sig": "fileupdatechecker",
                },
            ),
            "host": (
                "Docker Desktop on macOS with a bind mount",
                "Docker Desktop on Windows with the code on the Windows drive",
                "WSL2 with the project under /mnt/c",
                "a Vagrant VM with a shared folder",
                "Podman machine on macOS",
                "a remote dev VM mounted over SSHFS",
            ),
        },
    ),
    Problem(
        slug="request_scoped_state_used_outside_request",
        category="repair",
        summary="Fix {framework} code where {work} reads request-scoped state after the request has finished",
        task=(
            "In a service using {framework}, {work} fails with {error}, because it reads the current "
            "request, user or tenant after the request finished. Give the background work what it needs "
            "explicitly."
        ),
        steps=(
            "Find which request-bound object the background code reaches for ({what}) from the stack trace",
            (
                "Capture plain values (user ID, tenant ID, request ID, locale) while the request is active "
                "and pass them as arguments to the background work"
            ),
            "Where a framework context is really required, create it for the work: {context}",
            (
                "Add a test that runs the background path after the request has completed and asserts it "
                "uses the captured values"
            ),
        ),
        avoid=(
            (
                "Do not keep a reference to the request object or context in a global or closure for later: "
                "it is reused or disposed, and another user's data leaks in"
            ),
            (
                "Do not run the work synchronously inside the request to dodge the error: response times "
                "grow with the slowest background job"
            ),
        ),
        signals=("{error}", "{sig}", "request context|request scope"),
        validation=("{cmd}",),
        slots={
            "framework": (
                {
                    "framework": "Flask",
                    "error": "RuntimeError: Working outside of request context",
                    "what": "flask.request, flask.g or current_user",
                    ("context"): (
                        "push app.app_context() in the worker, or wrap the function with "
                        "copy_current_request_context for a short thread"
                    ),
                    "sig": "copy_current_request_context",
                    "cmd": "pytest -q",
                },
                {
                    "framework": "Spring",
                    "error": "IllegalStateException: No thread-bound request found",
                    "what": "a request-scoped bean or RequestContextHolder",
                    ("context"): (
                        "register a TaskDecorator on the executor that copies the needed values (or the "
                        "MDC) into the worker thread"
                    ),
                    "sig": "requestcontextholder",
                    "cmd": "./gradlew test",
                },
                {
                    "framework": "ASP.NET Core",
                    "error": "a NullReferenceException on IHttpContextAccessor.HttpContext",
                    "what": "IHttpContextAccessor.HttpContext or a scoped DbContext from the request",
                    ("context"): (
                        "create a scope with IServiceScopeFactory.CreateScope() inside the background task "
                        "and resolve services from it"
                    ),
                    "sig": "ihttpcontextaccessor",
                    "cmd": "dotnet test",
                },
                {
                    "framework": "Node.js with AsyncLocalStorage",
                    "error": "undefined from asyncLocalStorage.getStore()",
                    "what": "the store set by the request middleware",
                    ("context"): (
                        "bind callbacks that are queued by pools or emitters with AsyncResource.bind, or "
                        "call asyncLocalStorage.run with a fresh store for the job"
                    ),
                    "sig": "asynclocalstorage",
                    "cmd": "npx vitest run",
                },
                {
                    "framework": "Python contextvars with a thread pool",
                    "error": "LookupError from a ContextVar.get()",
                    "what": "a ContextVar set by middleware",
                    ("context"): (
                        "submit the function through contextvars.copy_context().run so the worker sees a "
                        "copy of the context"
                    ),
                    "sig": "contextvars",
                    "cmd": "pytest -q",
                },
            ),
            "work": (
                "an audit event sent after the response",
                "an email sent from a background thread",
                "a metrics tag with the tenant ID",
                "a PDF generated asynchronously",
                "a retry scheduled for later",
                "a log line written by a thread pool",
                "a cache write after the response",
                "a webhook dispatched from a queue callback",
            ),
        },
    ),
    Problem(
        slug="orm_session_shared_across_concurrent_tasks",
        category="repair",
        summary="Fix {error_short} when {parallel} shares one {unit} between concurrent tasks",
        task=(
            "{parallel_cap} runs several tasks at once that all use the same {unit}, and it fails "
            "intermittently with {error}. Give each unit of concurrent work its own session."
        ),
        steps=(
            (
                "Confirm the sharing: the same session or context instance is captured by several tasks, "
                "threads or goroutines"
            ),
            "Create one per task instead: {fix}",
            (
                "Keep transactions per task too; if the work must be atomic as a whole, do the concurrent "
                "reads first and write in one session afterwards"
            ),
            "Cap concurrency below the connection pool size so the tasks do not queue for connections",
            (
                "Run the concurrent path many times in a test (and with the race detector or thread "
                "sanitizer where available) to confirm it is stable"
            ),
        ),
        avoid=(
            (
                "Do not put a lock around the shared session: the tasks then run one at a time and the "
                "parallelism is gone"
            ),
            (
                "Do not raise the pool size to make errors rarer: the session itself is not safe for "
                "concurrent use"
            ),
        ),
        signals=("{error}", "{sig}", "not thread-safe|concurrent use"),
        validation=("{cmd}",),
        slots={
            "orm": (
                {
                    "orm": "EF Core",
                    "unit": "EF Core DbContext",
                    ("error"): (
                        "InvalidOperationException: A second operation was started on this context instance "
                        "before a previous operation completed"
                    ),
                    "error_short": "'A second operation was started on this context'",
                    ("fix"): (
                        "inject IDbContextFactory<AppDbContext> and create a context with "
                        "CreateDbContextAsync inside each task of Task.WhenAll"
                    ),
                    "sig": "idbcontextfactory",
                    "cmd": "dotnet test",
                },
                {
                    "orm": "SQLAlchemy AsyncSession",
                    "unit": "SQLAlchemy AsyncSession",
                    ("error"): (
                        "InvalidRequestError: This session is provisioning a new connection; concurrent "
                        "operations are not permitted"
                    ),
                    "error_short": "'concurrent operations are not permitted'",
                    ("fix"): (
                        "open async with async_sessionmaker() as session inside each coroutine passed to "
                        "asyncio.gather"
                    ),
                    "sig": "async_sessionmaker",
                    "cmd": "pytest -q",
                },
                {
                    "orm": "Hibernate",
                    "unit": "Hibernate Session",
                    "error": "ConcurrentModificationException inside the persistence context during flush",
                    "error_short": "ConcurrentModificationException",
                    ("fix"): (
                        "give each worker its own EntityManager from the EntityManagerFactory (or a "
                        "@Transactional service call per item) instead of using the injected one from a "
                        "parallel stream"
                    ),
                    "sig": "entitymanager",
                    "cmd": "./gradlew test",
                },
                {
                    "orm": "GORM",
                    "unit": "*gorm.DB chain",
                    "error": "wrong rows and conditions leaking between queries",
                    "error_short": "leaking query conditions",
                    ("fix"): (
                        "start each goroutine from db.WithContext(ctx) or db.Session(&gorm.Session{}) "
                        "rather than a *gorm.DB that already has Where clauses chained"
                    ),
                    "sig": "gorm.session",
                    "cmd": "go test -race ./...",
                },
                {
                    "orm": "Prisma interactive transactions",
                    "unit": "Prisma interactive transaction",
                    ("error"): (
                        "Transaction already closed: A query cannot be executed on an expired transaction"
                    ),
                    "error_short": "'Transaction already closed'",
                    ("fix"): (
                        "run the concurrent reads on the base client outside the transaction, and keep tx "
                        "use sequential and awaited inside the callback"
                    ),
                    "sig": "$transaction",
                    "cmd": "npx vitest run",
                },
            ),
            "parallel": (
                {
                    "parallel": "enriching a list of orders in parallel",
                    "parallel_cap": "Enriching a list of orders in parallel",
                },
                {"parallel": "a fan-out dashboard endpoint", "parallel_cap": "A fan-out dashboard endpoint"},
                {
                    "parallel": "a bulk import split into batches",
                    "parallel_cap": "A bulk import split into batches",
                },
                {"parallel": "a sync of several tenants", "parallel_cap": "A sync of several tenants"},
                {
                    "parallel": "parallel validation of uploaded rows",
                    "parallel_cap": "Parallel validation of uploaded rows",
                },
                {
                    "parallel": "a resolver layer with sibling fields",
                    "parallel_cap": "A resolver layer with sibling fields",
                },
                {"parallel": "a job processing partitions", "parallel_cap": "A job processing partitions"},
                {
                    "parallel": "a report loading three datasets at once",
                    "parallel_cap": "A report loading three datasets at once",
                },
            ),
        },
    ),
    Problem(
        slug="native_extension_fails_to_build_on_install",
        category="repair",
        summary=(
            "Fix installing {package} on {env}, where building its native extension fails with "
            "'{error_short}'"
        ),
        task=(
            "Installing dependencies on {env} fails while building {package}: {error}. Make the install "
            "work reproducibly there."
        ),
        steps=(
            (
                "Read the first compiler or configure error, not the last line: it names the missing "
                "header, library or tool"
            ),
            "Prefer a prebuilt binary when one exists for the platform: {prebuilt}",
            "Otherwise install the build dependencies for this environment: {deps}",
            (
                "In Docker, install build tools only in a builder stage and copy the built artifacts into "
                "the runtime image"
            ),
            (
                "Rebuild from a clean cache to confirm, and pin the platform in the lockfile or image so CI "
                "and laptops match"
            ),
        ),
        avoid=(
            (
                "Do not swap the dependency for a different library just to avoid compiling: behaviour and "
                "APIs differ and the rest of the code must change"
            ),
            (
                "Do not copy compiled artifacts from another machine or architecture into the project: they "
                "crash or fail to load on this platform"
            ),
        ),
        signals=("{error_short}", "{sig}", "native extension|build failed"),
        validation=("{cmd}",),
        slots={
            "package": (
                {
                    "package": "the pg gem",
                    "error": "ERROR: Failed to build gem native extension ... pg_config not found",
                    "error_short": "Failed to build gem native extension",
                    ("prebuilt"): (
                        "recent pg gems ship precompiled native gems for common platforms; add the platform "
                        "with bundle lock --add-platform"
                    ),
                    ("deps"): (
                        "the libpq development package (libpq-dev or postgresql-dev) and a compiler, or "
                        "pass --with-pg-config"
                    ),
                    "sig": "pg_config",
                    "cmd": "bundle install",
                },
                {
                    "package": "nokogiri",
                    "error": "Could not find nokogiri-x86_64-linux in locally installed gems",
                    "error_short": "Could not find nokogiri",
                    ("prebuilt"): (
                        "add the deployment platform to Gemfile.lock with bundle lock --add-platform "
                        "x86_64-linux (or aarch64-linux) so the precompiled gem is used"
                    ),
                    "deps": "libxml2 and libxslt development packages when compiling from source is required",
                    "sig": "bundle lock --add-platform",
                    "cmd": "bundle install",
                },
                {
                    "package": "psycopg2",
                    "error": "Error: pg_config executable not found",
                    "error_short": "pg_config executable not found",
                    ("prebuilt"): (
                        "use psycopg[binary] (psycopg 3) or psycopg2-binary for development, and check that "
                        "a wheel exists for the interpreter and architecture"
                    ),
                    "deps": "libpq-dev, python3-dev and build-essential (or their Alpine equivalents)",
                    "sig": "psycopg2",
                    "cmd": "pip install -r requirements.txt",
                },
                {
                    "package": "mysqlclient",
                    "error": "Exception: Can not find valid pkg-config name",
                    "error_short": "Can not find valid pkg-config name",
                    ("prebuilt"): (
                        "check whether a wheel exists for this platform; on Linux there usually is none, so "
                        "plan the build"
                    ),
                    ("deps"): (
                        "pkg-config plus default-libmysqlclient-dev (Debian) or mariadb-connector-c-dev "
                        "(Alpine), or set MYSQLCLIENT_CFLAGS and MYSQLCLIENT_LDFLAGS"
                    ),
                    "sig": "mysqlclient",
                    "cmd": "pip install -r requirements.txt",
                },
                {
                    "package": "bcrypt for Node.js",
                    "error": "gyp ERR! find Python ... node-gyp rebuild failed",
                    "error_short": "node-gyp rebuild failed",
                    ("prebuilt"): (
                        "check that a prebuilt binary exists for this Node ABI and libc (musl versus glibc) "
                        "before falling back to node-gyp"
                    ),
                    "deps": "python3, make and g++ in the build environment",
                    "sig": "node-gyp",
                    "cmd": "npm ci",
                },
                {
                    "package": "better-sqlite3",
                    "error": "was compiled against a different Node.js version using NODE_MODULE_VERSION",
                    "error_short": "NODE_MODULE_VERSION",
                    ("prebuilt"): (
                        "reinstall with the Node version the app runs on (npm rebuild better-sqlite3) so "
                        "the matching prebuilt binary is fetched"
                    ),
                    "deps": "python3, make and g++ when no prebuilt binary matches",
                    "sig": "npm rebuild",
                    "cmd": "npm ci",
                },
                {
                    "package": "the openssl-sys crate",
                    "error": "Could not find directory of OpenSSL installation",
                    "error_short": "Could not find directory of OpenSSL installation",
                    ("prebuilt"): (
                        "enable the dependency's rustls feature if it offers one, or the vendored feature "
                        "of openssl to build OpenSSL from source"
                    ),
                    "deps": "pkg-config and libssl-dev (or openssl-dev on Alpine)",
                    "sig": "openssl-sys",
                    "cmd": "cargo build --locked",
                },
            ),
            "env": (
                "an Alpine-based Docker image",
                "a Debian slim Docker image",
                "an Apple Silicon Mac",
                "a GitHub Actions ubuntu runner",
                "an AWS Lambda build container",
                "an arm64 Linux build server",
            ),
        },
    ),
    Problem(
        slug="mock_not_applied_patched_wrong_target",
        category="repair",
        summary=(
            "Fix a {lang} test where the mock of {dependency} is never used because {mocker} replaces it in "
            "the wrong place"
        ),
        task=(
            "A {lang} unit test mocks {dependency} with {mocker}, yet the real implementation still runs "
            "and makes real network calls from CI. Make the code under test use the mock."
        ),
        steps=(
            "Prove the mock is bypassed: assert it was called, and log from the real implementation",
            "Find where the code under test actually gets the dependency: {cause}",
            "Replace it at that point: {fix}",
            (
                "Where patching is fragile, inject the dependency (constructor or parameter) so tests pass "
                "a fake directly"
            ),
        ),
        avoid=(
            (
                "Do not patch more broadly (the whole module or every instance) until the test passes: "
                "other tests inherit the patch and fail in odd ways"
            ),
            (
                "Do not leave the network reachable from unit tests as a fallback: block outbound calls so "
                "a bypassed mock fails loudly"
            ),
        ),
        signals=("{sig}", "mock not called|mock not applied", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    "mocker": "unittest.mock.patch",
                    ("cause"): (
                        "the module did from clients import send at import time, so it holds its own "
                        "reference to the original"
                    ),
                    ("fix"): (
                        "patch the name where it is looked up (patch('app.orders.send')), not where it is "
                        "defined (patch('clients.send'))"
                    ),
                    "sig": "mock.patch",
                    "sig2": "assert_called_once",
                    "cmd": "pytest -q",
                },
                {
                    "lang": "JavaScript",
                    "mocker": "jest.mock in an ES module project",
                    ("cause"): (
                        "with native ESM, jest.mock is not hoisted above static imports, so the module was "
                        "loaded before the mock existed"
                    ),
                    ("fix"): (
                        "use jest.unstable_mockModule and import the module under test afterwards with "
                        "await import()"
                    ),
                    "sig": "unstable_mockmodule",
                    "sig2": "jest.mock",
                    "cmd": "npx jest",
                },
                {
                    "lang": "TypeScript",
                    "mocker": "jest.spyOn",
                    ("cause"): (
                        "the code calls a function it imported by destructuring, which the spy on the "
                        "module object cannot replace"
                    ),
                    ("fix"): (
                        "mock the module with jest.mock('./clients') at the top of the test, or call the "
                        "function through its module object in the code"
                    ),
                    "sig": "jest.spyon",
                    "sig2": "mockimplementation",
                    "cmd": "npx jest",
                },
                {
                    "lang": "TypeScript",
                    "mocker": "vi.mock in Vitest",
                    ("cause"): (
                        "vi.mock is hoisted above the variables its factory uses, so the factory sees "
                        "undefined and the real module is used"
                    ),
                    ("fix"): (
                        "define the mock functions with vi.hoisted(() => ({ send: vi.fn() })) and use them "
                        "in the vi.mock factory"
                    ),
                    "sig": "vi.hoisted",
                    "sig2": "vi.mock",
                    "cmd": "npx vitest run",
                },
                {
                    "lang": "Java",
                    "mocker": "Mockito",
                    ("cause"): (
                        "the service creates the client with new inside the method, or a @SpringBootTest "
                        "uses @Mock where the context needs its own bean"
                    ),
                    ("fix"): (
                        "inject the client through the constructor, and use @MockitoBean (or @MockBean "
                        "before Spring Boot 3.4) for beans in the Spring context"
                    ),
                    "sig": "mockito",
                    "sig2": "@mockbean",
                    "cmd": "./gradlew test",
                },
                {
                    "lang": "Ruby",
                    "mocker": "RSpec allow(...).to receive",
                    ("cause"): (
                        "the stub is set on a class that code reloading replaced, or on a different "
                        "instance than the one the code builds"
                    ),
                    ("fix"): (
                        "stub the constant the code resolves at call time, or inject the collaborator and "
                        "use instance_double"
                    ),
                    "sig": "instance_double",
                    "sig2": "and_return",
                    "cmd": "bundle exec rspec",
                },
            ),
            "dependency": (
                "the payment gateway client",
                "the email sender",
                "the push-notification client",
                "the file-storage uploader",
                "the feature-flag lookup",
                "the search-index client",
                "the geocoder",
                "the SMS provider client",
            ),
        },
    ),
    Problem(
        slug="response_already_sent_then_written_again",
        category="repair",
        summary=(
            "Fix '{error}' in {stack}, raised when {path} keeps writing after a response was already sent"
        ),
        task=(
            "Logs of a service built on {stack} fill with '{error}', coming from {path}; some clients get "
            "truncated or wrong responses. Make every code path send exactly one response."
        ),
        steps=(
            "Find the second write from the stack trace and the first one from the code path before it",
            "End the handler after responding: {fix}",
            (
                "In middleware and error handlers, check whether the response has started before writing "
                "({started}) and hand off to the framework's error path otherwise"
            ),
            (
                "Add tests for each early-exit branch that assert status, body and that the rest of the "
                "handler did not run"
            ),
        ),
        avoid=(
            (
                "Do not swallow the error or wrap the second write in a try/catch: the handler keeps doing "
                "work (and side effects) after the client got its answer"
            ),
            (
                "Do not set headers after streaming has begun: they are already on the wire and will be "
                "ignored or raise"
            ),
        ),
        signals=("{error}", "{sig}", "response already sent|headers already sent"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Express",
                    "error": "ERR_HTTP_HEADERS_SENT: Cannot set headers after they are sent to the client",
                    ("fix"): (
                        "return res.status(...).json(...) in every branch, and call next(err) at most once"
                    ),
                    "started": "res.headersSent",
                    "sig": "res.headerssent",
                    "cmd": "npx jest",
                },
                {
                    "stack": "Go net/http",
                    "error": "http: superfluous response.WriteHeader call",
                    ("fix"): (
                        "return right after http.Error or WriteHeader, and set headers before the first Write"
                    ),
                    "started": "a wrapper ResponseWriter that records whether WriteHeader was called",
                    "sig": "http.error",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "PHP",
                    "error": "Cannot modify header information - headers already sent",
                    ("fix"): (
                        "remove output before header() calls (a BOM or whitespace before <?php, a stray "
                        "echo), and exit after redirects"
                    ),
                    "started": "headers_sent($file, $line), which tells where output started",
                    "sig": "headers_sent",
                    "cmd": "vendor/bin/phpunit",
                },
                {
                    "stack": "Java servlets",
                    ("error"): (
                        "IllegalStateException: Cannot call sendError() after the response has been committed"
                    ),
                    ("fix"): (
                        "return after sendRedirect or sendError, and do not write the body before deciding "
                        "the status"
                    ),
                    "started": "response.isCommitted()",
                    "sig": "iscommitted",
                    "cmd": "mvn -q test",
                },
                {
                    "stack": "ASP.NET Core",
                    "error": "StatusCode cannot be set because the response has already started",
                    ("fix"): (
                        "return a result from each branch instead of writing to HttpContext.Response "
                        "directly in middleware"
                    ),
                    "started": "HttpContext.Response.HasStarted",
                    "sig": "hasstarted",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Fastify",
                    "error": "FST_ERR_REP_ALREADY_SENT: Reply was already sent",
                    ("fix"): (
                        "in async handlers return the value instead of also calling reply.send, and return "
                        "reply after sending in hooks"
                    ),
                    "started": "reply.sent",
                    "sig": "reply.sent",
                    "cmd": "npx vitest run",
                },
            ),
            "path": (
                "an auth middleware rejecting expired sessions",
                "an error handler after a streamed download",
                "a validation branch without a return",
                "a timeout middleware",
                "a redirect after a file upload",
                "a callback-style database query",
                "a CSV export failing halfway",
            ),
        },
    ),
    Problem(
        slug="model_serving_predictions_differ_from_training",
        category="repair",
        summary=(
            "Fix {framework} model predictions that differ between serving and evaluation because {symptom}"
        ),
        task=(
            "A model built with {framework} scores well in the evaluation notebook, but in the prediction "
            "service {symptom}. Make serving produce the same outputs as evaluation for the same inputs."
        ),
        steps=(
            (
                "Build a parity check: run the same 100 inputs through the evaluation code and the serving "
                "code and diff the outputs"
            ),
            "Check the inference mode first: {mode}",
            "Check the preprocessing path: {prep}",
            (
                "Export or package the model together with its preprocessing, and keep the parity check as "
                "a CI test"
            ),
        ),
        avoid=(
            (
                "Do not retrain or tune thresholds to make serving numbers look right: the mismatch is a "
                "code bug and stays in the pipeline"
            ),
            (
                "Do not compare only aggregate accuracy: compare per-example outputs, which show a mismatch "
                "on a small sample"
            ),
        ),
        signals=("{sig}", "training/serving skew|prediction mismatch", "{sig2}"),
        validation=("pytest -q tests/test_serving_parity.py",),
        slots={
            "framework": (
                {
                    "framework": "PyTorch",
                    ("mode"): (
                        "call model.eval() and wrap inference in torch.inference_mode(); dropout and batch "
                        "norm in train mode change every output"
                    ),
                    ("prep"): (
                        "the serving transform must use the same normalization mean and std, resize and "
                        "channel order as the evaluation transform"
                    ),
                    "sig": "model.eval()",
                    "sig2": "inference_mode",
                },
                {
                    "framework": "Keras",
                    ("mode"): (
                        "call model(x, training=False) or model.predict; custom layers must pass the "
                        "training flag to dropout and batch normalization"
                    ),
                    ("prep"): (
                        "ship the preprocessing layers (Normalization, TextVectorization) inside the saved "
                        "model instead of re-implementing them in the service"
                    ),
                    "sig": "training=false",
                    "sig2": "normalization layer",
                },
                {
                    "framework": "Hugging Face transformers",
                    ("mode"): (
                        "load with the same dtype and call model.eval() after any training loop in the same "
                        "process"
                    ),
                    ("prep"): (
                        "load the tokenizer from the same checkpoint, with identical truncation, max_length "
                        "and padding settings"
                    ),
                    "sig": "autotokenizer",
                    "sig2": "truncation",
                },
                {
                    "framework": "scikit-learn",
                    ("mode"): (
                        "load the fitted Pipeline from the artifact and call predict on it; never fit or "
                        "fit_transform at serving time"
                    ),
                    ("prep"): (
                        "the service must not rebuild encoders or scalers from request data; persist them "
                        "in the Pipeline with joblib"
                    ),
                    "sig": "fit_transform",
                    "sig2": "pipeline",
                },
                {
                    "framework": "ONNX Runtime (exported from PyTorch)",
                    ("mode"): (
                        "export with model.eval() in torch.onnx.export, and compare ONNX outputs with "
                        "PyTorch outputs with a tolerance"
                    ),
                    ("prep"): (
                        "apply the same preprocessing in the service as before export, including input "
                        "dtype (float32) and layout (NCHW)"
                    ),
                    "sig": "torch.onnx.export",
                    "sig2": "onnxruntime",
                },
            ),
            "symptom": (
                "the same input gets a different score on each call",
                "accuracy on live traffic is far below the validation report",
                "single-item requests score differently from batch scoring",
                "the exported artifact disagrees with the notebook",
                "outputs drift after every model reload",
                "shadow traffic shows mismatched outputs",
                "short inputs are systematically misclassified",
                "every prediction lands in the same class",
            ),
        },
    ),
    Problem(
        slug="cuda_out_of_memory_training",
        category="repair",
        summary="Fix 'CUDA out of memory' {phase} while training {model}, without shrinking the model",
        task=(
            "Training {model} with PyTorch fails with torch.OutOfMemoryError: CUDA out of memory {phase}. "
            "Make training run on the same GPU with the same effective batch size."
        ),
        steps=(
            (
                "Measure before changing anything: print torch.cuda.memory_summary() and "
                "max_memory_allocated() around the failing step"
            ),
            "Remove the leak or waste specific to when it fails: {phase_fix}",
            "Cut activation memory: {lever}",
            (
                "Keep the effective batch size with gradient accumulation (several micro-batches per "
                "optimizer.step()), and use bf16 autocast where the GPU supports it"
            ),
            "Run a few hundred steps and confirm peak memory is flat rather than growing",
        ),
        avoid=(
            (
                "Do not call torch.cuda.empty_cache() in the loop as the fix: it returns cached blocks to "
                "the driver but frees nothing that is still referenced"
            ),
            (
                "Do not silently reduce the batch size: it changes the optimization and the results no "
                "longer match the baseline"
            ),
        ),
        signals=("CUDA out of memory", "torch.OutOfMemoryError", "{sig}"),
        validation=("python train.py --max-steps 200",),
        slots={
            "model": (
                {
                    "model": "a 7B-parameter LLM fine-tune",
                    "lever": "LoRA adapters with model.gradient_checkpointing_enable()",
                },
                {
                    "model": "a ViT image classifier",
                    "lever": "activation checkpointing in the transformer blocks",
                },
                {
                    "model": "a U-Net on 1024-pixel images",
                    "lever": "torch.utils.checkpoint on the encoder blocks and channels_last memory format",
                },
                {
                    "model": "a BERT-base classifier with 512-token inputs",
                    "lever": "dynamic padding per batch instead of padding everything to 512",
                },
                {
                    "model": "a diffusion model",
                    "lever": "gradient checkpointing in the U-Net and an 8-bit optimizer",
                },
                {
                    "model": "a graph neural network on a large graph",
                    "lever": "neighbour sampling into subgraph mini-batches",
                },
                {
                    "model": "a speech recognition model",
                    "lever": "bucketing utterances by length so batches do not pad to the longest clip",
                },
            ),
            "phase": (
                {
                    "phase": "in the first training step",
                    ("phase_fix"): (
                        "check the real per-sample memory; move the loss computation under autocast and "
                        "avoid keeping full logits for every token"
                    ),
                    "sig": "first step",
                },
                {
                    "phase": "only during validation",
                    ("phase_fix"): (
                        "wrap the validation loop in torch.no_grad() (or inference_mode) so no graph is "
                        "stored"
                    ),
                    "sig": "no_grad",
                },
                {
                    "phase": "after a few hundred steps",
                    ("phase_fix"): (
                        "accumulate losses for logging with loss.item() or loss.detach(), not the tensor, "
                        "which keeps every graph alive"
                    ),
                    "sig": "loss.item()",
                },
                {
                    "phase": "when the batch size is doubled",
                    ("phase_fix"): (
                        "keep the micro-batch size and accumulate gradients to reach the larger effective "
                        "batch"
                    ),
                    "sig": "gradient accumulation",
                },
                {
                    "phase": "on the longest inputs",
                    "phase_fix": "sort or bucket by length and cap the maximum sequence length per batch",
                    "sig": "max_length",
                },
                {
                    "phase": "after resuming from a checkpoint",
                    ("phase_fix"): (
                        "load the checkpoint with map_location='cpu' and free the loaded state dict after "
                        "copying it into the model and optimizer"
                    ),
                    "sig": "map_location",
                },
            ),
        },
    ),
    Problem(
        slug="coverage_report_misses_executed_code",
        category="repair",
        summary=(
            "Fix a {tool} coverage report that is wrong for {gap}, so the coverage gate measures the real "
            "code"
        ),
        task=(
            "The coverage gate of a project using {tool} fails or passes for the wrong reasons: the report "
            "is wrong for {gap}. Make the numbers reflect what the tests actually execute."
        ),
        steps=(
            (
                "Compare the report with reality for {gap}: pick a function the tests are known to run, or "
                "a file that must be counted, and check how it is reported"
            ),
            "Fix the measurement: {fix}",
            (
                "Make the report include every source file, not only the imported ones, and exclude "
                "generated code explicitly"
            ),
            (
                "Check the merged report locally with the same command CI uses, then set the gate on the "
                "corrected number"
            ),
        ),
        avoid=(
            (
                "Do not lower the threshold to make the gate pass: the missing data is a measurement bug, "
                "and real gaps hide behind it"
            ),
            (
                "Do not add tests that only import modules to raise the number: they execute no behaviour "
                "and the report overstates coverage"
            ),
        ),
        signals=("{sig}", "coverage", "/0(\\.0)?% coverage|missing from (the )?coverage/i"),
        validation=("{cmd}",),
        slots={
            "tool": (
                {
                    "tool": "coverage.py",
                    ("fix"): (
                        "set [run] parallel = true, concurrency = multiprocessing and source = the package, "
                        "then run coverage combine before coverage report"
                    ),
                    "sig": "coverage combine",
                    "cmd": "coverage run -m pytest",
                },
                {
                    "tool": "Jest's istanbul coverage",
                    ("fix"): (
                        "set collectCoverageFrom to the source globs and coverageProvider to v8 when code "
                        "runs in child processes or workers"
                    ),
                    "sig": "collectcoveragefrom",
                    "cmd": "npx jest --coverage",
                },
                {
                    "tool": "Go's cover tool",
                    ("fix"): (
                        "use -coverpkg=./... so code exercised from other packages counts, and build "
                        "integration binaries with go build -cover and GOCOVERDIR"
                    ),
                    "sig": "coverpkg",
                    "cmd": "go test -coverpkg=./... -coverprofile=cover.out ./...",
                },
                {
                    "tool": "JaCoCo",
                    ("fix"): (
                        "keep the agent in argLine when surefire or failsafe argLine is customized (use "
                        "@{argLine}), and add a report-aggregate module for multi-module builds"
                    ),
                    "sig": "argline",
                    "cmd": "mvn -q verify",
                },
                {
                    "tool": "c8",
                    ("fix"): (
                        "let NODE_V8_COVERAGE reach child processes, set --all with --src, and map through "
                        "source maps for compiled TypeScript"
                    ),
                    "sig": "node_v8_coverage",
                    "cmd": "npx c8 --all npm test",
                },
                {
                    "tool": "cargo-llvm-cov",
                    ("fix"): (
                        "run cargo llvm-cov with --workspace and include integration tests and binaries "
                        "started by tests, merging with --no-report runs first"
                    ),
                    "sig": "cargo llvm-cov",
                    "cmd": "cargo llvm-cov --workspace",
                },
            ),
            "gap": (
                "code executed in worker processes",
                "modules no test imports",
                "integration tests that start the service binary",
                "a multi-module build",
                "code compiled from TypeScript",
                "functions called through a CLI entry point",
                "generated code that inflates the total",
            ),
        },
    ),
    Problem(
        slug="vulnerable_transitive_dependency_upgrade",
        category="repair",
        summary=(
            "Upgrade the vulnerable transitive dependency {pkg}, flagged by {scanner} among the project's "
            "{eco} dependencies, without breaking its dependents"
        ),
        task=(
            "{trigger}: {scanner} reports an advisory against {pkg}, pulled in transitively among the "
            "project's {eco} dependencies. Move to a fixed version and keep the build and tests green."
        ),
        steps=(
            "Find who brings it in and at which version: {why}",
            (
                "Prefer upgrading the direct dependency that pulls it in to a release that already depends "
                "on the fixed version"
            ),
            "If no such release exists, force the fixed version for the transitive dependency: {pin}",
            (
                "Run the full test suite and check the changelog of the forced version for breaking changes "
                "in the APIs the dependents use"
            ),
            (
                "Re-run {scanner} to confirm the advisory is gone and leave a comment next to the override "
                "saying when it can be removed"
            ),
        ),
        avoid=(
            (
                "Do not mark the advisory as ignored without checking reachability and writing down why: it "
                "silently stays in every release"
            ),
            (
                "Do not bump every dependency to latest in the same change: a failure can no longer be "
                "traced to one upgrade"
            ),
        ),
        signals=("{scanner}", "{pkg}", "vulnerab|security advisory"),
        validation=("{cmd}",),
        slots={
            "dep": (
                {
                    "eco": "npm",
                    "pkg": "semver",
                    "scanner": "npm audit",
                    "why": "npm ls semver --all",
                    "pin": "an overrides entry in package.json, then npm install to rewrite the lockfile",
                    "cmd": "npm audit --omit=dev",
                },
                {
                    "eco": "npm",
                    "pkg": "ws",
                    "scanner": "npm audit",
                    "why": "npm explain ws",
                    ("pin"): (
                        "an overrides entry in package.json scoped to the parent package, then npm install"
                    ),
                    "cmd": "npm audit --omit=dev",
                },
                {
                    "eco": "pip",
                    "pkg": "urllib3",
                    "scanner": "pip-audit",
                    "why": "pipdeptree --reverse --packages urllib3",
                    ("pin"): (
                        "a constraint in the constraints file or a lower bound in pyproject.toml, then "
                        "regenerate the lock (uv lock --upgrade-package urllib3)"
                    ),
                    "cmd": "pip-audit",
                },
                {
                    "eco": "pip",
                    "pkg": "jinja2",
                    "scanner": "pip-audit",
                    "why": "pipdeptree --reverse --packages jinja2",
                    ("pin"): (
                        "a lower bound in the project's dependencies and a re-lock with only that package "
                        "upgraded"
                    ),
                    "cmd": "pip-audit",
                },
                {
                    "eco": "Go",
                    "pkg": "golang.org/x/net",
                    "scanner": "govulncheck",
                    "why": "go mod why -m golang.org/x/net and govulncheck's call-stack output",
                    "pin": "go get golang.org/x/net@latest followed by go mod tidy",
                    "cmd": "govulncheck ./...",
                },
                {
                    "eco": "Go",
                    "pkg": "google.golang.org/protobuf",
                    "scanner": "govulncheck",
                    "why": "go mod graph and go mod why -m google.golang.org/protobuf",
                    "pin": "go get google.golang.org/protobuf@latest followed by go mod tidy",
                    "cmd": "govulncheck ./...",
                },
                {
                    "eco": "Maven",
                    "pkg": "jackson-databind",
                    "scanner": "OWASP Dependency-Check",
                    "why": "mvn dependency:tree -Dincludes=com.fasterxml.jackson.core",
                    "pin": "import the jackson-bom at the fixed version in dependencyManagement",
                    "cmd": "mvn -q verify",
                },
                {
                    "eco": "Maven",
                    "pkg": "snakeyaml",
                    "scanner": "OWASP Dependency-Check",
                    "why": "mvn dependency:tree -Dincludes=org.yaml:snakeyaml",
                    "pin": "a dependencyManagement entry for org.yaml:snakeyaml at the fixed version",
                    "cmd": "mvn -q verify",
                },
                {
                    "eco": "Cargo",
                    "pkg": "h2",
                    "scanner": "cargo audit",
                    "why": "cargo tree -i h2",
                    "pin": "cargo update -p h2 --precise with the fixed version, if semver allows it",
                    "cmd": "cargo audit",
                },
                {
                    "eco": "Cargo",
                    "pkg": "idna",
                    "scanner": "cargo audit",
                    "why": "cargo tree -i idna",
                    "pin": "upgrade the url crate that pulls it in, then cargo update -p idna",
                    "cmd": "cargo audit",
                },
                {
                    "eco": "Bundler",
                    "pkg": "rack",
                    "scanner": "bundler-audit",
                    "why": "bundle exec gem dependency rack --reverse-dependencies",
                    "pin": "bundle update --conservative rack",
                    "cmd": "bundle exec bundler-audit check --update",
                },
                {
                    "eco": "Bundler",
                    "pkg": "nokogiri",
                    "scanner": "bundler-audit",
                    "why": "bundle exec gem dependency nokogiri --reverse-dependencies",
                    "pin": "bundle update --conservative nokogiri",
                    "cmd": "bundle exec bundler-audit check --update",
                },
            ),
            "trigger": (
                "A CI gate blocks every merge",
                "A Dependabot alert was escalated",
                "A customer's security review flagged it",
                "The registry's image scan failed",
            ),
        },
    ),
    Problem(
        slug="server_sent_events_buffered_by_proxy",
        category="repair",
        summary=(
            "Deliver {feed} from {stack} as they happen instead of in one burst at the end, behind {proxy}"
        ),
        task=(
            "{feed_cap} streamed with Server-Sent Events from an endpoint built on {stack} arrive all at "
            "once when the stream ends, but only in the deployed setup behind {proxy}. Make events reach "
            "the browser as they are sent."
        ),
        steps=(
            (
                "Rule out the app first: curl -N against the app port directly and see whether events "
                "arrive one by one"
            ),
            "Flush each event from the app: {flush}",
            "Stop the proxy buffering: {proxy_fix}",
            (
                "Exclude text/event-stream from response compression, send a comment line as a heartbeat "
                "every 15 to 30 seconds, and set the proxy read timeout above that interval"
            ),
            "Verify in the deployed environment with curl -N and the browser's EventSource",
        ),
        avoid=(
            (
                "Do not replace the stream with client polling to work around buffering: latency and "
                "request volume go up and the proxy issue remains for other streams"
            ),
            (
                "Do not disable buffering for the whole site: turn it off only for the streaming location, "
                "other responses benefit from it"
            ),
        ),
        signals=("text/event-stream", "{sig}", "{psig}", "/buffer(ed|ing)|arrive all at once/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "FastAPI",
                    ("flush"): (
                        "yield each event from an async generator in a StreamingResponse (or "
                        "sse-starlette's EventSourceResponse), and keep GZipMiddleware away from this route"
                    ),
                    "sig": "streamingresponse",
                    "cmd": "pytest -q tests/test_stream.py",
                },
                {
                    "stack": "Express",
                    ("flush"): (
                        "call res.flushHeaders() once and res.write for each event; with the compression "
                        "middleware, call res.flush() or skip compression for the route"
                    ),
                    "sig": "flushheaders",
                    "cmd": "npx vitest run tests/stream",
                },
                {
                    "stack": "Go net/http",
                    ("flush"): (
                        "assert the ResponseWriter to http.Flusher (or use http.NewResponseController) and "
                        "call Flush after each event"
                    ),
                    "sig": "http.flusher",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "Spring MVC",
                    ("flush"): (
                        "return an SseEmitter and send each event from a separate thread, or return "
                        "Flux<ServerSentEvent<T>> in WebFlux"
                    ),
                    "sig": "sseemitter",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "ASP.NET Core",
                    ("flush"): (
                        "write each event and await Response.Body.FlushAsync(), after disabling buffering "
                        "with IHttpResponseBodyFeature.DisableBuffering()"
                    ),
                    "sig": "disablebuffering",
                    "cmd": "dotnet test",
                },
            ),
            "proxy": (
                {
                    "proxy": "nginx",
                    ("proxy_fix"): (
                        "set proxy_buffering off for the location, or send the X-Accel-Buffering: no header "
                        "from the app"
                    ),
                    "psig": "proxy_buffering",
                },
                {
                    "proxy": "ingress-nginx",
                    ("proxy_fix"): (
                        'add the nginx.ingress.kubernetes.io/proxy-buffering: "off" annotation to the '
                        "Ingress for this path"
                    ),
                    "psig": "proxy-buffering",
                },
                {
                    "proxy": "Apache httpd",
                    ("proxy_fix"): (
                        "add flushpackets=on to the ProxyPass directive and exclude the path from mod_deflate"
                    ),
                    "psig": "flushpackets",
                },
                {
                    "proxy": "IIS with Application Request Routing",
                    ("proxy_fix"): (
                        "set responseBufferLimit to 0 for the route and disable dynamic compression for "
                        "text/event-stream"
                    ),
                    "psig": "responsebufferlimit",
                },
            ),
            "feed": (
                {"feed": "LLM token streams", "feed_cap": "LLM token streams"},
                {"feed": "live build logs", "feed_cap": "Live build logs"},
                {"feed": "bulk-import progress updates", "feed_cap": "Bulk-import progress updates"},
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="bulk_insert_row_by_row_too_slow",
        category="optimize",
        summary=(
            "Speed up {data}, loaded row by row with {stack}, by batching the inserts or using the "
            "database's bulk-load path"
        ),
        task=(
            "{data_cap}: rows are written one INSERT at a time with {stack}, and the load takes hours. Make "
            "it at least ten times faster with the same resulting rows."
        ),
        steps=(
            (
                "Measure the baseline on a realistic sample: rows per second, and the number of statements "
                "and round trips per batch"
            ),
            "Switch to the bulk path: {bulk}",
            (
                "Commit in batches of a few thousand rows instead of per row or one giant transaction, and "
                "stream the input instead of loading it all"
            ),
            (
                "For large initial loads, consider dropping secondary indexes and recreating them "
                "afterwards, and compare the timings"
            ),
            "Verify row counts and a checksum of key columns against the slow path on the same input",
        ),
        avoid=(
            (
                "Do not parallelize single-row inserts across many connections first: lock contention and "
                "pool exhaustion cap the gain, while batching removes the round trips"
            ),
            (
                "Do not disable constraints or foreign keys permanently to go faster: bad rows get in and "
                "are hard to find later"
            ),
        ),
        signals=("{sig}", "bulk insert|batch insert", "/row.by.row|one insert per row/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "psycopg 3 on PostgreSQL",
                    ("bulk"): (
                        "COPY ... FROM STDIN through cursor.copy() with write_row, or executemany, which "
                        "psycopg 3 pipelines"
                    ),
                    "sig": "copy from stdin",
                    "cmd": "pytest -q tests/test_import.py",
                },
                {
                    "stack": "the Django ORM",
                    ("bulk"): (
                        "Model.objects.bulk_create(objs, batch_size=1000), and bulk_update with explicit "
                        "fields for updates"
                    ),
                    "sig": "bulk_create",
                    "cmd": "python manage.py test imports",
                },
                {
                    "stack": "ActiveRecord",
                    ("bulk"): (
                        "insert_all or upsert_all in slices of 1,000 rows, skipping per-row callbacks that "
                        "are not needed"
                    ),
                    "sig": "insert_all",
                    "cmd": "bundle exec rspec spec/imports",
                },
                {
                    "stack": "JDBC on PostgreSQL",
                    ("bulk"): (
                        "addBatch and executeBatch with reWriteBatchedInserts=true in the JDBC URL, or "
                        "CopyManager for COPY"
                    ),
                    "sig": "rewritebatchedinserts",
                    "cmd": "mvn -q test",
                },
                {
                    "stack": "Hibernate",
                    ("bulk"): (
                        "hibernate.jdbc.batch_size with order_inserts, sequence-based IDs (IDENTITY "
                        "disables batching), and flush plus clear every batch"
                    ),
                    "sig": "hibernate.jdbc.batch_size",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "pgx in Go",
                    "bulk": "conn.CopyFrom with pgx.CopyFromRows or a CopyFromSource that streams the input",
                    "sig": "copyfrom",
                    "cmd": "go test ./internal/importer/...",
                },
                {
                    "stack": "EF Core on SQL Server",
                    ("bulk"): (
                        "SqlBulkCopy for the load, or AddRange with SaveChanges per batch and change "
                        "tracking off"
                    ),
                    "sig": "sqlbulkcopy",
                    "cmd": "dotnet test",
                },
            ),
            "data": (
                {
                    "data": "a nightly import of two million product rows",
                    "data_cap": "A nightly import of two million product rows",
                },
                {
                    "data": "clickstream events flushed every minute",
                    "data_cap": "Clickstream events flushed every minute",
                },
                {
                    "data": "customer contacts from CSV uploads",
                    "data_cap": "Customer contacts from CSV uploads",
                },
                {
                    "data": "sensor readings from IoT gateways",
                    "data_cap": "Sensor readings from IoT gateways",
                },
                {
                    "data": "ledger entries from bank statements",
                    "data_cap": "Ledger entries from bank statements",
                },
                {"data": "search-log rows for analytics", "data_cap": "Search-log rows for analytics"},
                {
                    "data": "order history migrated from a legacy system",
                    "data_cap": "Order history migrated from a legacy system",
                },
            ),
        },
    ),
    Problem(
        slug="slow_incremental_builds_local",
        category="optimize",
        summary="Cut {lang} incremental build times for {project} with {levers_short}",
        task=(
            "Developers on {project} wait minutes for each {lang} rebuild after a one-line change. Make "
            "incremental builds fast without changing the build output."
        ),
        steps=(
            "Measure where the time goes before changing anything: {measure}",
            "Make the build incremental and cacheable: {incremental}",
            "Cut the work per change: {structure}",
            (
                "Re-measure the same one-line change in a leaf module and in a widely used module, and "
                "compare with the baseline"
            ),
        ),
        avoid=(
            "Do not turn off type checking or warnings to save time: the errors move to CI and later reviews",
            (
                "Do not rely on a remote or CI cache alone for local speed: local incremental state is what "
                "makes the edit-compile loop fast"
            ),
        ),
        signals=("{sig}", "/slow (incremental )?builds?|build takes minutes/i", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "TypeScript",
                    "levers_short": "project references and incremental tsc",
                    ("measure"): (
                        "tsc --extendedDiagnostics and tsc --generateTrace to see check time per file and "
                        "slow types"
                    ),
                    ("incremental"): (
                        "composite projects with references and tsc -b, incremental: true with "
                        "tsBuildInfoFile, and skipLibCheck"
                    ),
                    ("structure"): (
                        "split the monolithic tsconfig into packages along dependency lines, and transpile "
                        "with esbuild or swc while tsc only type-checks"
                    ),
                    "sig": "tsbuildinfo",
                    "sig2": "project references",
                    "cmd": "npx tsc -b --verbose",
                },
                {
                    "lang": "Rust",
                    "levers_short": "a split crate graph and a faster linker",
                    ("measure"): (
                        "cargo build --timings for the per-crate timeline, and cargo llvm-lines for "
                        "monomorphization bloat"
                    ),
                    ("incremental"): (
                        'keep incremental on in the dev profile, set debug = "line-tables-only", and link '
                        "with mold or lld"
                    ),
                    ("structure"): (
                        "split the large crate into a workspace so a change recompiles one small crate, and "
                        "move heavy generic code behind dyn or non-generic inner functions"
                    ),
                    "sig": "cargo build --timings",
                    "sig2": "mold",
                    "cmd": "cargo build --timings",
                },
                {
                    "lang": "Java",
                    "levers_short": "Gradle's configuration cache and build cache",
                    ("measure"): (
                        "a Gradle build scan (--scan) or --profile to separate configuration time from task "
                        "time"
                    ),
                    ("incremental"): (
                        "enable org.gradle.configuration-cache and org.gradle.caching in gradle.properties, "
                        "and fix tasks that are not cacheable"
                    ),
                    ("structure"): (
                        "declare dependencies as implementation instead of api so a change does not "
                        "recompile every downstream module, and keep configuration-time code lazy"
                    ),
                    "sig": "configuration-cache",
                    "sig2": "build scan",
                    "cmd": "./gradlew build --configuration-cache",
                },
                {
                    "lang": "C++",
                    "levers_short": "ccache, precompiled headers and lighter includes",
                    ("measure"): (
                        "clang's -ftime-trace per translation unit, and ninja's .ninja_log for the slowest "
                        "targets"
                    ),
                    ("incremental"): (
                        "CMAKE_CXX_COMPILER_LAUNCHER=ccache with the Ninja generator, and "
                        "target_precompile_headers for stable heavy headers"
                    ),
                    ("structure"): (
                        "replace includes in headers with forward declarations, split umbrella headers, and "
                        "use the pimpl idiom for classes included everywhere"
                    ),
                    "sig": "ccache",
                    "sig2": "-ftime-trace",
                    "cmd": "cmake --build build --parallel",
                },
            ),
            "project": (
                "a large monorepo service",
                "a desktop app",
                "a trading platform backend",
                "a shared SDK used by five teams",
                "a code-generation heavy API server",
                "a developer tools product",
                "a simulation engine",
                "a payments core library",
                "an analytics backend",
                "a plugin host",
            ),
        },
    ),
    Problem(
        slug="cli_cold_start_too_slow",
        category="optimize",
        summary=(
            "Make {cli} written in {lang} start in well under a second by deferring imports and startup work"
        ),
        task=(
            "{cli_cap}, written in {lang}, takes two to three seconds before it does anything, even for "
            "--help. Make common commands start quickly without changing their behaviour."
        ),
        steps=(
            "Measure startup and attribute it: {measure}",
            "Defer the heavy parts to the commands that need them: {defer}",
            "Remove startup work that runs for every invocation: {startup}",
            (
                "Add a startup-time check in CI (for example --help under a time budget) so regressions are "
                "caught"
            ),
        ),
        avoid=(
            (
                "Do not keep a resident daemon just to hide startup time: it adds state, staleness and a "
                "second failure mode"
            ),
            (
                "Do not move imports into functions blindly everywhere: measure first and defer only the "
                "few modules that dominate"
            ),
        ),
        signals=("{sig}", "/slow startup|cold start|takes \\d+ seconds to start/i", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    ("measure"): (
                        "python -X importtime -c 'import mycli' and tuna to see which imports dominate"
                    ),
                    ("defer"): (
                        "import pandas, boto3 and similar heavy modules inside the command functions that "
                        "use them"
                    ),
                    ("startup"): (
                        "entry-point discovery with pkg_resources (use importlib.metadata), eager plugin "
                        "loading and config parsing for commands that do not need it"
                    ),
                    "sig": "-x importtime",
                    "sig2": "pkg_resources",
                    "cmd": "python -X importtime -m mycli --help",
                },
                {
                    "lang": "Node.js",
                    ("measure"): (
                        "node --cpu-prof on the entry point and the timing of require or import per module"
                    ),
                    "defer": "load heavy modules with dynamic import() inside the command handler",
                    ("startup"): (
                        "bundle the CLI with esbuild into one file to avoid resolving thousands of modules, "
                        "and enable module.enableCompileCache() on Node 22"
                    ),
                    "sig": "enablecompilecache",
                    "sig2": "--cpu-prof",
                    "cmd": "node --cpu-prof bin/cli.js --help",
                },
                {
                    "lang": "Java",
                    ("measure"): (
                        "-Xlog:class+load and -Xlog:startuptime to see class loading and initialization cost"
                    ),
                    ("defer"): (
                        "lazy-initialize framework contexts and avoid classpath scanning for commands that "
                        "need none"
                    ),
                    ("startup"): (
                        "an AppCDS archive (-XX:SharedArchiveFile) for the CLI's classes, or a GraalVM "
                        "native-image build"
                    ),
                    "sig": "appcds",
                    "sig2": "native-image",
                    "cmd": "java -Xlog:startuptime -jar build/libs/cli.jar --help",
                },
                {
                    "lang": "Ruby",
                    "measure": "ruby -r benchmark and Bumbler or require-prof to time each require",
                    ("defer"): (
                        "require heavy gems inside the commands that use them instead of at the top of the "
                        "executable"
                    ),
                    ("startup"): (
                        "bootsnap for load-path and compile caching, and not loading the full Rails "
                        "environment for commands that need none"
                    ),
                    "sig": "bootsnap",
                    "sig2": "require",
                    "cmd": "bundle exec exe/cli --help",
                },
                {
                    "lang": "Go",
                    "measure": "GODEBUG=inittrace=1 to list the time spent in each package's init",
                    ("defer"): (
                        "build regexes, templates and clients lazily with sync.OnceValue instead of in "
                        "package-level vars"
                    ),
                    ("startup"): (
                        "init() functions that read config, compile schemas or open connections for every "
                        "invocation"
                    ),
                    "sig": "inittrace",
                    "sig2": "sync.oncevalue",
                    "cmd": "go build ./...",
                },
            ),
            "cli": (
                {"cli": "a deployment CLI", "cli_cap": "A deployment CLI"},
                {"cli": "a git hook script", "cli_cap": "A git hook script"},
                {"cli": "a shell completion handler", "cli_cap": "A shell completion handler"},
                {"cli": "a data-validation command", "cli_cap": "A data-validation command"},
                {"cli": "an internal dev-tools CLI", "cli_cap": "An internal dev-tools CLI"},
                {"cli": "a log search tool", "cli_cap": "A log search tool"},
                {"cli": "a code generator", "cli_cap": "A code generator"},
                {"cli": "a release helper", "cli_cap": "A release helper"},
            ),
        },
    ),
    Problem(
        slug="parallelize_slow_test_suite_safely",
        category="optimize",
        summary=(
            "Cut the wall time of {suite} by running the tests in parallel with {runner}, giving each "
            "worker its own resources"
        ),
        task=(
            "{suite_cap} takes 40 minutes serially under {runner}. Make it run in parallel on the CI "
            "machine with the same results and no new flakiness."
        ),
        steps=(
            "Measure first: list the slowest tests and the share of time spent in setup versus test bodies",
            "Turn on parallelism: {parallel}",
            "Give each worker isolated resources: {isolate}",
            (
                "Balance the work: split by recorded durations rather than file count, and mark the few "
                "tests that need exclusive resources to run serially"
            ),
            "Run the parallel suite several times and compare pass sets with the serial run",
        ),
        avoid=(
            "Do not share one database or fixed port between workers: tests collide and fail intermittently",
            (
                "Do not set the worker count far above the CPU count of the CI machine: context switching "
                "and memory pressure make the suite slower"
            ),
        ),
        signals=("{sig}", "/test suite (is )?slow|parallel tests?/i", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "runner": (
                {
                    "runner": "pytest",
                    ("parallel"): (
                        "pytest-xdist with -n auto, and --dist loadfile when tests in a module share "
                        "expensive fixtures"
                    ),
                    ("isolate"): (
                        "derive database names, ports and temp dirs from the worker_id fixture (gw0, gw1, "
                        "...)"
                    ),
                    "sig": "pytest-xdist",
                    "sig2": "worker_id",
                    "cmd": "pytest -n auto -q",
                },
                {
                    "runner": "Jest",
                    "parallel": "--maxWorkers=50% locally and --shard=i/n across CI machines",
                    ("isolate"): (
                        "use process.env.JEST_WORKER_ID in the global setup to create a schema, port range "
                        "and temp dir per worker"
                    ),
                    "sig": "jest_worker_id",
                    "sig2": "--shard",
                    "cmd": "npx jest --maxWorkers=50%",
                },
                {
                    "runner": "go test",
                    ("parallel"): (
                        "t.Parallel() in independent tests and the -p and -parallel flags for package and "
                        "test parallelism"
                    ),
                    ("isolate"): (
                        "create a database or schema per test with a random name, and listen on port 0 to "
                        "get a free port"
                    ),
                    "sig": "t.parallel",
                    "sig2": "-parallel",
                    "cmd": "go test -p 8 ./...",
                },
                {
                    "runner": "Gradle with JUnit 5",
                    ("parallel"): (
                        "maxParallelForks for process-level forks and "
                        "junit.jupiter.execution.parallel.enabled for in-process parallelism"
                    ),
                    ("isolate"): (
                        "use the org.gradle.test.worker system property to name per-fork databases, and "
                        "@ResourceLock for tests that need a shared resource"
                    ),
                    "sig": "maxparallelforks",
                    "sig2": "@resourcelock",
                    "cmd": "./gradlew test --parallel",
                },
                {
                    "runner": "RSpec",
                    "parallel": "the parallel_tests gem, splitting by runtime with a recorded runtime log",
                    ("isolate"): (
                        "one database per process using TEST_ENV_NUMBER in database.yml, created with rake "
                        "parallel:setup"
                    ),
                    "sig": "parallel_tests",
                    "sig2": "test_env_number",
                    "cmd": "bundle exec parallel_rspec spec",
                },
                {
                    "runner": "Playwright Test",
                    ("parallel"): (
                        "fullyParallel: true with workers set to the CPU count, and --shard across CI "
                        "machines"
                    ),
                    ("isolate"): (
                        "a separate test user or tenant per worker via testInfo.workerIndex, and "
                        "storageState per worker"
                    ),
                    "sig": "fullyparallel",
                    "sig2": "workerindex",
                    "cmd": "npx playwright test --workers=4",
                },
            ),
            "suite": (
                {
                    "suite": "an API suite backed by PostgreSQL",
                    "suite_cap": "An API suite backed by PostgreSQL",
                },
                {"suite": "a suite of 4,000 unit tests", "suite_cap": "A suite of 4,000 unit tests"},
                {"suite": "end-to-end checkout tests", "suite_cap": "A set of end-to-end checkout tests"},
                {
                    "suite": "a suite heavy on file-system fixtures",
                    "suite_cap": "A suite heavy on file-system fixtures",
                },
                {
                    "suite": "tests that each start an HTTP server",
                    "suite_cap": "A suite whose tests each start an HTTP server",
                },
                {"suite": "a suite that seeds Redis", "suite_cap": "A suite that seeds Redis"},
                {
                    "suite": "contract tests against a stub server",
                    "suite_cap": "A contract test suite against a stub server",
                },
            ),
        },
    ),
    Problem(
        slug="frontend_bundle_too_large",
        category="optimize",
        summary=(
            "Shrink the initial JavaScript bundle of an app built with {bundler} by removing {culprit} from "
            "the main chunk"
        ),
        task=(
            "The first page of an app built with {bundler} ships a 2 MB JavaScript bundle and scores poorly "
            "on load time; analysis points at {culprit}. Cut the initial bundle without removing features."
        ),
        steps=(
            "Analyse the bundle before changing anything: {analyze}",
            "Fix the biggest offender: {fix}",
            "Split by route or feature: {split}",
            (
                "Set a size budget in CI so the main chunk cannot grow back unnoticed, and compare the "
                "production build sizes before and after"
            ),
        ),
        avoid=(
            (
                "Do not judge the result from the development build: tree shaking and minification only run "
                "in production mode"
            ),
            (
                "Do not lazy-load what the first screen needs: it delays the first render and adds a "
                "request waterfall"
            ),
        ),
        signals=("{sig}", "bundle size|chunk size", "/bundle (is )?too (large|big)/i"),
        validation=("{cmd}",),
        slots={
            "bundler": (
                {
                    "bundler": "webpack",
                    "analyze": "webpack-bundle-analyzer on the stats file from a production build",
                    ("split"): (
                        "dynamic import() for routes, and optimization.splitChunks for shared vendor code"
                    ),
                    "sig": "webpack-bundle-analyzer",
                    "cmd": "npx webpack --mode production",
                },
                {
                    "bundler": "Vite",
                    "analyze": "rollup-plugin-visualizer in the production build",
                    ("split"): (
                        "dynamic import() for routes, and build.rollupOptions.output.manualChunks for large "
                        "vendor groups"
                    ),
                    "sig": "rollup-plugin-visualizer",
                    "cmd": "npx vite build",
                },
                {
                    "bundler": "Next.js",
                    "analyze": "@next/bundle-analyzer with ANALYZE=true next build",
                    ("split"): (
                        "next/dynamic for heavy client components, and experimental.optimizePackageImports "
                        "for barrel-file packages"
                    ),
                    "sig": "@next/bundle-analyzer",
                    "cmd": "npx next build",
                },
                {
                    "bundler": "esbuild",
                    "analyze": "the --metafile output loaded into esbuild's bundle analyzer",
                    "split": "--splitting with --format=esm and dynamic import() at route boundaries",
                    "sig": "metafile",
                    ("cmd"): (
                        "npx esbuild src/main.ts --bundle --minify --splitting --format=esm --outdir=dist "
                        "--metafile=meta.json"
                    ),
                },
                {
                    "bundler": "Angular CLI",
                    "analyze": "source-map-explorer on the production build's main bundle",
                    ("split"): (
                        "lazy routes with loadComponent or loadChildren, and @defer blocks for heavy widgets"
                    ),
                    "sig": "source-map-explorer",
                    "cmd": "npx ng build --configuration production",
                },
            ),
            "culprit": (
                {
                    "culprit": "the whole lodash package",
                    "fix": "import single functions from lodash-es so unused ones are tree-shaken",
                },
                {
                    "culprit": "moment with every locale",
                    "fix": "replace moment with date-fns or Day.js, or at least drop unused locales",
                },
                {
                    "culprit": "an icon library imported from its barrel file",
                    "fix": "import icons by their individual paths",
                },
                {
                    "culprit": "a charting library used on one page",
                    "fix": "load the chart component with a dynamic import on that page only",
                },
                {
                    "culprit": "polyfills for browsers no longer supported",
                    "fix": "raise the browserslist target and drop the legacy polyfills",
                },
                {
                    "culprit": "two versions of the same date library",
                    "fix": "dedupe the versions in the lockfile so one copy is bundled",
                },
                {
                    "culprit": "a rich-text editor",
                    "fix": "load the editor lazily when the user opens the editing view",
                },
                {
                    "culprit": "the monolithic AWS SDK v2",
                    "fix": "move to the modular AWS SDK v3 clients and import only the commands used",
                },
            ),
        },
    ),
    Problem(
        slug="vectorize_rowwise_dataframe_code",
        category="optimize",
        summary=(
            "Replace a row-by-row pandas apply that computes {op} with {engine}, for a large speedup with "
            "identical results"
        ),
        task=(
            "A pandas pipeline computes {op} with df.apply(axis=1) over ten million rows and takes 40 "
            "minutes. Rewrite it with {engine} and prove the output is unchanged."
        ),
        steps=(
            (
                "Profile on a sample to confirm the row-wise function dominates, and save the current "
                "output on that sample as the expected result"
            ),
            "Rewrite the logic as whole-column operations: {how}",
            (
                "Handle the edge cases the row function handled implicitly: missing values, empty strings "
                "and dtype conversions"
            ),
            (
                "Compare against the saved output with pandas.testing.assert_frame_equal (or a tolerance "
                "for floats), then time the full run"
            ),
        ),
        avoid=(
            (
                "Do not parallelize the slow apply across processes as the first step: it multiplies memory "
                "use and still runs Python per row"
            ),
            (
                "Do not accept small numeric differences silently: check whether they come from float order "
                "of operations or from a logic change"
            ),
        ),
        signals=("{sig}", "df.apply|iterrows", "/axis\\s*=\\s*1/"),
        validation=("pytest -q tests/test_pipeline.py",),
        slots={
            "engine": (
                {
                    "engine": "vectorized pandas operations",
                    ("how"): (
                        "arithmetic on Series, np.where and np.select for branches, Series.map for lookups "
                        "and the .str and .dt accessors"
                    ),
                    "sig": "np.select",
                },
                {
                    "engine": "NumPy arrays",
                    ("how"): (
                        "pull the columns out with to_numpy(), compute with broadcasting and ufuncs, and "
                        "assign the result back once"
                    ),
                    "sig": "to_numpy",
                },
                {
                    "engine": "Polars expressions",
                    ("how"): (
                        "pl.when().then().otherwise() for branches, join for lookups and with_columns for "
                        "derived fields, run lazily"
                    ),
                    "sig": "polars",
                },
                {
                    "engine": "DuckDB SQL over the DataFrame",
                    ("how"): (
                        "query the DataFrame in place with duckdb.sql, using CASE for branches and joins "
                        "for lookups, and return .df()"
                    ),
                    "sig": "duckdb",
                },
            ),
            "op": (
                "tiered shipping fees by weight band",
                "a haversine distance per row",
                "cleaned product names",
                "flags for transactions above a customer's average",
                "age bands",
                "amounts converted with a currency rates table",
                "fields parsed out of a JSON column",
                "a score from five weighted features",
                "the domain of each email address",
                "days between order and delivery",
            ),
        },
    ),
    Problem(
        slug="ci_runs_every_package_on_each_change",
        category="optimize",
        summary=(
            "Run only the affected packages' tests in a monorepo managed with {tool} on {ci}, instead of "
            "the whole repo on every pull request"
        ),
        task=(
            "Every pull request in a monorepo managed with {tool} runs all builds and tests on {ci} and "
            "takes 50 minutes, even for a one-package change. Make CI run only what the change can affect, "
            "without missing real breakage."
        ),
        steps=(
            (
                "Make sure the dependency graph is complete: every package declares its internal "
                "dependencies, so the tool can compute dependents"
            ),
            "Compute the affected set against the merge base: {affected}",
            (
                "Give the CI checkout enough history for that comparison (a full fetch or the base branch "
                "fetched), otherwise everything or nothing is affected"
            ),
            (
                "Always run the full build for changes to root config, lockfiles and CI files, and on the "
                "main branch after merge"
            ),
            (
                "Compare a week of affected-only runs against full runs on main to confirm nothing slipped "
                "through"
            ),
        ),
        avoid=(
            (
                "Do not select tests by changed file paths with hand-written globs: dependents of a changed "
                "library are missed"
            ),
            (
                "Do not skip the full run on the main branch: an incomplete dependency graph would "
                "otherwise hide breakage indefinitely"
            ),
        ),
        signals=("{sig}", "affected|changed since", "monorepo"),
        validation=("{cmd}",),
        slots={
            "tool": (
                {
                    "tool": "Nx",
                    "affected": "nx affected -t lint test build --base=origin/main --head=HEAD",
                    "sig": "nx affected",
                    "cmd": "npx nx affected -t test --base=origin/main",
                },
                {
                    "tool": "Turborepo",
                    ("affected"): (
                        "turbo run test --filter=...[origin/main], which includes dependents of changed "
                        "packages"
                    ),
                    "sig": "turbo run",
                    "cmd": "npx turbo run test --filter=...[origin/main]",
                },
                {
                    "tool": "Bazel",
                    ("affected"): (
                        "bazel-diff (or bazel query 'rdeps(//..., set(changed targets))') to list impacted "
                        "targets, then test those"
                    ),
                    "sig": "bazel-diff",
                    "cmd": "bazel test //...",
                },
                {
                    "tool": "Pants",
                    "affected": "pants --changed-since=origin/main --changed-dependents=transitive test",
                    "sig": "--changed-since",
                    "cmd": "pants --changed-since=origin/main --changed-dependents=transitive test",
                },
                {
                    "tool": "Lerna",
                    ("affected"): (
                        "lerna run test --since origin/main, which includes packages that depend on the "
                        "changed ones"
                    ),
                    "sig": "lerna run",
                    "cmd": "npx lerna run test --since origin/main",
                },
            ),
            "ci": (
                "GitHub Actions",
                "GitLab CI",
                "CircleCI",
                "Buildkite",
                "Jenkins",
                "Azure Pipelines",
                "Bitbucket Pipelines",
                "TeamCity",
            ),
        },
    ),
    Problem(
        slug="static_assets_not_cached_by_browsers",
        category="optimize",
        summary=(
            "Make browsers cache {assets} from {server} for a year with fingerprinted file names, so repeat "
            "visits download nothing"
        ),
        task=(
            "Every page view re-downloads {assets} served by {server}, because responses carry no useful "
            "cache headers; deploys must still show new versions immediately. Make repeat visits fast and "
            "deploys safe."
        ),
        steps=(
            (
                "Inspect the current responses in the browser's network panel or with curl -I: "
                "Cache-Control, ETag and whether file names change between builds"
            ),
            (
                "Emit content-hashed file names from the build (main.3f9a1c.js), and reference them from "
                "the HTML through the build manifest"
            ),
            "Serve hashed files with Cache-Control: public, max-age=31536000, immutable: {config}",
            (
                "Serve the HTML itself with Cache-Control: no-cache so each visit revalidates it and picks "
                "up the new hashes"
            ),
            (
                "Check a deploy end to end: old tabs keep working, a reload fetches only the new HTML and "
                "changed assets"
            ),
        ),
        avoid=(
            (
                "Do not set long cache lifetimes on files whose names do not change: users then run stale "
                "code until the cache expires"
            ),
            (
                "Do not delete the previous build's assets on deploy: open tabs still request the old "
                "hashed files and break"
            ),
        ),
        signals=("Cache-Control", "immutable", "{sig}"),
        validation=("{cmd}",),
        slots={
            "server": (
                {
                    "server": "nginx",
                    ("config"): (
                        "a location block for the assets path that adds the header with add_header ... "
                        "always and expires"
                    ),
                    "sig": "add_header",
                    "cmd": "nginx -t",
                },
                {
                    "server": "Express",
                    ("config"): (
                        "express.static(dir, { immutable: true, maxAge: '1y' }) for the assets directory "
                        "and a separate no-cache route for index.html"
                    ),
                    "sig": "express.static",
                    "cmd": "npx vitest run",
                },
                {
                    "server": "Django with WhiteNoise",
                    ("config"): (
                        "CompressedManifestStaticFilesStorage, which hashes names and lets WhiteNoise send "
                        "far-future headers"
                    ),
                    "sig": "whitenoise",
                    "cmd": "python manage.py collectstatic --noinput",
                },
                {
                    "server": "an S3 bucket behind CloudFront",
                    ("config"): (
                        "upload hashed files with --cache-control 'public,max-age=31536000,immutable' and "
                        "the HTML with no-cache, and avoid invalidating hashed paths"
                    ),
                    "sig": "cloudfront",
                    "cmd": "aws s3 sync dist s3://app-assets --dryrun",
                },
                {
                    "server": "ASP.NET Core",
                    ("config"): (
                        "UseStaticFiles with OnPrepareResponse setting the header for fingerprinted files "
                        "(or MapStaticAssets in .NET 9)"
                    ),
                    "sig": "usestaticfiles",
                    "cmd": "dotnet test",
                },
                {
                    "server": "Spring Boot",
                    ("config"): (
                        "spring.web.resources.chain.strategy.content.enabled=true and "
                        "spring.web.resources.cache.cachecontrol.max-age=365d"
                    ),
                    "sig": "spring.web.resources",
                    "cmd": "./gradlew test",
                },
            ),
            "assets": (
                "the JavaScript bundles",
                "the CSS files",
                "web fonts",
                "product images",
                "the icon sprite",
                "the WebAssembly module",
                "the localized message catalogs",
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="add_rate_limiting_to_endpoint",
        category="innovate",
        summary=(
            "Add rate limiting for {target} to an API built on {stack} with {lib}, shared across instances "
            "and answering 429 with Retry-After"
        ),
        task=(
            "Abuse of an API built on {stack} is hurting other users; add a rate limit for {target} that "
            "holds across all instances of the service and tells clients when to retry."
        ),
        steps=(
            (
                "Choose the key and limit from real traffic: per account, per API client or per IP, and a "
                "burst allowance above normal peak use"
            ),
            "Implement it with {lib}: {how}",
            (
                "Keep the counters in a shared store (Redis) with atomic operations, so every instance sees "
                "the same budget"
            ),
            (
                "Respond with 429 Too Many Requests and a Retry-After header, and expose the remaining "
                "budget in RateLimit headers"
            ),
            "Test the limit boundary, the reset after the window, and two instances sharing one budget",
        ),
        avoid=(
            (
                "Do not keep the counters in process memory when the service runs several instances: each "
                "instance grants the full limit"
            ),
            (
                "Do not key the limit on a header the client controls (such as X-Forwarded-For from the "
                "open internet): attackers rotate it freely"
            ),
        ),
        signals=("429 Too Many Requests", "Retry-After", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Express",
                    "lib": "express-rate-limit and rate-limit-redis",
                    "how": "a limiter per route with a keyGenerator for the chosen key and a RedisStore",
                    "sig": "express-rate-limit",
                    "cmd": "npx vitest run tests/ratelimit",
                },
                {
                    "stack": "FastAPI",
                    "lib": "a Redis token bucket in a Lua script",
                    ("how"): (
                        "a dependency that runs the script atomically with EVALSHA and raises "
                        "HTTPException(429) with the retry delay"
                    ),
                    "sig": "token bucket",
                    "cmd": "pytest -q tests/test_ratelimit.py",
                },
                {
                    "stack": "Spring Boot",
                    "lib": "Bucket4j with its Redis (Lettuce) proxy manager",
                    ("how"): (
                        "a HandlerInterceptor that resolves the bucket for the key and calls "
                        "tryConsumeAndReturnRemaining"
                    ),
                    "sig": "bucket4j",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Go",
                    "lib": "go-redis/redis_rate",
                    ("how"): (
                        "middleware that calls limiter.Allow(ctx, key, redis_rate.PerMinute(n)) and writes "
                        "RetryAfter from the result"
                    ),
                    "sig": "redis_rate",
                    "cmd": "go test ./internal/middleware/...",
                },
                {
                    "stack": "ASP.NET Core",
                    "lib": "the built-in rate limiting middleware with a Redis-backed partition",
                    ("how"): (
                        "AddRateLimiter with a partitioned policy keyed on the user or client, OnRejected "
                        "setting Retry-After"
                    ),
                    "sig": "addratelimiter",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Rails",
                    "lib": "Rack::Attack with Rails.cache on Redis",
                    "how": "a throttle block returning the key, and throttled_responder adding Retry-After",
                    "sig": "rack::attack",
                    "cmd": "bundle exec rspec spec/requests/throttle_spec.rb",
                },
            ),
            "target": (
                "login attempts per account",
                "password reset emails",
                "a public search API per client",
                "SMS verification codes",
                "report exports per tenant",
                "GraphQL requests per user",
                "file uploads per IP",
                "coupon redemptions",
            ),
        },
    ),
    Problem(
        slug="add_idempotency_keys_to_post_endpoint",
        category="innovate",
        summary=(
            "Make {endpoint} in an API built on {stack} safe to retry by honouring an Idempotency-Key "
            "header and replaying the stored response"
        ),
        task=(
            "Clients retry {endpoint} on timeouts, and each retry creates another record. Add "
            "Idempotency-Key support to the service so a retried request returns the first result and "
            "creates nothing new."
        ),
        steps=(
            (
                "Add a table keyed by (client, idempotency key) storing a hash of the request body, a "
                "status (in progress or done) and the response status and body"
            ),
            "At the start of the request, claim the key atomically: {claim}",
            (
                "If the key exists and is done, return the stored response; if it is in progress, return "
                "409; if the body hash differs, return 422"
            ),
            (
                "Do the work and store the response in the same transaction as the created records, so a "
                "crash cannot leave one without the other"
            ),
            (
                "Expire keys after a retention period (for example 24 hours), and test concurrent "
                "duplicates, sequential retries and a changed body"
            ),
        ),
        avoid=(
            (
                "Do not treat the key as a cache that is filled after the work is done: two concurrent "
                "retries both miss and both do the work"
            ),
            (
                "Do not store only the created record's ID as the response: the replay must return the same "
                "status and body the first call returned"
            ),
        ),
        signals=("Idempotency-Key", "/duplicate (charges?|orders?|records?) on retry/i", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Express with PostgreSQL",
                    ("claim"): (
                        "INSERT ... ON CONFLICT DO NOTHING RETURNING through node-postgres, and read the "
                        "existing row when nothing is returned"
                    ),
                    "sig": "on conflict do nothing",
                    "cmd": "npx vitest run tests/idempotency",
                },
                {
                    "stack": "FastAPI with PostgreSQL",
                    ("claim"): (
                        "an INSERT ... ON CONFLICT DO NOTHING through SQLAlchemy in a dependency that runs "
                        "before the handler"
                    ),
                    "sig": "on_conflict_do_nothing",
                    "cmd": "pytest -q tests/test_idempotency.py",
                },
                {
                    "stack": "Spring Boot with PostgreSQL",
                    ("claim"): (
                        "an insert that catches DataIntegrityViolationException on the unique key, inside a "
                        "filter or aspect around the controller"
                    ),
                    "sig": "dataintegrityviolationexception",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Rails with PostgreSQL",
                    "claim": "IdempotencyKey.create_or_find_by!(client_id:, key:) in a before_action",
                    "sig": "create_or_find_by",
                    "cmd": "bundle exec rspec spec/requests/idempotency_spec.rb",
                },
                {
                    "stack": "Go with PostgreSQL",
                    ("claim"): (
                        "an INSERT ... ON CONFLICT DO NOTHING with pgx, checking RowsAffected in the "
                        "middleware"
                    ),
                    "sig": "rowsaffected",
                    "cmd": "go test ./internal/idempotency/...",
                },
                {
                    "stack": "ASP.NET Core with SQL Server",
                    ("claim"): (
                        "an insert into a table with a unique index, catching the duplicate-key "
                        "DbUpdateException, in an endpoint filter"
                    ),
                    "sig": "iendpointfilter",
                    "cmd": "dotnet test",
                },
            ),
            "endpoint": (
                "POST /payments",
                "POST /orders",
                "POST /refunds",
                "POST /transfers",
                "POST /subscriptions",
                "POST /shipping-labels",
                "POST /payouts",
                "POST /invoices/send",
            ),
        },
    ),
    Problem(
        slug="recursive_cte_for_hierarchy_queries",
        category="innovate",
        summary="Write a recursive CTE in {db} over {tree} that returns {question}, guarded against cycles",
        task=(
            "An application loads {tree} row by row in a loop to compute {question}, issuing hundreds of "
            "queries. Replace it with one recursive query on {db}."
        ),
        steps=(
            (
                "Write the anchor member that selects the starting rows, and the recursive member that "
                "joins children to the previous level: {syntax}"
            ),
            (
                "Carry depth and a path (array or delimited string) in the recursive columns to order "
                "results and detect cycles"
            ),
            "Stop cycles and runaway depth: {cycle}",
            (
                "Index the parent column used in the join, then compare the result with the old loop's "
                "output on production-like data"
            ),
        ),
        avoid=(
            (
                "Do not leave the recursion without a cycle guard or depth limit: one bad parent reference "
                "makes the query run until it hits a server limit"
            ),
            (
                "Do not rebuild the tree in application code after fetching everything: the point is to let "
                "the database walk it in one round trip"
            ),
        ),
        signals=("{sig}", "recursive cte|hierarchical query", "/parent_id|adjacency list/i"),
        validation=("{cmd}",),
        slots={
            "db": (
                {
                    "db": "PostgreSQL",
                    ("syntax"): (
                        "WITH RECURSIVE tree AS (anchor UNION ALL recursive member) SELECT ... FROM tree"
                    ),
                    ("cycle"): (
                        "the CYCLE id SET is_cycle USING path clause (PostgreSQL 14+) or a path array "
                        "checked with NOT (id = ANY(path))"
                    ),
                    "sig": "with recursive",
                    "cmd": "pytest -q tests/test_hierarchy.py",
                },
                {
                    "db": "MySQL 8",
                    ("syntax"): (
                        "WITH RECURSIVE tree AS (anchor UNION ALL recursive member), casting the path "
                        "column wide enough in the anchor"
                    ),
                    ("cycle"): (
                        "a FIND_IN_SET check on the path string plus a depth column limit, within "
                        "cte_max_recursion_depth"
                    ),
                    "sig": "cte_max_recursion_depth",
                    "cmd": "pytest -q tests/test_hierarchy.py",
                },
                {
                    "db": "SQL Server",
                    ("syntax"): (
                        "WITH tree AS (anchor UNION ALL recursive member), without the RECURSIVE keyword"
                    ),
                    ("cycle"): (
                        "a path column checked with CHARINDEX plus OPTION (MAXRECURSION n) on the outer query"
                    ),
                    "sig": "maxrecursion",
                    "cmd": "dotnet test",
                },
                {
                    "db": "SQLite",
                    "syntax": "WITH RECURSIVE tree(...) AS (anchor UNION ALL recursive member)",
                    ("cycle"): (
                        "a path string checked with instr() and a depth limit in the recursive WHERE clause"
                    ),
                    "sig": "with recursive",
                    "cmd": "pytest -q tests/test_hierarchy.py",
                },
                {
                    "db": "Oracle",
                    ("syntax"): (
                        "recursive subquery factoring, WITH tree (cols) AS (anchor UNION ALL recursive "
                        "member)"
                    ),
                    ("cycle"): (
                        "the CYCLE id SET is_cycle TO 'Y' DEFAULT 'N' clause, or CONNECT BY NOCYCLE for the "
                        "older syntax"
                    ),
                    "sig": "connect by",
                    "cmd": "mvn -q test",
                },
            ),
            "tree": (
                {"tree": "an org chart", "question": "every report under a manager with their depth"},
                {"tree": "a product category tree", "question": "all descendant categories of a menu entry"},
                {
                    "tree": "a bill of materials",
                    "question": "the total quantity of each component in an assembly",
                },
                {"tree": "threaded comments", "question": "a whole thread in display order"},
                {"tree": "a folder tree", "question": "the full path of every file"},
                {"tree": "customer referrals", "question": "referral chains up to five levels deep"},
                {"tree": "a task dependency graph", "question": "every task blocked by a given task"},
                {"tree": "a chart of accounts", "question": "balances rolled up to each parent account"},
            ),
        },
    ),
    Problem(
        slug="full_text_search_instead_of_like",
        category="innovate",
        summary="Replace LIKE '%term%' scans over {content} with ranked full-text search using {engine}",
        task=(
            "Search over {content} uses LIKE '%term%', which is slow, misses word forms and returns "
            "unranked results. Build full-text search with {engine} that ranks results and handles "
            "stemming."
        ),
        steps=(
            (
                "Define what is searchable and how fields are weighted (title above body), and collect 20 "
                "real queries with the results users expect"
            ),
            "Build the index: {index}",
            "Query it with user input safely: {query}",
            (
                "Keep the index in sync with writes (generated columns, triggers or an indexing job), and "
                "check the 20 queries plus the latency on production-sized data"
            ),
        ),
        avoid=(
            (
                "Do not build the query syntax by concatenating user input: operators and quotes in the "
                "input cause errors or unexpected matches"
            ),
            (
                "Do not add a B-tree index on the column and expect LIKE '%term%' to use it: a leading "
                "wildcard cannot use it"
            ),
        ),
        signals=("LIKE '%", "full-text search|fulltext", "{sig}"),
        validation=("{cmd}",),
        slots={
            "engine": (
                {
                    "engine": "PostgreSQL tsvector",
                    ("index"): (
                        "a generated tsvector column built with setweight(to_tsvector('english', title), "
                        "'A') and the body as 'B', with a GIN index"
                    ),
                    ("query"): (
                        "websearch_to_tsquery('english', :q), ranked with ts_rank_cd and highlighted with "
                        "ts_headline"
                    ),
                    "sig": "websearch_to_tsquery",
                    "cmd": "pytest -q tests/test_search.py",
                },
                {
                    "engine": "MySQL FULLTEXT",
                    ("index"): (
                        "a FULLTEXT index on the searchable columns, with innodb_ft_min_token_size and the "
                        "stopword list checked"
                    ),
                    ("query"): (
                        "MATCH (title, body) AGAINST (:q IN NATURAL LANGUAGE MODE), or BOOLEAN MODE with "
                        "operators stripped from input"
                    ),
                    "sig": "match against",
                    "cmd": "pytest -q tests/test_search.py",
                },
                {
                    "engine": "SQLite FTS5",
                    ("index"): (
                        "a CREATE VIRTUAL TABLE ... USING fts5(title, body, tokenize='porter unicode61') "
                        "kept in sync by triggers"
                    ),
                    "query": "MATCH with the input quoted as phrases, ordered by bm25(table, 10.0, 1.0)",
                    "sig": "fts5",
                    "cmd": "pytest -q tests/test_search.py",
                },
                {
                    "engine": "Elasticsearch",
                    ("index"): (
                        "an index with a language analyzer per text field and a keyword subfield for exact "
                        "filters, fed by a bulk indexing job"
                    ),
                    ("query"): (
                        "a multi_match query with field boosts (title^3) and a simple_query_string for user "
                        "input"
                    ),
                    "sig": "multi_match",
                    "cmd": "npx vitest run tests/search",
                },
                {
                    "engine": "Meilisearch",
                    ("index"): (
                        "an index with searchableAttributes ordered by importance, filterableAttributes and "
                        "synonyms configured"
                    ),
                    ("query"): (
                        "the search endpoint with the raw user query, which Meilisearch parses safely, plus "
                        "filters for access control"
                    ),
                    "sig": "meilisearch",
                    "cmd": "npx vitest run tests/search",
                },
            ),
            "content": (
                "help-center articles",
                "product titles and descriptions",
                "support tickets",
                "recipes",
                "contract clauses",
                "job postings",
                "podcast transcripts",
                "internal wiki pages",
            ),
        },
    ),
    Problem(
        slug="publish_typescript_library_esm_and_cjs",
        category="innovate",
        summary=(
            "Publish {lib} as a TypeScript package that works with both import and require, built with "
            "{builder}"
        ),
        task=(
            "{lib_cap} is published as ESM only, and CommonJS consumers fail with ERR_REQUIRE_ESM while "
            "some TypeScript users get no types. Ship a package that works for ESM, CommonJS and TypeScript "
            "consumers."
        ),
        steps=(
            "Build two outputs with matching type declarations: {build}",
            (
                "Describe them in package.json exports with import and require conditions, each pointing at "
                "its own types file (.d.mts next to .mjs, .d.cts next to .cjs)"
            ),
            (
                "Keep main, module and types as fallbacks for older tools, and set sideEffects: false if "
                "the library has none"
            ),
            (
                "Check the packed tarball with publint and @arethetypeswrong/cli, and smoke-test require() "
                "and import in two tiny consumer projects"
            ),
        ),
        avoid=(
            (
                "Do not point both conditions at one types file: TypeScript then resolves the wrong module "
                "format and reports false errors"
            ),
            (
                "Do not keep state in module scope if both builds can be loaded in one process: the "
                "dual-package hazard gives consumers two copies"
            ),
        ),
        signals=("ERR_REQUIRE_ESM", "exports", "{sig}"),
        validation=("npm pack --dry-run", "npx publint", "npx @arethetypeswrong/cli --pack ."),
        slots={
            "builder": (
                {"builder": "tsup", "build": "tsup src/index.ts --format esm,cjs --dts", "sig": "tsup"},
                {
                    "builder": "Rollup",
                    ("build"): (
                        "two output entries (format es to .mjs and cjs to .cjs) with rollup-plugin-dts for "
                        "declarations"
                    ),
                    "sig": "rollup",
                },
                {
                    "builder": "tshy",
                    "build": "tshy with the dialects esm and commonjs, which also writes the exports map",
                    "sig": "tshy",
                },
                {
                    "builder": "unbuild",
                    "build": "unbuild with rollup.emitCJS: true and declaration: true in build.config.ts",
                    "sig": "unbuild",
                },
                {
                    "builder": "plain tsc",
                    ("build"): (
                        "two tsconfig files (module NodeNext to dist/esm and CommonJS to dist/cjs), plus a "
                        "package.json with type commonjs in dist/cjs"
                    ),
                    "sig": "nodenext",
                },
            ),
            "lib": (
                {"lib": "a date-formatting utility", "lib_cap": "A date-formatting utility"},
                {"lib": "an API client SDK", "lib_cap": "An API client SDK"},
                {"lib": "a React hooks package", "lib_cap": "A React hooks package"},
                {"lib": "a validation library", "lib_cap": "A validation library"},
                {"lib": "a CLI helper toolkit", "lib_cap": "A CLI helper toolkit"},
                {"lib": "a feature-flag client", "lib_cap": "A feature-flag client"},
                {"lib": "a logging wrapper", "lib_cap": "A logging wrapper"},
                {"lib": "a markdown renderer", "lib_cap": "A markdown renderer"},
            ),
        },
    ),
    Problem(
        slug="build_platform_wheels_for_extension",
        category="innovate",
        summary=(
            "Publish prebuilt wheels for {platform} for a Python package with {ext}, using cibuildwheel in CI"
        ),
        task=(
            "Users on {platform} must compile a Python package with {ext} from source, and installs fail "
            "without a toolchain. Build and publish binary wheels so pip never needs a compiler there."
        ),
        steps=(
            "Declare the build backend in pyproject.toml: {backend}",
            "Configure cibuildwheel in [tool.cibuildwheel] for the target: {target}",
            (
                "Set test-requires and a test-command that runs pytest on the project's tests, so "
                "cibuildwheel installs and tests each wheel in a clean environment"
            ),
            (
                "Build wheels and the sdist in a CI matrix, upload them as artifacts, and publish to PyPI "
                "with trusted publishing from the release job"
            ),
        ),
        avoid=(
            (
                "Do not upload wheels built on a developer machine: they link against that machine's "
                "libraries and break for users"
            ),
            "Do not skip the sdist: platforms without a wheel then have no way to install the package at all",
        ),
        signals=("cibuildwheel", "{sig}", "/no matching distribution|failed building wheel/i"),
        validation=("python -m cibuildwheel --print-build-identifiers",),
        slots={
            "ext": (
                {
                    "ext": "a Cython extension",
                    "backend": "setuptools with Cython in build-system.requires",
                    "sig": "cython",
                },
                {
                    "ext": "a Rust extension built with PyO3",
                    "backend": "maturin as the build backend, with the pyo3 abi3 feature if the code allows",
                    "sig": "maturin",
                },
                {
                    "ext": "a pybind11 C++ extension",
                    "backend": "scikit-build-core with pybind11 in build-system.requires",
                    "sig": "scikit-build-core",
                },
                {
                    "ext": "a plain C extension",
                    "backend": "setuptools with an ext_modules entry in setup.py",
                    "sig": "ext_modules",
                },
                {
                    "ext": "a nanobind module",
                    "backend": "scikit-build-core with nanobind, targeting the stable ABI on 3.12+",
                    "sig": "nanobind",
                },
            ),
            "platform": (
                {
                    "platform": "Linux x86_64 and aarch64 (manylinux)",
                    ("target"): (
                        "archs = ['x86_64', 'aarch64'] on Linux, using QEMU or native arm runners for aarch64"
                    ),
                },
                {
                    "platform": "Alpine (musllinux)",
                    "target": "build = ['*-musllinux_*'] alongside the manylinux builds",
                },
                {
                    "platform": "macOS on Intel and Apple Silicon",
                    "target": "archs = ['x86_64', 'arm64'] (or universal2) with MACOSX_DEPLOYMENT_TARGET set",
                },
                {
                    "platform": "Windows",
                    "target": "archs = ['AMD64', 'ARM64'] on windows runners, with the MSVC toolchain",
                },
                {
                    "platform": "free-threaded Python 3.13",
                    "target": "enable = ['cpython-freethreading'] and test the extension without the GIL",
                },
                {
                    "platform": "PyPy",
                    "target": "enable = ['pypy'] and skip features that rely on CPython internals",
                },
                {
                    "platform": "Linux on ARM servers",
                    "target": "native ubuntu arm runners with archs = ['aarch64'] to avoid slow emulation",
                },
                {
                    "platform": "every CPython version from 3.9 up",
                    ("target"): (
                        "build = ['cp39-*', 'cp310-*', ...], or one abi3 wheel per platform where the "
                        "stable ABI suffices"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="add_liveness_and_readiness_checks",
        category="innovate",
        summary=(
            "Add separate liveness and readiness endpoints to a service built on {stack} that depends on "
            "{dep}"
        ),
        task=(
            "A service built on {stack} and depending on {dep} has a single /health route that always "
            "returns 200, so Kubernetes keeps routing traffic to broken pods and restarts healthy ones at "
            "startup. Add proper liveness, readiness and startup checks."
        ),
        steps=(
            (
                "Define the checks: liveness says the process is not wedged (no dependency calls); "
                "readiness says it can serve traffic now ({dep} reachable, warm-up finished)"
            ),
            "Implement them: {impl}",
            (
                "Give each dependency check a short timeout and cache the result for a few seconds so "
                "probes cannot pile up load on {dep}"
            ),
            (
                "Wire the probes in the Deployment: a startupProbe for slow boots, readinessProbe on the "
                "readiness path, livenessProbe on the liveness path with generous thresholds"
            ),
            (
                "Test by stopping {dep} (readiness turns 503 and traffic drains, liveness stays 200) and by "
                "blocking the main loop (liveness fails)"
            ),
        ),
        avoid=(
            (
                "Do not check {dep} in the liveness probe: a dependency outage then restarts every pod at "
                "once and turns a blip into a full outage"
            ),
            (
                "Do not return detailed dependency errors or versions on public health endpoints: expose "
                "them on an internal port only"
            ),
        ),
        signals=("readinessProbe", "livenessProbe", "{sig}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "Spring Boot",
                    ("impl"): (
                        "Actuator health groups with management.endpoint.health.probes.enabled=true, and a "
                        "custom HealthIndicator in the readiness group only"
                    ),
                    "sig": "/actuator/health/readiness",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "ASP.NET Core",
                    ("impl"): (
                        "AddHealthChecks with tags, and MapHealthChecks for /healthz/live (no checks) and "
                        "/healthz/ready (Predicate on the ready tag)"
                    ),
                    "sig": "maphealthchecks",
                    "cmd": "dotnet test",
                },
                {
                    "stack": "Express",
                    ("impl"): (
                        "@godaddy/terminus or two small routes: /livez returns 200, /readyz runs the "
                        "dependency checks and flips to 503 during shutdown"
                    ),
                    "sig": "/readyz",
                    "cmd": "npx vitest run tests/health",
                },
                {
                    "stack": "FastAPI",
                    ("impl"): (
                        "/livez returning 200 and /readyz running async dependency checks with "
                        "asyncio.timeout, set ready only after the lifespan startup completes"
                    ),
                    "sig": "/livez",
                    "cmd": "pytest -q tests/test_health.py",
                },
                {
                    "stack": "Go",
                    ("impl"): (
                        "two http.HandlerFunc routes, with an atomic.Bool set after warm-up and cleared at "
                        "the start of graceful shutdown"
                    ),
                    "sig": "atomic.bool",
                    "cmd": "go test ./internal/health/...",
                },
                {
                    "stack": "Rails",
                    ("impl"): (
                        "keep Rails 7.1's /up as liveness and add a readiness controller that checks each "
                        "dependency with a short timeout"
                    ),
                    "sig": "rails/health",
                    "cmd": "bundle exec rspec spec/requests/health_spec.rb",
                },
            ),
            "dep": (
                "PostgreSQL and Redis",
                "a Kafka cluster",
                "an object storage bucket",
                "a downstream payments API",
                "an Elasticsearch cluster",
                "a gRPC pricing service",
                "RabbitMQ",
                "a large ML model loaded at startup",
            ),
        },
    ),
    Problem(
        slug="limit_graphql_query_cost",
        category="innovate",
        summary=(
            "Protect a GraphQL API served by {server} from {abuse} with depth and cost limits enforced "
            "before execution"
        ),
        task=(
            "A public GraphQL API on {server} can be brought down by {abuse}. Reject expensive operations "
            "before they run, while normal client queries keep working."
        ),
        steps=(
            (
                "Collect the operations real clients send (from logs or persisted queries) and compute "
                "their depth and cost to set limits with headroom"
            ),
            "Add validation rules that run before execution: {rules}",
            (
                "Assign costs per field: list fields cost their page-size argument times the child cost, "
                "and expensive resolvers get an explicit weight"
            ),
            (
                "Cap page-size arguments in the schema, limit aliases and batched operations per request, "
                "and disable introspection for anonymous clients in production"
            ),
            "Test that the collected client operations pass and crafted abusive ones fail with a clear error",
        ),
        avoid=(
            (
                "Do not rely on a request timeout alone: the server still does the work until it expires, "
                "and a few parallel requests exhaust it"
            ),
            (
                "Do not set limits without checking real client queries: legitimate screens break the day "
                "the rule ships"
            ),
        ),
        signals=("{sig}", "query complexity|query depth", "/graphql.{0,20}(dos|denial of service)/i"),
        validation=("{cmd}",),
        slots={
            "server": (
                {
                    "server": "Apollo Server",
                    ("rules"): (
                        "graphql-depth-limit and graphql-query-complexity (with fieldExtensionsEstimator) "
                        "in validationRules"
                    ),
                    "sig": "graphql-query-complexity",
                    "cmd": "npx vitest run tests/graphql",
                },
                {
                    "server": "graphql-java",
                    ("rules"): (
                        "MaxQueryDepthInstrumentation and MaxQueryComplexityInstrumentation with a "
                        "FieldComplexityCalculator"
                    ),
                    "sig": "maxquerycomplexityinstrumentation",
                    "cmd": "./gradlew test",
                },
                {
                    "server": "Strawberry",
                    ("rules"): (
                        "the QueryDepthLimiter and MaxAliasesLimiter extensions, plus a custom validation "
                        "rule for field costs"
                    ),
                    "sig": "querydepthlimiter",
                    "cmd": "pytest -q tests/test_graphql_limits.py",
                },
                {
                    "server": "gqlgen",
                    ("rules"): (
                        "srv.Use(extension.FixedComplexityLimit(n)) with complexity functions generated for "
                        "list fields"
                    ),
                    "sig": "fixedcomplexitylimit",
                    "cmd": "go test ./graph/...",
                },
                {
                    "server": "Hot Chocolate",
                    ("rules"): (
                        "AddMaxExecutionDepthRule and the cost analyzer with [Cost] attributes and paging "
                        "limits"
                    ),
                    "sig": "addmaxexecutiondepthrule",
                    "cmd": "dotnet test",
                },
            ),
            "abuse": (
                "deeply nested friends-of-friends queries",
                "one field requested under hundreds of aliases",
                "huge page-size arguments",
                "introspection from anonymous clients",
                "many operations batched into one request",
                "search fields nested under every list item",
                "expensive computed fields on long lists",
                "bots replaying random generated queries",
            ),
        },
    ),
    Problem(
        slug="generate_typed_client_from_openapi",
        category="innovate",
        summary=(
            "Generate a typed {lang} client for {api} from its OpenAPI spec with {generator}, and fail CI "
            "when it drifts"
        ),
        task=(
            "Consumers of {api} hand-write {lang} request code that keeps drifting from the server. "
            "Generate a typed client from the OpenAPI spec, and make CI catch any spec change that was not "
            "regenerated."
        ),
        steps=(
            (
                "Lint the spec first so generation is reliable (Spectral or Redocly CLI), fixing missing "
                "operationIds and untyped schemas"
            ),
            "Generate the client with a pinned generator version: {generate}",
            (
                "Wrap the generated code in a thin hand-written layer (auth, retries, error mapping) so "
                "regeneration never overwrites custom code"
            ),
            (
                "In CI, regenerate and fail on any difference with git diff --exit-code, and run a contract "
                "test against a running server"
            ),
        ),
        avoid=(
            "Do not edit generated files by hand: the next regeneration silently discards the change",
            (
                "Do not float the generator version: a generator upgrade changes the output and shows up as "
                "unrelated diff noise"
            ),
        ),
        signals=("openapi", "{sig}", "/generated client|client generation/i"),
        validation=("{cmd}", "git diff --exit-code"),
        slots={
            "generator": (
                {
                    "lang": "TypeScript",
                    "generator": "openapi-typescript",
                    ("generate"): (
                        "npx openapi-typescript openapi.yaml -o src/api/schema.d.ts, used through "
                        "openapi-fetch's createClient<paths>()"
                    ),
                    "sig": "openapi-fetch",
                    "cmd": "npx openapi-typescript openapi.yaml -o src/api/schema.d.ts",
                },
                {
                    "lang": "Python",
                    "generator": "openapi-python-client",
                    ("generate"): (
                        "openapi-python-client generate --path openapi.yaml --output-path clients/api "
                        "--overwrite"
                    ),
                    "sig": "openapi-python-client",
                    ("cmd"): (
                        "openapi-python-client generate --path openapi.yaml --output-path clients/api "
                        "--overwrite"
                    ),
                },
                {
                    "lang": "Go",
                    "generator": "oapi-codegen",
                    ("generate"): (
                        "a //go:generate directive running oapi-codegen with a config file that enables the "
                        "client and models"
                    ),
                    "sig": "oapi-codegen",
                    "cmd": "go generate ./...",
                },
                {
                    "lang": "C#",
                    "generator": "NSwag",
                    ("generate"): (
                        "an nswag.json run by the NSwag.MSBuild target on build, producing one client class "
                        "per tag"
                    ),
                    "sig": "nswag",
                    "cmd": "dotnet build",
                },
                {
                    "lang": "Java",
                    "generator": "OpenAPI Generator",
                    ("generate"): (
                        "the openapi-generator-maven-plugin with the native library and useJakartaEe, "
                        "generating into target/generated-sources"
                    ),
                    "sig": "openapi-generator",
                    "cmd": "mvn -q generate-sources",
                },
            ),
            "api": (
                "a billing API",
                "an internal user service",
                "a partner logistics API",
                "a CMS content API",
                "a payments provider",
                "a search service",
                "an identity service",
                "a reporting API",
            ),
        },
    ),
    Problem(
        slug="replace_fixtures_with_test_data_factories",
        category="innovate",
        summary=(
            "Replace brittle shared fixture files for {domain} with {lib} factories that build only what "
            "each test needs"
        ),
        task=(
            "Tests for {domain} load one large shared fixture file; every schema change breaks dozens of "
            "tests and nobody knows which rows a test relies on. Introduce {lib} factories and migrate the "
            "tests."
        ),
        steps=(
            (
                "Write one factory per model with valid minimal defaults and sequences for unique fields: "
                "{define}"
            ),
            (
                "Express relations with sub-factories and traits (for example a paid order, an overdue "
                "invoice) instead of hand-built graphs"
            ),
            (
                "Migrate tests file by file: each test builds the records it asserts on, and anything it "
                "does not mention uses defaults"
            ),
            (
                "Use build (in memory) rather than create (persisted) wherever the test does not need the "
                "database, and delete the shared fixture file once unused"
            ),
        ),
        avoid=(
            (
                "Do not put every possible field and relation into the default factory: tests get slow and "
                "the old fixture problem returns in code"
            ),
            (
                "Do not rely on random fake data for values a test asserts on: set them explicitly so "
                "failures are reproducible"
            ),
        ),
        signals=("{sig}", "fixtures", "test data factory|factory"),
        validation=("{cmd}",),
        slots={
            "lib": (
                {
                    "lib": "factory_boy",
                    ("define"): (
                        "factory.django.DjangoModelFactory (or SQLAlchemyModelFactory) subclasses with "
                        "factory.Sequence and factory.SubFactory"
                    ),
                    "sig": "factory_boy",
                    "cmd": "pytest -q",
                },
                {
                    "lib": "FactoryBot",
                    ("define"): (
                        "FactoryBot.define blocks with sequence, association and trait, loaded by rspec's "
                        "support files"
                    ),
                    "sig": "factorybot",
                    "cmd": "bundle exec rspec",
                },
                {
                    "lib": "fishery",
                    ("define"): (
                        "Factory.define<Order>(({ sequence, associations }) => ({ ... })) with typed params "
                        "and onCreate hooks"
                    ),
                    "sig": "fishery",
                    "cmd": "npx vitest run",
                },
                {
                    "lib": "polyfactory",
                    ("define"): (
                        "ModelFactory subclasses for the Pydantic or dataclass models, with explicit "
                        "overrides for asserted fields"
                    ),
                    "sig": "polyfactory",
                    "cmd": "pytest -q",
                },
                {
                    "lib": "Instancio",
                    ("define"): (
                        "Instancio.of(Order.class).set(field(Order::status), PAID) models stored as "
                        "reusable Model<T> templates"
                    ),
                    "sig": "instancio",
                    "cmd": "./gradlew test",
                },
                {
                    "lib": "Bogus",
                    ("define"): (
                        "Faker<T> rules with RuleFor per property and a fixed UseSeed for reproducibility"
                    ),
                    "sig": "bogus",
                    "cmd": "dotnet test",
                },
            ),
            "domain": (
                "orders with line items and payments",
                "users with roles and organizations",
                "insurance policies and claims",
                "courses and enrollments",
                "invoices with tax lines",
                "projects, tasks and assignees",
                "shipments with tracking events",
                "subscriptions and billing periods",
            ),
        },
    ),
    Problem(
        slug="integration_tests_with_testcontainers",
        category="innovate",
        summary=(
            "Run {lang} integration tests against a real {service} started by Testcontainers instead of an "
            "in-memory fake"
        ),
        task=(
            "{lang} integration tests use an in-memory fake instead of {service}, and bugs that depend on "
            "the real engine reach production. Run the tests against a real {service} started per test run "
            "with Testcontainers."
        ),
        steps=(
            "Start the container once per test session or class, pinned to the production version: {start}",
            "Point the application under test at the container's mapped host and port, never a fixed port",
            (
                "Apply the real schema or setup (migrations, topics, buckets) once, and isolate tests with "
                "transactions, unique names or truncation between tests"
            ),
            (
                "Run the suite in CI with Docker available, and reuse containers locally to keep the "
                "edit-test loop fast"
            ),
        ),
        avoid=(
            "Do not use the latest image tag: the test engine changes under you and differs from production",
            (
                "Do not start a fresh container for every test: startup time dominates and the suite "
                "becomes too slow to run often"
            ),
        ),
        signals=("testcontainers", "{sig}", "/in-memory (database|fake)|h2 database|sqlite in tests/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    ("start"): (
                        "a session-scoped pytest fixture using testcontainers-python's container class with "
                        "a pinned image, yielding the connection URL"
                    ),
                    "sig": "testcontainers-python",
                    "cmd": "pytest -q tests/integration",
                },
                {
                    "lang": "Java",
                    ("start"): (
                        "@Testcontainers with a static @Container field, and @ServiceConnection in Spring "
                        "Boot 3.1+ to wire the connection properties"
                    ),
                    "sig": "@serviceconnection",
                    "cmd": "./gradlew integrationTest",
                },
                {
                    "lang": "Go",
                    ("start"): (
                        "testcontainers-go's module Run function in TestMain, with a wait strategy for "
                        "readiness and Terminate in cleanup"
                    ),
                    "sig": "testcontainers-go",
                    "cmd": "go test -tags=integration ./...",
                },
                {
                    "lang": "TypeScript",
                    ("start"): (
                        "a Vitest globalSetup that starts the container with @testcontainers and exports "
                        "the connection details through provide()"
                    ),
                    "sig": "globalsetup",
                    "cmd": "npx vitest run --project integration",
                },
                {
                    "lang": "C#",
                    ("start"): (
                        "an xUnit IAsyncLifetime class fixture using Testcontainers for .NET's builder, "
                        "shared through a collection fixture"
                    ),
                    "sig": "iasynclifetime",
                    "cmd": "dotnet test --filter Category=Integration",
                },
            ),
            "service": (
                "PostgreSQL with PostGIS",
                "MySQL 8",
                "Redis",
                "Kafka",
                "LocalStack for S3 and SQS",
                "MongoDB",
                "Elasticsearch",
                "RabbitMQ",
            ),
        },
    ),
    Problem(
        slug="property_based_tests_for_codec_logic",
        category="innovate",
        summary=(
            "Add property-based tests with {lib} to {target}, checking round-trip and invariant properties "
            "over generated inputs"
        ),
        task=(
            "{target_cap} has example-based tests only, and edge cases keep reaching production. Add "
            "property-based tests with {lib} that state its invariants and shrink failures to minimal "
            "examples."
        ),
        steps=(
            "State the properties: {property}",
            (
                "Write generators for valid inputs, including the awkward ones (empty, very long, "
                "non-ASCII, boundary numbers): {gen}"
            ),
            (
                "Run with enough examples locally and a fixed seed in CI, and turn each shrunk failure into "
                "a regular regression test"
            ),
            (
                "Keep properties independent of the implementation: compare against a simple reference "
                "model or an inverse function, not the same code"
            ),
        ),
        avoid=(
            (
                "Do not filter generated inputs down to the easy ones to make properties pass: the bugs "
                "live in exactly those discarded cases"
            ),
            (
                "Do not restate the implementation inside the property: it passes by construction and "
                "checks nothing"
            ),
        ),
        signals=("{sig}", "property-based test|property test", "shrink"),
        validation=("{cmd}",),
        slots={
            "lib": (
                {
                    "lib": "Hypothesis",
                    ("gen"): (
                        "strategies such as st.text(), st.integers() and st.builds(), combined with @given"
                    ),
                    "sig": "hypothesis",
                    "cmd": "pytest -q tests/test_properties.py",
                },
                {
                    "lib": "fast-check",
                    ("gen"): (
                        "arbitraries such as fc.string(), fc.integer() and fc.record(), checked with "
                        "fc.assert(fc.property(...))"
                    ),
                    "sig": "fast-check",
                    "cmd": "npx vitest run tests/properties",
                },
                {
                    "lib": "proptest",
                    ("gen"): (
                        "proptest! blocks with strategies such as any::<String>() and prop::collection::vec"
                    ),
                    "sig": "proptest",
                    "cmd": "cargo test",
                },
                {
                    "lib": "jqwik",
                    "gen": "@Property methods with @ForAll parameters and @Provide arbitraries",
                    "sig": "jqwik",
                    "cmd": "./gradlew test",
                },
                {
                    "lib": "rapid for Go",
                    ("gen"): (
                        "rapid.Check(t, func(t *rapid.T) { ... }) with generators like rapid.String() and "
                        "rapid.SliceOf"
                    ),
                    "sig": "pgregory.net/rapid",
                    "cmd": "go test ./...",
                },
                {
                    "lib": "FsCheck",
                    "gen": "[Property] tests with Arb generators registered for the domain types",
                    "sig": "fscheck",
                    "cmd": "dotnet test",
                },
            ),
            "target": (
                {
                    "target": "a query-string encoder and decoder",
                    "target_cap": "A query-string encoder and decoder",
                    ("property"): (
                        "decode(encode(x)) == x for any mapping of strings, and encoding never emits "
                        "reserved characters unescaped"
                    ),
                },
                {
                    "target": "a function that splits money into installments",
                    "target_cap": "A function that splits money into installments",
                    ("property"): (
                        "the parts always sum to the total, no part is negative, and parts differ by at "
                        "most one minor unit"
                    ),
                },
                {
                    "target": "a date-range merger",
                    "target_cap": "A date-range merger",
                    ("property"): (
                        "merged ranges never overlap, are sorted, and cover exactly the union of the inputs"
                    ),
                },
                {
                    "target": "a CSV writer and reader",
                    "target_cap": "A CSV writer and reader",
                    "property": "read(write(rows)) == rows for fields with commas, quotes and newlines",
                },
                {
                    "target": "a slug generator",
                    "target_cap": "A slug generator",
                    ("property"): (
                        "output matches ^[a-z0-9-]+$, is idempotent (slug(slug(x)) == slug(x)), and is "
                        "never empty for non-empty input"
                    ),
                },
                {
                    "target": "a base62 ID codec",
                    "target_cap": "A base62 ID codec",
                    ("property"): (
                        "decode(encode(n)) == n for every integer in range, and encoding preserves ordering"
                    ),
                },
                {
                    "target": "a JSON Patch implementation",
                    "target_cap": "A JSON Patch implementation",
                    "property": "applying diff(a, b) to a yields b for any two documents",
                },
                {
                    "target": "an interval scheduler",
                    "target_cap": "An interval scheduler",
                    ("property"): (
                        "no two booked slots overlap and every accepted request lies within opening hours"
                    ),
                },
            ),
        },
    ),
]

PROBLEMS += [
    Problem(
        slug="fuzz_parser_for_crashes",
        category="explore",
        summary=(
            "Fuzz {target} with {fuzzer} to find inputs that crash or hang it, and turn each finding into a "
            "regression test"
        ),
        task=(
            "{target_cap} parses untrusted input and has crashed in production on inputs nobody could "
            "reproduce. Set up coverage-guided fuzzing with {fuzzer}, find the crashing inputs and fix "
            "them."
        ),
        steps=(
            (
                "Write a fuzz target that feeds the bytes to the parser and asserts only what must always "
                "hold (no panic or exception beyond the documented error type): {harness}"
            ),
            (
                "Seed the corpus with real samples and the existing test fixtures, and add a dictionary of "
                "format tokens if the format has keywords"
            ),
            (
                "Run the fuzzer for a fixed budget, then minimize each crashing or timing-out input and "
                "read its stack trace"
            ),
            (
                "Fix the root cause, commit the minimized inputs to the corpus as regression tests, and run "
                "the fuzzer briefly in CI on every change"
            ),
        ),
        avoid=(
            (
                "Do not catch every exception in the harness to keep the fuzzer running: it hides the "
                "crashes the run is meant to find"
            ),
            (
                "Do not fix a finding by rejecting that one input: find the broken invariant, or the next "
                "mutation crashes the same way"
            ),
        ),
        signals=("{sig}", "fuzz", "/crash(es)? on (malformed|untrusted) input/i"),
        validation=("{cmd}",),
        slots={
            "fuzzer": (
                {
                    "fuzzer": "Go native fuzzing",
                    ("harness"): (
                        "func FuzzParse(f *testing.F) with f.Add seeds and f.Fuzz(func(t *testing.T, data "
                        "[]byte) { ... })"
                    ),
                    "sig": "go test -fuzz",
                    "cmd": "go test -run=^$ -fuzz=FuzzParse -fuzztime=60s ./parser",
                },
                {
                    "fuzzer": "cargo-fuzz",
                    ("harness"): (
                        "a fuzz_target!(|data: &[u8]| { ... }) in fuzz/fuzz_targets, built with libFuzzer "
                        "and sanitizers"
                    ),
                    "sig": "cargo fuzz",
                    "cmd": "cargo fuzz run parse -- -max_total_time=60",
                },
                {
                    "fuzzer": "Atheris",
                    ("harness"): (
                        "a TestOneInput(data) function using atheris.FuzzedDataProvider, instrumented with "
                        "atheris.instrument_imports()"
                    ),
                    "sig": "atheris",
                    "cmd": "python fuzz/fuzz_parse.py -max_total_time=60",
                },
                {
                    "fuzzer": "Jazzer",
                    "harness": "a @FuzzTest method taking a FuzzedDataProvider, run as a JUnit 5 test",
                    "sig": "jazzer",
                    "cmd": "./gradlew test --tests '*FuzzTest'",
                },
                {
                    "fuzzer": "Jazzer.js",
                    ("harness"): (
                        "a module exporting fuzz(data: Buffer) that calls the parser, run through the Jest "
                        "integration"
                    ),
                    "sig": "jazzer.js",
                    "cmd": "npx jest --testNamePattern=fuzz",
                },
            ),
            "target": (
                {"target": "a log-line parser", "target_cap": "A log-line parser"},
                {"target": "a binary protocol decoder", "target_cap": "A binary protocol decoder"},
                {"target": "a markdown-to-HTML converter", "target_cap": "A markdown-to-HTML converter"},
                {"target": "an image header reader", "target_cap": "An image header reader"},
                {"target": "a config file parser", "target_cap": "A config file parser"},
                {"target": "a query-language lexer", "target_cap": "A query-language lexer"},
                {"target": "a ZIP entry reader", "target_cap": "A ZIP entry reader"},
                {"target": "a URL route matcher", "target_cap": "A URL route matcher"},
            ),
        },
    ),
    Problem(
        slug="git_bisect_find_regression_commit",
        category="explore",
        summary=(
            "Find the commit that introduced {regression} in a {lang} project with an automated git bisect "
            "run"
        ),
        task=(
            "Somewhere in the last 400 commits of a {lang} project, {regression} appeared. Find the exact "
            "commit with git bisect and explain the cause."
        ),
        steps=(
            (
                "Confirm a good and a bad commit by running the same check on both, and write the check as "
                "a script that exits 0 for good, 1 for bad and 125 for cannot-test"
            ),
            "Make the script self-contained: {prep}, then run the check ({check})",
            (
                "Run git bisect start BAD GOOD and git bisect run ./bisect-check.sh; for flaky symptoms, "
                "make the script repeat the check several times and fail on any failure"
            ),
            (
                "Read the first bad commit's diff, reproduce the effect by reverting it on the current "
                "head, and write a test that pins the behaviour"
            ),
        ),
        avoid=(
            (
                "Do not bisect with a check that depends on state outside the commit (a shared database, a "
                "cached build): results become random and bisect points at an innocent commit"
            ),
            (
                "Do not mark commits that fail to build as bad: exit 125 so bisect skips them instead of "
                "blaming them"
            ),
        ),
        signals=("git bisect", "regression", "{sig}"),
        validation=("git bisect log",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    "prep": "create a fresh virtualenv and pip install -e . for each commit",
                    "sig": "pytest",
                },
                {
                    "lang": "Node.js",
                    "prep": "run npm ci so each commit uses its own lockfile",
                    "sig": "npm ci",
                },
                {"lang": "Go", "prep": "run go build ./... first and exit 125 if it fails", "sig": "go test"},
                {
                    "lang": "Java",
                    ("prep"): (
                        "run mvn -q -o package -DskipTests with an offline repository, exiting 125 on build "
                        "failure"
                    ),
                    "sig": "mvn",
                },
                {
                    "lang": "Rust",
                    "prep": "run cargo build --locked, exiting 125 on build failure",
                    "sig": "cargo test",
                },
                {
                    "lang": "Ruby",
                    "prep": "run bundle install --local for the commit's Gemfile.lock",
                    "sig": "rspec",
                },
            ),
            "regression": (
                {
                    "regression": "a 30% latency increase in one endpoint",
                    "check": "a benchmark compared against a threshold with a margin for noise",
                },
                {
                    "regression": "a wrong total on the invoice page",
                    "check": "a single test that computes the invoice total for a fixed order",
                },
                {
                    "regression": "a build failure on one platform only",
                    "check": "the build for that platform in a container",
                },
                {
                    "regression": "an intermittent test failure",
                    "check": "the failing test run twenty times in a row",
                },
                {
                    "regression": "a changed CLI output format",
                    "check": "the CLI run on a fixed input and diffed against the expected output",
                },
                {
                    "regression": "steady memory growth in a worker",
                    "check": "the worker processing a fixed batch while peak memory is measured",
                },
                {
                    "regression": "a migration failing on a fresh database",
                    "check": "the migrations applied to an empty throwaway database",
                },
                {
                    "regression": "a missing field in an API response",
                    "check": "a request against a locally started server, asserting the field",
                },
            ),
        },
    ),
    Problem(
        slug="find_dead_code_and_unused_dependencies",
        category="explore",
        summary=(
            "Find and safely remove unused code and dependencies in a {lang} codebase ({project}) using "
            "{tools}"
        ),
        task=(
            "The {lang} codebase of {project} has accumulated code and dependencies nobody uses, slowing "
            "builds and audits. Find what is really unused, remove it, and keep everything that is reached "
            "dynamically."
        ),
        steps=(
            "Run the static finders: {run}",
            (
                "Triage every finding: code reached by reflection, plugins, entry points, templates or "
                "public API for outside users is used even when the tool cannot see it"
            ),
            (
                "Cross-check with runtime evidence where possible (coverage from the full test suite and a "
                "production-like run) before deleting"
            ),
            (
                "Remove in small batches with the build and full tests after each, and record intended "
                "exceptions in the tool's config so the next run is clean"
            ),
        ),
        avoid=(
            (
                "Do not delete everything the tool reports in one change: dynamically used code breaks at "
                "runtime and the cause is hard to find in a huge diff"
            ),
            (
                "Do not remove exported functions of a published library as dead: outside users call them, "
                "so deprecate first"
            ),
        ),
        signals=("{sig}", "dead code|unused dependency", "{sig2}"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "lang": "Python",
                    "tools": "vulture and deptry",
                    ("run"): (
                        "vulture src --min-confidence 80 for unused functions and classes, and deptry . for "
                        "unused, missing and transitive dependencies"
                    ),
                    "sig": "vulture",
                    "sig2": "deptry",
                    "cmd": "deptry .",
                },
                {
                    "lang": "TypeScript",
                    "tools": "knip",
                    ("run"): (
                        "npx knip for unused files, exports and dependencies, with entry points configured "
                        "in knip.json"
                    ),
                    "sig": "knip",
                    "sig2": "unused exports",
                    "cmd": "npx knip",
                },
                {
                    "lang": "Go",
                    "tools": "deadcode and go mod tidy",
                    ("run"): (
                        "deadcode ./... from golang.org/x/tools/cmd/deadcode (reachability from main and "
                        "tests), then go mod tidy for modules"
                    ),
                    "sig": "golang.org/x/tools/cmd/deadcode",
                    "sig2": "go mod tidy",
                    "cmd": "go vet ./...",
                },
                {
                    "lang": "Rust",
                    "tools": "cargo-machete and the dead_code lint",
                    ("run"): (
                        "cargo machete for unused crates in Cargo.toml, and cargo build with warnings on "
                        "dead_code and unused_imports"
                    ),
                    "sig": "cargo-machete",
                    "sig2": "dead_code",
                    "cmd": "cargo machete",
                },
            ),
            "project": (
                {"project": "a five-year-old monolith", "project_cap": "A five-year-old monolith"},
                {
                    "project": "a service after a feature-flag cleanup",
                    "project_cap": "A service after a feature-flag cleanup",
                },
                {
                    "project": "a library before its 2.0 release",
                    "project_cap": "A library before its 2.0 release",
                },
                {"project": "a repo merged from two teams", "project_cap": "A repo merged from two teams"},
                {
                    "project": "an app after a framework migration",
                    "project_cap": "An app after a framework migration",
                },
                {"project": "a monorepo package", "project_cap": "A monorepo package"},
                {
                    "project": "a CLI with deprecated commands",
                    "project_cap": "A CLI with deprecated commands",
                },
                {"project": "an SDK with generated code", "project_cap": "An SDK with generated code"},
                {"project": "a prototype turned product", "project_cap": "A prototype turned product"},
                {"project": "a plugin host", "project_cap": "A plugin host"},
            ),
        },
    ),
    Problem(
        slug="benchmark_two_implementations_reliably",
        category="explore",
        summary=(
            "Compare {candidates} in {lang} with a {harness} benchmark that gives statistically sound numbers"
        ),
        task=(
            "A pull request claims a 2x speedup by switching between {candidates} in {lang}, based on one "
            "timing loop. Measure the difference properly with {harness} and report whether it is real."
        ),
        steps=(
            (
                "Write benchmarks for both candidates on realistic inputs (sizes and shapes taken from "
                "production), in the same harness: {write}"
            ),
            (
                "Defeat the usual traps: warm up, keep results alive so the compiler cannot drop the work, "
                "and prevent constant folding of inputs"
            ),
            (
                "Run each benchmark many times on a quiet machine and compare distributions, not single "
                "numbers: {compare}"
            ),
            (
                "Report the speedup with its confidence interval and memory allocations, and check the "
                "end-to-end effect on the real workload"
            ),
        ),
        avoid=(
            (
                "Do not time a loop with a wall clock once and compare the two numbers: noise, warm-up and "
                "CPU frequency changes swamp the difference"
            ),
            (
                "Do not benchmark on toy inputs: the faster candidate for ten items is often the slower one "
                "for ten thousand"
            ),
        ),
        signals=("{sig}", "benchmark", "/micro.?benchmark|statistically significant/i"),
        validation=("{cmd}",),
        slots={
            "harness": (
                {
                    "lang": "Java",
                    "harness": "JMH",
                    ("write"): (
                        "@Benchmark methods with @State inputs, returning results or sinking them into a "
                        "Blackhole"
                    ),
                    ("compare"): (
                        "JMH's forks and iterations with the error column, and -prof gc for allocation rates"
                    ),
                    "sig": "jmh",
                    "cmd": "./gradlew jmh",
                },
                {
                    "lang": "Go",
                    "harness": "go test -bench",
                    ("write"): (
                        "func BenchmarkX(b *testing.B) with b.ReportAllocs() and the loop over b.N (or "
                        "b.Loop() in Go 1.24)"
                    ),
                    "compare": "go test -bench=. -count=10 for each variant, compared with benchstat",
                    "sig": "benchstat",
                    "cmd": "go test -run=^$ -bench=. -count=10 ./...",
                },
                {
                    "lang": "Rust",
                    "harness": "criterion",
                    "write": "criterion_group benchmarks using black_box around inputs and outputs",
                    ("compare"): (
                        "criterion's saved baselines (--save-baseline and --baseline) and its change "
                        "confidence intervals"
                    ),
                    "sig": "criterion",
                    "cmd": "cargo bench",
                },
                {
                    "lang": "Python",
                    "harness": "pyperf",
                    ("write"): (
                        "a pyperf Runner with bench_func for each candidate, in a separate script per variant"
                    ),
                    ("compare"): (
                        "pyperf compare_to on the two JSON result files, after pyperf system tune on the "
                        "machine"
                    ),
                    "sig": "pyperf",
                    "cmd": "python -m pyperf compare_to base.json new.json",
                },
                {
                    "lang": "C#",
                    "harness": "BenchmarkDotNet",
                    ("write"): (
                        "[Benchmark] methods in a class with [MemoryDiagnoser] and [Params] for input sizes"
                    ),
                    ("compare"): (
                        "BenchmarkDotNet's summary table with error, standard deviation and allocated "
                        "bytes, run in Release"
                    ),
                    "sig": "benchmarkdotnet",
                    "cmd": "dotnet run -c Release --project bench",
                },
                {
                    "lang": "TypeScript",
                    "harness": "tinybench",
                    ("write"): (
                        "a Bench with one task per candidate, inputs built outside the measured function"
                    ),
                    ("compare"): (
                        "tinybench's samples, margin of error and ops per second over several runs under "
                        "the same Node version"
                    ),
                    "sig": "tinybench",
                    "cmd": "node bench/compare.mjs",
                },
            ),
            "candidates": (
                "two JSON libraries",
                "a hash map and a sorted array with binary search",
                "string concatenation and a string builder",
                "a regex and a hand-written parser",
                "two compression levels",
                "pooled and freshly allocated buffers",
                "reflection and generated code for mapping",
                "two sorting strategies",
            ),
        },
    ),
    Problem(
        slug="training_runs_not_reproducible",
        category="explore",
        summary=(
            "Track down why two training runs of {model} with {framework} give different results from the "
            "same code and data"
        ),
        task=(
            "Retraining {model} with {framework} on the same commit and data gives metrics that differ by "
            "several points between runs, so nobody can tell whether a change helped. Find every source of "
            "nondeterminism and make runs reproducible."
        ),
        steps=(
            (
                "Measure the spread first: run the same configuration three times and record the metric and "
                "the first few batch losses"
            ),
            "Seed every generator explicitly and pin the obvious knobs: {seed}",
            "Pin the remaining nondeterminism: {determinism}",
            (
                "Bisect by disabling sources one at a time (data order, augmentation, parallelism) until "
                "two runs match, and record which one mattered"
            ),
            (
                "Log the seeds, library versions and hardware with each run, and report metrics as a mean "
                "over several seeds"
            ),
        ),
        avoid=(
            (
                "Do not fix one seed and tune against it: results then overfit that seed and do not hold "
                "for others"
            ),
            (
                "Do not assume a GPU run can match a CPU run bit for bit: compare runs on the same hardware "
                "and library versions"
            ),
        ),
        signals=("{sig}", "/non.?deterministic|not reproducible|different results each run/i", "random seed"),
        validation=("python train.py --config configs/repro.yaml --runs 2",),
        slots={
            "framework": (
                {
                    "framework": "PyTorch",
                    ("seed"): (
                        "torch.manual_seed, numpy and random seeds, a seeded torch.Generator for the "
                        "DataLoader and a worker_init_fn for worker processes"
                    ),
                    ("determinism"): (
                        "torch.use_deterministic_algorithms(True), torch.backends.cudnn.benchmark = False "
                        "and CUBLAS_WORKSPACE_CONFIG=:4096:8"
                    ),
                    "sig": "use_deterministic_algorithms",
                },
                {
                    "framework": "TensorFlow",
                    ("seed"): (
                        "tf.keras.utils.set_random_seed, which seeds Python, NumPy and TensorFlow together"
                    ),
                    ("determinism"): (
                        "tf.config.experimental.enable_op_determinism() and a fixed shuffle seed in tf.data"
                    ),
                    "sig": "enable_op_determinism",
                },
                {
                    "framework": "JAX",
                    "seed": "explicit jax.random.PRNGKey values split per use and saved in the config",
                    "determinism": "the XLA GPU deterministic-ops flag and a fixed data loader order",
                    "sig": "prngkey",
                },
                {
                    "framework": "scikit-learn",
                    ("seed"): (
                        "random_state passed to every estimator, splitter and resampler, never left as None"
                    ),
                    ("determinism"): (
                        "n_jobs fixed for estimators whose result depends on parallel chunking, and a "
                        "stable row order of the input"
                    ),
                    "sig": "random_state",
                },
                {
                    "framework": "LightGBM",
                    ("seed"): (
                        "the seed parameter (which derives bagging, feature and data seeds) set in the config"
                    ),
                    ("determinism"): (
                        "deterministic=True with force_row_wise or force_col_wise, and a fixed num_threads"
                    ),
                    "sig": "deterministic=true",
                },
            ),
            "model": (
                "a churn model",
                "a demand forecaster",
                "a fraud-detection model",
                "a search ranking model",
                "a credit-risk score",
                "a lead-scoring model",
                "a sentiment classifier",
                "an anomaly detector",
            ),
        },
    ),
    Problem(
        slug="trace_slow_request_across_services",
        category="explore",
        summary=(
            "Find where {endpoint} spends its time across services by adding OpenTelemetry tracing to a "
            "service built on {stack}"
        ),
        task=(
            "{endpoint_cap} in a service built on {stack} is slow at p99, but logs and per-service metrics "
            "do not show where the time goes across its downstream calls. Instrument it with OpenTelemetry "
            "and find the slow span."
        ),
        steps=(
            (
                "Add the SDK and automatic instrumentation for the framework, HTTP clients and database "
                "driver: {instrument}"
            ),
            (
                "Propagate W3C trace context on every outbound call and queue message, so downstream spans "
                "join the same trace"
            ),
            (
                "Add manual spans around the suspicious internal steps (serialization, loops over remote "
                "calls), with attributes for sizes and counts"
            ),
            (
                "Export to a collector, pull traces for slow requests (tail sampling keeps them), and read "
                "the critical path: sequential calls that could run in parallel, retries and lock waits"
            ),
        ),
        avoid=(
            (
                "Do not sample 100% of traffic in production to find the slow requests: use tail-based "
                "sampling on latency so the slow ones are kept"
            ),
            (
                "Do not put user data or credentials in span attributes: traces are widely readable and "
                "retained for a long time"
            ),
        ),
        signals=("opentelemetry", "{sig}", "/p99|tail latency|slow span/i"),
        validation=("{cmd}",),
        slots={
            "stack": (
                {
                    "stack": "FastAPI",
                    ("instrument"): (
                        "opentelemetry-instrumentation-fastapi, -httpx and -sqlalchemy, started with "
                        "opentelemetry-instrument or in code"
                    ),
                    "sig": "opentelemetry-instrument",
                    "cmd": "pytest -q tests/test_tracing.py",
                },
                {
                    "stack": "Express",
                    ("instrument"): (
                        "@opentelemetry/sdk-node with getNodeAutoInstrumentations(), loaded with --import "
                        "before the app"
                    ),
                    "sig": "@opentelemetry/sdk-node",
                    "cmd": "npx vitest run tests/tracing",
                },
                {
                    "stack": "Spring Boot",
                    ("instrument"): (
                        "the OpenTelemetry Java agent (-javaagent) or Micrometer Tracing with the OTLP "
                        "exporter"
                    ),
                    "sig": "otel.exporter.otlp.endpoint",
                    "cmd": "./gradlew test",
                },
                {
                    "stack": "Go",
                    ("instrument"): (
                        "otelhttp.NewHandler for the server, otelhttp.NewTransport for clients and otelsql "
                        "or the pgx tracer for the database"
                    ),
                    "sig": "otelhttp",
                    "cmd": "go test ./...",
                },
                {
                    "stack": "ASP.NET Core",
                    ("instrument"): (
                        "AddOpenTelemetry().WithTracing with AspNetCore, HttpClient and SqlClient "
                        "instrumentation and the OTLP exporter"
                    ),
                    "sig": "addopentelemetry",
                    "cmd": "dotnet test",
                },
            ),
            "endpoint": (
                {"endpoint": "the checkout endpoint", "endpoint_cap": "The checkout endpoint"},
                {"endpoint": "the search endpoint", "endpoint_cap": "The search endpoint"},
                {"endpoint": "the dashboard summary", "endpoint_cap": "The dashboard summary"},
                {"endpoint": "the login flow", "endpoint_cap": "The login flow"},
                {"endpoint": "the order history page", "endpoint_cap": "The order history page"},
                {"endpoint": "the quote calculation", "endpoint_cap": "The quote calculation"},
                {"endpoint": "the file export", "endpoint_cap": "The file export"},
                {"endpoint": "the recommendations feed", "endpoint_cap": "The recommendations feed"},
            ),
        },
    ),
]
