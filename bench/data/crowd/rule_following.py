"""Crowd problems of the rule_following family: format, style, policy and template rules that no labelled
base problem states (TOML, iCalendar, GeoJSON, PGN, fixed-width records, Gherkin, EARS, STE, DITA, man
pages, patent claims, pay transparency, fair housing, food and hazard labels, romanisation, collation,
nomenclature, consent forms, hreflang, robots.txt and more)."""

from . import Problem

PROBLEMS: list[Problem] = [
    Problem(
        slug="toml_config_parses_and_matches",
        category="repair",
        summary=(
            "Write the {file} for {tool} from {source} so its {construct} parse under TOML 1.0 and every "
            "key matches the expected configuration"
        ),
        task=(
            "Convert {source} into the {file} of {tool}, which needs {construct}; the harness loads the "
            "file with tomllib and compares every key and type with the expected configuration."
        ),
        steps=(
            (
                "Map every setting in {source} to a TOML type before writing anything: quoted strings, "
                "bare integers, floats and booleans, RFC 3339 dates unquoted only where the schema wants a "
                "datetime, arrays for lists"
            ),
            "{construct_rule}",
            (
                "Group keys under the table headers {file} uses (for example {section}) and define each "
                "table exactly once, with parent tables before their children"
            ),
            (
                "Load the file with tomllib and diff the parsed dictionary against the expected keys and "
                "types before handing it over"
            ),
        ),
        avoid=(
            (
                "Do not write null, None or empty placeholders: TOML has no null, so omit the key or use "
                "the documented default"
            ),
            (
                "Do not define the same table twice, once with a [header] and once through dotted keys: "
                "tomllib raises 'Cannot declare ... twice'"
            ),
        ),
        signals=(
            "toml",
            "{file}",
            "tomldecodeerror",
            "/cannot (overwrite a value|declare .* twice)/i",
        ),
        preconditions=("The expected configuration (keys, types and defaults) is available",),
        validation=("taplo check {file}", "python toml_check.py {file} --expected expected.json"),
        slots={
            "tool": (
                {"tool": "a Rust crate", "file": "Cargo.toml", "section": "[dependencies] and [features]"},
                {
                    "tool": "a Python project's Ruff settings",
                    "file": "pyproject.toml",
                    "section": "[tool.ruff] and [tool.ruff.lint]",
                },
                {"tool": "a Hugo site", "file": "hugo.toml", "section": "[params] and [[menus.main]]"},
                {
                    "tool": "a Netlify deployment",
                    "file": "netlify.toml",
                    "section": "[build] and [[redirects]]",
                },
                {
                    "tool": "the Alacritty terminal",
                    "file": "alacritty.toml",
                    "section": "[font] and [colors.primary]",
                },
                {
                    "tool": "the Starship prompt",
                    "file": "starship.toml",
                    "section": "[character] and [git_status]",
                },
            ),
            "construct": (
                {
                    "construct": "arrays of tables",
                    "construct_rule": (
                        "Write each element of a list of records as its own [[name]] header followed by "
                        "its keys, and never also assign an inline array to the same key"
                    ),
                },
                {
                    "construct": "inline tables",
                    "construct_rule": (
                        "Keep every inline table on a single line with no trailing comma (TOML 1.0 forbids "
                        "both newlines and trailing commas inside braces), and switch to a [table] header "
                        "when it grows"
                    ),
                },
                {
                    "construct": "multi-line strings",
                    "construct_rule": (
                        "Use literal multi-line strings (three single quotes) for text with backslashes "
                        "such as regexes and Windows paths, and basic multi-line strings only where "
                        "escapes are meant"
                    ),
                },
                {
                    "construct": "dates and times",
                    "construct_rule": (
                        "Write offset date-times as bare RFC 3339 values (1979-05-27T07:32:00Z) when the "
                        "key is typed as a datetime, and as quoted strings when the program expects text"
                    ),
                },
                {
                    "construct": "dotted keys",
                    "construct_rule": (
                        "Use dotted keys (a.b = 1) only for tables that have no [header] anywhere in the "
                        "file, and keep all keys of one table together"
                    ),
                },
            ),
            "source": (
                "a JSON settings file",
                "a YAML settings file",
                "a settings list written in prose",
            ),
        },
    ),
    Problem(
        slug="icalendar_event_rfc5545",
        category="repair",
        summary=(
            "Produce an iCalendar file for {event} delivered as {delivery} that validates against RFC 5545 "
            "and imports into common calendar clients"
        ),
        task=(
            "Generate the .ics data for {event}, sent as {delivery}, where {text}; a validator checks RFC "
            "5545 syntax and a client import test checks the times."
        ),
        steps=(
            (
                "Use CRLF line endings and fold every content line longer than 75 octets with CRLF plus "
                "one space, never splitting a multi-byte UTF-8 character; {text_rule}"
            ),
            "{event_rule}",
            "Give every VEVENT a stable UID and a DTSTAMP in UTC; {delivery_rule}",
            (
                "Run the validator, then import the file into two different calendar clients and compare "
                "the displayed start and end times"
            ),
        ),
        avoid=(
            (
                "Do not write floating local times (no Z suffix and no TZID) for people in several time "
                "zones: each client guesses a different zone"
            ),
            (
                "Do not leave commas, semicolons or backslashes unescaped in TEXT values: they split the "
                "value or break the line"
            ),
        ),
        signals=("rfc 5545", "vevent", "{signal}", "/line (folding|too long)|fold(ed)? at 75/i"),
        preconditions=("The event's dates, time zone, organiser and attendees are known",),
        validation=("python ics_check.py event.ics --rfc5545",),
        slots={
            "event": (
                {
                    "event": "a weekly team stand-up",
                    "event_rule": (
                        "Express the repetition as one RRULE (FREQ=WEEKLY with BYDAY) whose DTSTART falls "
                        "on one of the listed days, and exclude holidays with EXDATE values in the same "
                        "time zone"
                    ),
                    "signal": "rrule",
                },
                {
                    "event": "a public holiday",
                    "event_rule": (
                        "Mark it all-day with DTSTART;VALUE=DATE and set DTEND to the following date, "
                        "because DTEND is exclusive"
                    ),
                    "signal": "value=date",
                },
                {
                    "event": "a webinar for attendees in several time zones",
                    "event_rule": (
                        "Write DTSTART and DTEND with a TZID and include the matching VTIMEZONE component, "
                        "or write both in UTC with the Z suffix"
                    ),
                    "signal": "vtimezone",
                },
                {
                    "event": "a three-day conference",
                    "event_rule": (
                        "Use one all-day VEVENT with DATE values and an exclusive DTEND the day after the "
                        "last day, not three separate events"
                    ),
                    "signal": "dtend exclusive",
                },
                {
                    "event": "a cancelled board meeting",
                    "event_rule": (
                        "Reuse the original UID, increase SEQUENCE, set STATUS:CANCELLED and send it with "
                        "METHOD:CANCEL"
                    ),
                    "signal": "method:cancel",
                },
                {
                    "event": "a rescheduled client call",
                    "event_rule": (
                        "Keep the original UID, increase SEQUENCE by one and change only DTSTART and DTEND "
                        "so clients update the existing entry instead of adding a second one"
                    ),
                    "signal": "sequence",
                },
            ),
            "delivery": (
                {
                    "delivery": "an email invitation",
                    "delivery_rule": (
                        "set METHOD:REQUEST in the VCALENDAR and list ORGANIZER and ATTENDEE properties "
                        "with mailto: addresses"
                    ),
                },
                {
                    "delivery": "a downloadable .ics file",
                    "delivery_rule": (
                        "serve it as text/calendar with PRODID and VERSION:2.0 at the top and no METHOD "
                        "property"
                    ),
                },
                {
                    "delivery": "a subscribed calendar feed",
                    "delivery_rule": (
                        "keep UIDs stable across regenerations of the feed so subscribers do not see "
                        "duplicates"
                    ),
                },
            ),
            "text": (
                {
                    "text": "titles and descriptions contain commas and semicolons",
                    "text_rule": (
                        "escape commas, semicolons and backslashes in SUMMARY and DESCRIPTION and write "
                        "newlines as \\n"
                    ),
                },
                {
                    "text": "titles are in Japanese and Greek",
                    "text_rule": "count octets, not characters, when folding non-ASCII text",
                },
                {
                    "text": "descriptions run to several paragraphs",
                    "text_rule": (
                        "write paragraph breaks as \\n inside DESCRIPTION and fold the long line rather "
                        "than truncating it"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="mermaid_diagram_renders",
        category="repair",
        summary=(
            "Write a Mermaid {diagram} converted from {source} that renders in {host} without a parse error"
        ),
        task=(
            "Turn {source} into a Mermaid {diagram} embedded in {host}; the docs build renders every "
            "diagram with mermaid-cli and fails on any parse error."
        ),
        steps=(
            "Open a fenced block tagged mermaid and start it with the exact header {header}",
            "{rule}",
            (
                "Quote every label that contains parentheses, brackets, colons, quotes or the bare word end, "
                'for example A["Check (manual)"], and use short alphanumeric node ids'
            ),
            (
                "Render the block with mmdc the way {host} does and fix the first reported line before "
                "touching the rest"
            ),
        ),
        avoid=(
            (
                "Do not use a lowercase node or label named end in a flowchart without quoting it: it "
                "closes a subgraph and breaks the parse"
            ),
            (
                "Do not rely on features newer than the Mermaid version {host} ships: check the renderer "
                "version first"
            ),
        ),
        signals=("mermaid", "parse error on line", "{header}"),
        validation=("npx -p @mermaid-js/mermaid-cli mmdc -i diagram.mmd -o diagram.svg",),
        slots={
            "diagram": (
                {
                    "diagram": "flowchart",
                    "header": "flowchart TD",
                    "rule": (
                        "Declare each node once with its shape and label, then write edges as A --> B or A "
                        "-->|label| B on their own lines"
                    ),
                },
                {
                    "diagram": "sequence diagram",
                    "header": "sequenceDiagram",
                    "rule": (
                        "Declare participants in display order with participant or actor, and pair every "
                        "activate with a deactivate"
                    ),
                },
                {
                    "diagram": "Gantt chart",
                    "header": "gantt",
                    "rule": (
                        "Set dateFormat YYYY-MM-DD, put tasks under section lines, and give each task an "
                        "id so later tasks can use after id"
                    ),
                },
                {
                    "diagram": "state diagram",
                    "header": "stateDiagram-v2",
                    "rule": (
                        "Write transitions as State1 --> State2 : event, mark the start and end with [*], "
                        "and keep composite states in braces on their own lines"
                    ),
                },
                {
                    "diagram": "entity-relationship diagram",
                    "header": "erDiagram",
                    "rule": (
                        "Write each relationship with crow's-foot cardinality such as CUSTOMER ||--o{ "
                        "ORDER : places and list attributes as type name pairs"
                    ),
                },
                {
                    "diagram": "class diagram",
                    "header": "classDiagram",
                    "rule": (
                        "Declare members with visibility markers (+, -, #) and write relationships as "
                        "ClassA <|-- ClassB with one relationship per line"
                    ),
                },
            ),
            "host": ("GitHub Markdown", "a GitLab wiki", "a Docusaurus site", "an MkDocs Material site"),
            "source": (
                "a process description in prose",
                "a bulleted outline",
                "an existing PlantUML diagram",
            ),
        },
    ),
    Problem(
        slug="gherkin_scenarios_lint_clean",
        category="repair",
        summary=(
            "Write Gherkin scenarios for {feature} using {lang_name} keywords that pass gherkin-lint and "
            "run under {runner}"
        ),
        task=(
            "Turn product notes about {feature} into .feature files in {lang_name} for a {runner} suite; "
            "gherkin-lint and a dry run check every scenario."
        ),
        steps=(
            "Put '# language: {code}' on the first line and use only that dialect's keywords ({keywords})",
            (
                "Give each Scenario one behaviour: context steps, exactly one {when} step, then observable "
                "outcomes"
            ),
            (
                "Write declarative steps about business outcomes rather than UI clicks, and use a Scenario "
                "Outline with an Examples table when only the data changes"
            ),
            (
                "Run gherkin-lint and a dry run of {runner} so every step has exactly one matching step "
                "definition"
            ),
        ),
        avoid=(
            "Do not chain several {when} steps in one scenario: the team rule is one action per scenario",
            "Do not put assertions in {given} steps or setup in {then} steps: each keyword has one role",
        ),
        signals=("gherkin", "scenario outline", "{when}", "/(more than one|multiple) when steps?/i"),
        validation=("npx gherkin-lint features", "{dry_run}"),
        slots={
            "feature": (
                "discount codes at checkout",
                "password reset",
                "clinic appointment booking",
                "invoice export",
                "cinema seat reservation",
                "subscription cancellation",
            ),
            "lang_name": (
                {
                    "lang_name": "English",
                    "code": "en",
                    "keywords": "Given, When, Then, And, But",
                    "when": "When",
                    "given": "Given",
                    "then": "Then",
                },
                {
                    "lang_name": "German",
                    "code": "de",
                    "keywords": "Angenommen, Wenn, Dann, Und, Aber",
                    "when": "Wenn",
                    "given": "Angenommen",
                    "then": "Dann",
                },
                {
                    "lang_name": "French",
                    "code": "fr",
                    "keywords": "Soit, Quand, Alors, Et, Mais",
                    "when": "Quand",
                    "given": "Soit",
                    "then": "Alors",
                },
                {
                    "lang_name": "Spanish",
                    "code": "es",
                    "keywords": "Dado, Cuando, Entonces, Y, Pero",
                    "when": "Cuando",
                    "given": "Dado",
                    "then": "Entonces",
                },
            ),
            "runner": (
                {"runner": "behave", "dry_run": "behave --dry-run features"},
                {"runner": "cucumber-js", "dry_run": "npx cucumber-js --dry-run"},
                {"runner": "Cucumber-JVM", "dry_run": "mvn test -Dcucumber.execution.dry-run=true"},
            ),
        },
    ),
    Problem(
        slug="recipe_style_sheet",
        category="repair",
        summary=(
            "Write a {dish} recipe for {publication} that follows the recipe style sheet: ingredients in "
            "order of use, {units} measures, one action per numbered step"
        ),
        task=(
            "Rewrite a contributor's {dish} recipe for {publication} using {units} measures; an editor's "
            "checklist and a script check ingredient order, units and step format."
        ),
        steps=(
            (
                "List ingredients in the order the method uses them, each as quantity, unit, ingredient, "
                "then preparation after a comma (200 g onions, finely chopped)"
            ),
            "{unit_rule}",
            (
                "Number the method steps, start each with an imperative verb, keep one main action per "
                "step and give a time plus a visual doneness cue"
            ),
            (
                "Cross-check the list against the method so every ingredient appears in both, with the "
                "same name and total quantity"
            ),
        ),
        avoid=(
            (
                "Do not use an ingredient in the method that is missing from the list, or split a quantity "
                "without saying so ('half the butter')"
            ),
            "Do not give an oven temperature without its scale and fan or conventional setting",
        ),
        signals=("recipe style", "ingredients in order of use", "{units_signal}"),
        validation=("python recipe_check.py recipe.md --units {unit_flag}",),
        slots={
            "dish": (
                "layered sponge cake",
                "beef braise",
                "sourdough loaf",
                "vegetable stir-fry",
                "lentil soup",
            ),
            "publication": (
                "a food magazine's website",
                "a cookbook manuscript",
                "a meal-kit recipe card",
                "a supermarket recipe app",
            ),
            "units": (
                {
                    "units": "metric",
                    "unit_rule": (
                        "Weigh dry ingredients in grams, measure liquids in millilitres, give oven "
                        "temperatures in °C with the fan equivalent, and use tbsp and tsp only for small "
                        "amounts"
                    ),
                    "units_signal": "grams and millilitres",
                    "unit_flag": "metric",
                },
                {
                    "units": "US customary",
                    "unit_rule": (
                        "Use cups, tablespoons, teaspoons and ounces with the house abbreviations, give "
                        "oven temperatures in °F, and state pan sizes in inches"
                    ),
                    "units_signal": "cups and ounces",
                    "unit_flag": "us",
                },
                {
                    "units": "dual metric and US",
                    "unit_rule": (
                        "Give every measure metric first with the US equivalent in parentheses, rounded "
                        "the same way throughout, and both °C and °F for the oven"
                    ),
                    "units_signal": "dual measures",
                    "unit_flag": "dual",
                },
            ),
        },
    ),
    Problem(
        slug="press_release_structure",
        category="repair",
        summary=(
            "Write a press release announcing {announcement} for {outlet}, {embargo}, with dateline, "
            "inverted-pyramid lead, boilerplate and end mark"
        ),
        task=(
            "Draft a press release about {announcement} to go to {outlet} {embargo}; the communications "
            "team's template checker and an editor review the structure."
        ),
        steps=(
            (
                "Put the release line ({embargo_line}) above a headline of no more than about 15 words, "
                "then open the first paragraph with the dateline CITY, Month Day, Year"
            ),
            "Answer who, what, when, where and why in the first two sentences; {announcement_rule}",
            (
                "Attribute quotes to a named spokesperson with full title, put the 'About the company' "
                "boilerplate after the body, then media contact details and ### centred at the end"
            ),
            (
                "Run the template checker and read the lead aloud to make sure it stands alone if the rest "
                "is cut"
            ),
        ),
        avoid=(
            "Do not bury the news below background or quotes: editors cut from the bottom",
            (
                "Do not use superlatives the company cannot substantiate ('the world's leading'): outlets "
                "strip them and legal review rejects them"
            ),
        ),
        signals=("press release", "dateline", "boilerplate", "###"),
        validation=("python template_check.py release.md --template press-release",),
        slots={
            "announcement": (
                {
                    "announcement": "a product launch",
                    "announcement_rule": "give availability, price and where to buy in the body",
                },
                {
                    "announcement": "a funding round",
                    "announcement_rule": (
                        "name the round, amount and lead investors, and what the money will be used for"
                    ),
                },
                {
                    "announcement": "an executive appointment",
                    "announcement_rule": "give the person's new title, start date and previous role",
                },
                {
                    "announcement": "a partnership",
                    "announcement_rule": (
                        "name both organisations and what customers get from the partnership, with a quote "
                        "from each side"
                    ),
                },
                {
                    "announcement": "an award win",
                    "announcement_rule": (
                        "name the awarding body and the category and explain the criteria in one sentence"
                    ),
                },
            ),
            "outlet": (
                "a newswire service",
                "trade press editors",
                "local newspapers",
                "the company newsroom",
            ),
            "embargo": (
                {"embargo": "for immediate release", "embargo_line": "FOR IMMEDIATE RELEASE"},
                {
                    "embargo": "under embargo until a set date and time",
                    "embargo_line": "EMBARGOED UNTIL followed by date, time and time zone",
                },
            ),
        },
    ),
    Problem(
        slug="iso704_terminology_definitions",
        category="repair",
        summary=(
            "Write {domain} term definitions for {termbase} that follow ISO 704 intensional-definition "
            "rules, fixing {defect}"
        ),
        task=(
            "Revise the {domain} entries of {termbase}, which suffer from {defect}; a terminologist's "
            "checklist based on ISO 704 and ISO 10241-1 grades each entry."
        ),
        steps=(
            (
                "Write each definition as one phrase that could replace the term in a sentence: the "
                "nearest broader concept (genus) followed by the characteristics that distinguish it "
                "(differentiae)"
            ),
            "{defect_rule}",
            (
                "Start definitions with a lowercase word and no article, do not repeat the term, and keep "
                "examples and notes in separate Note fields"
            ),
            (
                "Check the definitions as a system: sibling concepts share the same genus and differ only "
                "in their stated characteristics"
            ),
        ),
        avoid=(
            "Do not define a term with itself or with a term whose definition points back to it",
            "Do not put usage advice, examples or history inside the definition: use notes to entry",
        ),
        signals=("iso 704", "intensional definition", "substitution principle", "{defect_signal}"),
        validation=("python term_check.py entries.tbx --rules iso704",),
        slots={
            "domain": (
                "medical device",
                "rail signalling",
                "insurance",
                "cloud computing",
                "agricultural machinery",
                "payments",
            ),
            "termbase": (
                "a company termbase exported as TBX",
                "the Terms and definitions clause of a draft standard",
                "a product documentation glossary",
            ),
            "defect": (
                {
                    "defect": "circular definitions",
                    "defect_rule": (
                        "Trace each definition's key words through the termbase and break any loop by "
                        "defining one concept from outside the loop"
                    ),
                    "defect_signal": "circular definition",
                },
                {
                    "defect": "definitions that start with 'a term that' or 'is when'",
                    "defect_rule": (
                        "Rewrite such entries to define the concept, not the word: drop 'a term that', "
                        "'refers to' and 'is when'"
                    ),
                    "defect_signal": "is when",
                },
                {
                    "defect": "several concepts crammed into one entry",
                    "defect_rule": (
                        "Split entries that cover more than one concept into separate entries, each with "
                        "its own term and definition, and link them"
                    ),
                    "defect_signal": "one concept per entry",
                },
            ),
        },
    ),
    Problem(
        slug="audio_description_script",
        category="repair",
        summary="Write an audio description script for {content} that follows {standard}, as {mode}",
        task=(
            "Script audio description for {content} as {mode}, following {standard}; reviewers check "
            "timing against the dialogue track and the description rules."
        ),
        steps=(
            "Map the gaps in dialogue and essential sound with their timecodes before writing a single line",
            "{mode_rule}",
            (
                "Describe what is seen in the present tense and third person: who, what, where, and "
                "on-screen text, in order of importance, without interpreting emotions the picture does "
                "not show"
            ),
            (
                "Name a character only once the picture has introduced them, then read every cue against "
                "the timeline at speaking pace and trim any that run into dialogue"
            ),
        ),
        avoid=(
            "Do not describe over dialogue, lyrics or sound effects the plot depends on",
            (
                "Do not explain plot points or reveal what has not yet appeared on screen: describe, do "
                "not narrate ahead"
            ),
        ),
        signals=("audio description", "dialogue gaps", "{standard_signal}"),
        validation=("python ad_script_check.py script.csv --media media.wav --max-overlap 0",),
        slots={
            "content": (
                "a feature film",
                "a museum exhibition video",
                "a corporate training video",
                "a children's animated series episode",
                "a nature documentary",
            ),
            "standard": (
                {"standard": "the DCMP Description Key", "standard_signal": "dcmp description key"},
                {"standard": "Ofcom's guidance on audio description", "standard_signal": "ofcom"},
                {
                    "standard": "the ACB Audio Description Project guidelines",
                    "standard_signal": "acb guidelines",
                },
                {
                    "standard": "a streaming platform's audio description style guide",
                    "standard_signal": "ad style guide",
                },
            ),
            "mode": (
                {
                    "mode": "standard description fitted into natural pauses",
                    "mode_rule": (
                        "Fit every description inside an existing pause, shortening it rather than "
                        "overrunning"
                    ),
                },
                {
                    "mode": "extended description that pauses the video",
                    "mode_rule": (
                        "Mark each pause point where the video freezes for a longer description, and keep "
                        "extended cues for information the viewer cannot follow without"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="screenplay_page_format",
        category="repair",
        summary=(
            "Format {medium} adapted from {source} to industry screenplay conventions, delivered as {output}"
        ),
        task=(
            "Adapt {source} into {medium} and deliver it as {output}; a format checker and a script reader "
            "check scene headings, elements and page count."
        ),
        steps=(
            (
                "Break the source into scenes and write each scene heading in capitals as INT. or EXT., "
                "location, dash, DAY or NIGHT"
            ),
            "{medium_rule}",
            (
                "Write action in the present tense and only what can be seen or heard; introduce each "
                "character in capitals the first time they appear"
            ),
            "{output_rule}",
        ),
        avoid=(
            (
                "Do not write camera directions or unfilmable thoughts in action lines: readers treat them "
                "as amateur formatting"
            ),
            (
                "Do not change fonts or margins to cheat the page count: the reader's rule of thumb is one "
                "page per minute in 12-point Courier"
            ),
        ),
        signals=("screenplay format", "scene heading", "{output_signal}", "int.|ext."),
        validation=("{validation}",),
        slots={
            "medium": (
                {
                    "medium": "a feature film screenplay",
                    "medium_rule": (
                        "Put character cues in capitals above dialogue, parentheticals on their own line "
                        "under the cue, and transitions such as CUT TO: only where they matter"
                    ),
                },
                {
                    "medium": "a multi-camera sitcom script",
                    "medium_rule": (
                        "Double-space the dialogue, write action lines in capitals, letter the scenes "
                        "(SCENE A, SCENE B) and list the characters in each scene under its heading"
                    ),
                },
                {
                    "medium": "a one-hour TV drama script",
                    "medium_rule": (
                        "Mark the teaser and each act break with the act heading and END OF ACT lines, and "
                        "start every act on a new page"
                    ),
                },
                {
                    "medium": "a short film screenplay",
                    "medium_rule": (
                        "Keep to the short-film page limit, cut transitions, and put character cues in "
                        "capitals above dialogue"
                    ),
                },
            ),
            "source": (
                "a prose treatment",
                "a stage play script",
                "a transcript of an improvised rehearsal",
                "a novel chapter",
                "a comic book script",
            ),
            "output": (
                {
                    "output": "Fountain plain text",
                    "output_rule": (
                        "Write plain Fountain: scene headings start with INT. or EXT., force anything "
                        "unusual with a leading period or exclamation mark, and preview the rendered PDF"
                    ),
                    "output_signal": "fountain",
                    "validation": "python fountain_check.py script.fountain",
                },
                {
                    "output": "a Final Draft .fdx file",
                    "output_rule": (
                        "Assign every paragraph its Final Draft element type (Scene Heading, Action, "
                        "Character, Dialogue, Parenthetical, Transition) instead of faking it with spacing"
                    ),
                    "output_signal": "final draft",
                    "validation": "python fdx_check.py script.fdx",
                },
            ),
        },
    ),
    Problem(
        slug="cryptic_clue_ximenean",
        category="innovate",
        summary=(
            "Write {device} cryptic crossword clues for {publication} that obey Ximenean fair-play rules: "
            "definition at one end, sound wordplay, nothing superfluous"
        ),
        task=(
            "Set {device} clues for {publication} for answers of {length}; the puzzle editor's rubric "
            "checks definition placement, indicators, fairness and surface reading."
        ),
        steps=(
            (
                "Choose the definition first: a synonym or defining phrase that sits at the very start or "
                "end of the clue and matches the answer's part of speech"
            ),
            "{device_rule}",
            (
                "Make every word of the clue do a job in the definition or wordplay, with link words only "
                "from the accepted set (for, from, in, gives, makes) and only between the two parts"
            ),
            (
                "Read the surface as a plain sentence for naturalness, then solve the clue cold to check "
                "the answer is unique and the enumeration ({length}) is right"
            ),
        ),
        avoid=(
            (
                "Do not use indirect anagrams (anagramming a synonym instead of the letters on the page): "
                "Ximenean rules forbid them"
            ),
            (
                "Do not add padding words to smooth the surface: anything not in the definition or "
                "wordplay is unfair"
            ),
        ),
        signals=("cryptic clue", "ximenean", "{device_signal}", "definition at either end"),
        validation=("python clue_check.py clues.json --rules ximenean",),
        slots={
            "device": (
                {
                    "device": "anagram",
                    "device_rule": (
                        "Use an indicator that signals rearrangement (broken, wild, cooked) next to "
                        "exactly the letters to be rearranged, and check the letter counts match"
                    ),
                    "device_signal": "anagram indicator",
                },
                {
                    "device": "hidden word",
                    "device_rule": (
                        "Hide the answer in consecutive letters across word boundaries and use an "
                        "indicator of containment (in, some, partly) that points to the fodder"
                    ),
                    "device_signal": "hidden word",
                },
                {
                    "device": "charade",
                    "device_rule": (
                        "Build the answer from parts in order, each clued by a standard abbreviation or "
                        "synonym, joined by a positional link"
                    ),
                    "device_signal": "charade",
                },
                {
                    "device": "container",
                    "device_rule": (
                        "Say which part goes inside which with an indicator that reads correctly in that "
                        "direction (holding, about, in)"
                    ),
                    "device_signal": "container and contents",
                },
                {
                    "device": "homophone",
                    "device_rule": (
                        "Put the sound-alike indicator (we hear, reportedly) next to the part that is "
                        "sounded out, so it is clear which end is the definition"
                    ),
                    "device_signal": "homophone indicator",
                },
                {
                    "device": "double definition",
                    "device_rule": (
                        "Join two independent definitions of the same word with no link word or a neutral "
                        "one, each precise enough on its own"
                    ),
                    "device_signal": "double definition",
                },
                {
                    "device": "reversal",
                    "device_rule": (
                        "Use a reversal indicator that fits the clue's orientation (back, returned for "
                        "across clues; up, rising only for down clues)"
                    ),
                    "device_signal": "reversal indicator",
                },
            ),
            "publication": (
                "a daily broadsheet puzzle",
                "a beginner-friendly puzzle page",
                "a themed prize puzzle",
            ),
            "length": ("5 to 8 letters", "10 to 15 letters in several words"),
        },
    ),
    Problem(
        slug="sestina_end_word_rotation",
        category="innovate",
        summary=(
            "Write {form_name} on the theme of {theme} whose end words rotate in the required order, in "
            "{metre}"
        ),
        task=(
            "Write {form_name} about {theme} in {metre}; a form checker verifies stanza count, line count "
            "and the end-word order of every stanza."
        ),
        steps=(
            (
                "Choose end words that are flexible: concrete nouns or words with several meanings that "
                "can close very different sentences"
            ),
            "{form_rule}",
            (
                "Write the stanzas in order against a table of the required end-word positions, so the "
                "pattern is fixed before the wording"
            ),
            "Check the line count and end words stanza by stanza, then check {metre} line by line",
        ),
        avoid=(
            (
                "Do not change an end word's form (plural, tense) unless the checker's rules allow "
                "homophones or variants"
            ),
            (
                "Do not leave the envoi without the required end words: it is the most commonly failed "
                "part of the form"
            ),
        ),
        signals=("{form_signal}", "end words", "envoi", "retrogradatio cruciata"),
        validation=("python form_check.py poem.txt --form {form_flag}",),
        slots={
            "theme": (
                "a city at night",
                "migration",
                "a grandmother's kitchen",
                "the sea",
                "winter light",
                "a lost language",
            ),
            "form_name": (
                {
                    "form_name": "a sestina",
                    "form_rule": (
                        "Use six stanzas of six lines with end words in the orders 123456, 615243, 364125, "
                        "532614, 451362, 246531, then a three-line envoi containing all six end words (two "
                        "per line)"
                    ),
                    "form_signal": "sestina",
                    "form_flag": "sestina",
                },
                {
                    "form_name": "a tritina",
                    "form_rule": (
                        "Use three stanzas of three lines with end words in the orders 123, 312, 231, then "
                        "a one-line envoi that contains all three end words"
                    ),
                    "form_signal": "tritina",
                    "form_flag": "tritina",
                },
            ),
            "metre": (
                "free verse",
                "iambic pentameter",
                "lines of eight to ten syllables",
                "short lines of no more than six syllables",
            ),
        },
    ),
    Problem(
        slug="back_of_book_index_entries",
        category="repair",
        summary=(
            "Compile a back-of-book index for {book} with {order} alphabetisation, {layout} subentries and "
            "{locators} as locators, as the publisher's index style sheet requires"
        ),
        task=(
            "Build the index of {book} from the page proofs; the publisher's style sheet requires {order} "
            "alphabetisation, {layout} subentries and {locators}, and an editor checks entries, locators "
            "and cross-references."
        ),
        steps=(
            (
                "Choose main headings as nouns or noun phrases a reader would look up, inverted where the "
                "key word is not first (surveys, household), and merge synonyms under one heading with See "
                "references"
            ),
            "{order_rule}",
            "{layout_rule}",
            (
                "Check every locator against the proofs, add See also cross-references only to headings "
                "that exist, and split any heading with more than about six undifferentiated locators into "
                "subentries"
            ),
        ),
        avoid=(
            "Do not index passing mentions that give the reader nothing about the subject",
            (
                "Do not create See references that point to another See reference or to a heading that "
                "does not exist"
            ),
        ),
        signals=("back-of-book index", "{order_signal}", "subentries", "see also"),
        validation=("python index_check.py index.txt --proofs proofs.pdf",),
        slots={
            "book": (
                "a history monograph",
                "a cookbook",
                "a software manual",
                "a law textbook",
                "a field guide to birds",
            ),
            "order": (
                {
                    "order": "letter-by-letter",
                    "order_rule": (
                        "Sort letter by letter, ignoring spaces and hyphens up to the first comma or "
                        "parenthesis, so newsletter files before New York"
                    ),
                    "order_signal": "letter-by-letter",
                },
                {
                    "order": "word-by-word",
                    "order_rule": (
                        "Sort word by word, treating a space as coming before any letter, so New York "
                        "files before newsletter"
                    ),
                    "order_signal": "word-by-word",
                },
            ),
            "layout": (
                {
                    "layout": "indented",
                    "locators": "page numbers",
                    "layout_rule": (
                        "Put each subentry on its own line indented under its main heading, in "
                        "alphabetical order of the first significant word, with page ranges written in "
                        "full or elided as the style sheet says (45-48 or 45-8)"
                    ),
                },
                {
                    "layout": "indented",
                    "locators": "paragraph numbers",
                    "layout_rule": (
                        "Put each subentry on its own line indented under its main heading, and give "
                        "paragraph or section numbers as locators so the index survives repagination"
                    ),
                },
                {
                    "layout": "run-in",
                    "locators": "page numbers",
                    "layout_rule": (
                        "Run subentries on after the main heading's locators, separated by semicolons, "
                        "with page ranges in the elision style the style sheet sets"
                    ),
                },
                {
                    "layout": "run-in",
                    "locators": "paragraph numbers",
                    "layout_rule": (
                        "Run subentries on after the main heading, separated by semicolons, with paragraph "
                        "numbers as locators in the form the text itself uses"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="patent_claims_drafting",
        category="repair",
        summary="Draft patent claims for {invention} that meet {office} formal rules, fixing {defect}",
        task=(
            "Revise the claim set for {invention} before filing ({office}); an examiner-style checker "
            "flags {defect} and other formal objections."
        ),
        steps=(
            (
                "Write each claim as a single sentence: preamble, transitional phrase (comprising, "
                "consisting of), then the body listing elements separated by semicolons"
            ),
            "{defect_rule}",
            "{office_rule}",
            (
                "Number claims consecutively, group dependents right after the claims they refer to, and "
                "recheck every 'said' and 'the' against an earlier introduction"
            ),
        ),
        avoid=(
            (
                "Do not introduce an element with 'the' before it has been introduced with 'a' or 'an': it "
                "lacks antecedent basis"
            ),
            (
                "Do not add functional language or results to be achieved in place of the structure or "
                "steps that achieve them"
            ),
        ),
        signals=("patent claims", "antecedent basis", "{office_signal}", "dependent claim"),
        validation=("python claim_check.py claims.txt --office {office_flag}",),
        slots={
            "invention": (
                "a folding bicycle hinge",
                "a battery thermal management method",
                "a safety cap for a medical syringe",
                "a lossless data compression method",
                "an automatic plant watering system",
                "a fibre-reinforced composite panel",
            ),
            "office": (
                {
                    "office": "USPTO",
                    "office_rule": (
                        "Follow 37 CFR 1.75: dependent claims refer back to and further limit an earlier "
                        "claim, and avoid multiple dependent claims unless the extra fee is intended"
                    ),
                    "office_signal": "37 cfr 1.75",
                    "office_flag": "uspto",
                },
                {
                    "office": "EPO",
                    "office_rule": (
                        "Use the two-part form where appropriate (prior-art features, then 'characterised "
                        "in that' and the new features) and add reference signs in parentheses that match "
                        "the drawings"
                    ),
                    "office_signal": "characterised in that",
                    "office_flag": "epo",
                },
                {
                    "office": "PCT international filing",
                    "office_rule": (
                        "Keep the claims clear and supported by the description under PCT Rule 6, with one "
                        "independent claim per category and dependents in the same category"
                    ),
                    "office_signal": "pct rule 6",
                    "office_flag": "pct",
                },
            ),
            "defect": (
                {
                    "defect": "antecedent basis errors",
                    "defect_rule": (
                        "List every element as it is introduced, then replace each later bare mention with "
                        "'the' or 'said' plus exactly the same noun phrase"
                    ),
                },
                {
                    "defect": "improper dependent claim references",
                    "defect_rule": (
                        "Make every dependent claim refer to a lower-numbered claim with 'The ... of claim "
                        "N', and never to a claim in another category"
                    ),
                },
                {
                    "defect": "relative terms such as 'about' and 'substantially'",
                    "defect_rule": (
                        "Replace relative terms with the measurable range or structure from the "
                        "description, or define the term in the description"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="mailing_list_plaintext_reply",
        category="repair",
        summary=(
            "Write {kind} for {mailing_list} as plain text with interleaved quoting and 72-column lines, "
            "fixing {defect}"
        ),
        task=(
            "Rewrite {kind} for {mailing_list}; a previous draft was rejected for {defect}, and a "
            "netiquette checker reviews the format."
        ),
        steps=(
            "Send plain text only, with lines wrapped at 72 columns and no HTML alternative part",
            "{defect_rule}",
            (
                "Quote only the lines you answer, with '> ' markers and an attribution line, and reply "
                "below each quoted point (bottom-posting or interleaved)"
            ),
            (
                "Keep the subject line with its 'Re:' and any tags such as [PATCH v2] unchanged so "
                "threading works, and check the In-Reply-To header is set"
            ),
        ),
        avoid=(
            "Do not top-post above a full quoted thread: list readers expect interleaved replies",
            "Do not rewrap quoted code or patches: reflowing breaks them for the reader applying them",
        ),
        signals=("bottom-posting", "plain text email", "72 columns", "{defect_signal}"),
        validation=("python mail_check.py reply.eml --plain --wrap 72",),
        slots={
            "kind": (
                "a patch review reply",
                "an answer to a support question",
                "a reply in a design discussion",
            ),
            "mailing_list": (
                "the Linux kernel mailing list",
                "a Debian developers' list",
                "an IETF working group list",
                "a GNU project list",
                "an Apache project dev list",
            ),
            "defect": (
                {
                    "defect": "top-posting",
                    "defect_rule": (
                        "Move the answer below the text it answers and cut everything that is not being "
                        "answered"
                    ),
                    "defect_signal": "top-posting",
                },
                {
                    "defect": "an HTML-only message",
                    "defect_rule": (
                        "Switch the client to plain text for this list and remove inline images, "
                        "signatures in HTML and rich-text formatting"
                    ),
                    "defect_signal": "html email",
                },
                {
                    "defect": "overlong lines and broken quote markers",
                    "defect_rule": (
                        "Rewrap your own text to 72 columns and repair quote markers so each quoted line "
                        "starts with '>' at the right depth"
                    ),
                    "defect_signal": "format=flowed",
                },
                {
                    "defect": "the whole thread and a signature quoted back",
                    "defect_rule": (
                        "Trim quoted text to the lines you respond to and never quote signatures or list "
                        "footers"
                    ),
                    "defect_signal": "trim quotes",
                },
            ),
        },
    ),
    Problem(
        slug="data_dictionary_codebook",
        category="repair",
        summary=(
            "Document {dataset} in {standard} with every variable's name, label, type, units and value "
            "codes, handling {issue}"
        ),
        task=(
            "Write the codebook for {dataset} following {standard}; a validator checks every variable "
            "against the data file and reviewers check how it handles {issue}."
        ),
        steps=(
            "Generate the variable list from the data file itself so names, order and types match exactly",
            (
                "Give each variable a label of no more than about 80 characters, its type, units, allowed "
                "range, and for categoricals every code with its label"
            ),
            "{issue_rule}",
            (
                "Run the validator against the data file and fix every variable that is undocumented or "
                "whose codes do not match the observed values"
            ),
        ),
        avoid=(
            (
                "Do not describe variables from memory of the questionnaire: derive the list from the file "
                "and document what is actually there"
            ),
            "Do not leave sentinel codes undocumented: analysts will average -99 as a real value",
        ),
        signals=("codebook", "data dictionary", "value labels", "{standard_signal}"),
        validation=("python codebook_check.py codebook.{ext} data.csv",),
        slots={
            "dataset": (
                "a household survey",
                "a clinical trial dataset",
                "a web analytics export",
                "a school attainment dataset",
                "an HR headcount extract",
            ),
            "standard": (
                {"standard": "DDI Codebook XML", "standard_signal": "ddi codebook", "ext": "xml"},
                {
                    "standard": "the team's CSV data dictionary template",
                    "standard_signal": "data dictionary template",
                    "ext": "csv",
                },
                {"standard": "a Frictionless Table Schema", "standard_signal": "table schema", "ext": "json"},
            ),
            "issue": (
                {
                    "issue": "missing-value codes such as -99 and 'refused'",
                    "issue_rule": (
                        "Document every missing-value code separately from the valid codes and say which "
                        "are structural (not asked) and which are non-response"
                    ),
                },
                {
                    "issue": "derived variables",
                    "issue_rule": (
                        "For each derived variable give its source variables and the exact derivation "
                        "rule, including how missing inputs are handled"
                    ),
                },
                {
                    "issue": "codes whose labels changed between collection waves",
                    "issue_rule": (
                        "Record each wave's code labels and mark recoded values with the wave they apply to"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="model_card_required_sections",
        category="repair",
        summary=(
            "Write a model card for {model} on {hub} that completes every required section, including "
            "{section}"
        ),
        task=(
            "Publish {model} on {hub}; the release review rejected the card because its {section} section "
            "was missing or vague, and a template checker now gates the release."
        ),
        steps=(
            (
                "Start from the hub's template and keep its section headings and order: model details, "
                "intended use, out-of-scope uses, training data, evaluation, limitations, ethical "
                "considerations"
            ),
            "{section_rule}",
            "{hub_rule}",
            (
                "Run the template checker and have someone outside the team read the limitations section "
                "to see whether it would change how they use the model"
            ),
        ),
        avoid=(
            "Do not report a metric without the dataset, split and date it was measured on",
            (
                "Do not leave a section as 'TBD' or delete it: write 'Not evaluated' with the reason where "
                "nothing is known"
            ),
        ),
        signals=("model card", "{section_signal}", "intended use", "{hub_signal}"),
        validation=("python card_check.py README.md --template {hub_flag}",),
        slots={
            "model": (
                "a text classification model",
                "an image segmentation model",
                "a speech recognition model",
                "a tabular credit-risk model",
                "a small language model",
                "a product recommendation model",
            ),
            "hub": (
                {
                    "hub": "the Hugging Face Hub",
                    "hub_rule": (
                        "Fill the YAML metadata block at the top (license, language, tags, datasets, "
                        "metrics, and model-index for evaluation results) so the Hub can index the card"
                    ),
                    "hub_signal": "model-index",
                    "hub_flag": "hf",
                },
                {
                    "hub": "the company's internal model registry",
                    "hub_rule": (
                        "Fill the registry's required fields (owner, risk tier, approval ticket, "
                        "monitoring dashboard) and link the evaluation report"
                    ),
                    "hub_signal": "model registry",
                    "hub_flag": "internal",
                },
            ),
            "section": (
                {
                    "section": "evaluation results",
                    "section_rule": (
                        "Report each metric with the dataset, split, slice and confidence interval, and "
                        "include results on the subgroups the intended use depends on"
                    ),
                    "section_signal": "evaluation results",
                },
                {
                    "section": "limitations and out-of-scope uses",
                    "section_rule": (
                        "State concrete failure conditions observed in testing and list uses the model "
                        "must not be used for, not generic caveats"
                    ),
                    "section_signal": "out-of-scope use",
                },
                {
                    "section": "training data provenance",
                    "section_rule": (
                        "Name each training dataset with its version, licence, collection period and any "
                        "filtering applied"
                    ),
                    "section_signal": "training data",
                },
                {
                    "section": "intended use",
                    "section_rule": (
                        "Name the primary users, the decisions the model supports and the input domain it "
                        "was validated for"
                    ),
                    "section_signal": "primary intended uses",
                },
            ),
        },
    ),
    Problem(
        slug="ui_error_message_guidelines",
        category="repair",
        summary=(
            "Rewrite {error} error messages in {product} so they follow {guide}: say what happened and how "
            "to fix it, without blame or jargon"
        ),
        task=(
            "Users of {product} keep getting stuck on {error} errors; rewrite the messages to follow "
            "{guide}, and a content designer's rubric plus a string linter review every message."
        ),
        steps=(
            (
                "Collect every string for this error with where it appears (inline, dialog, banner) and "
                "what triggers it"
            ),
            "{error_rule}",
            "{guide_rule}",
            (
                "Run the string linter for banned words (invalid, illegal, error occurred, oops) and check "
                "each message still makes sense read aloud by a screen reader"
            ),
        ),
        avoid=(
            (
                "Do not blame the user ('you entered an invalid value') or joke about an error that costs "
                "them time or money"
            ),
            (
                "Do not show raw error codes or stack traces as the message: log them and give the user "
                "the next step"
            ),
        ),
        signals=("error message", "{error_signal}", "{guide_signal}"),
        validation=("python ux_copy_lint.py strings.json --guide {guide_flag}",),
        slots={
            "product": (
                {
                    "product": "a government benefits application",
                    "guide": "the GOV.UK Design System error message pattern",
                    "guide_rule": (
                        "Show an error summary at the top linking to each field, repeat the message next "
                        "to the field, and use the pattern wording such as 'Enter your date of birth'"
                    ),
                    "guide_signal": "govuk error summary",
                    "guide_flag": "govuk",
                },
                {
                    "product": "an Android banking app",
                    "guide": "Material Design guidance",
                    "guide_rule": (
                        "Put field errors in the supporting text below the field and reserve snackbars for "
                        "brief system messages the user can act on"
                    ),
                    "guide_signal": "material design",
                    "guide_flag": "material",
                },
                {
                    "product": "an iOS fitness app",
                    "guide": "Apple's Human Interface Guidelines",
                    "guide_rule": (
                        "Use alerts only for problems that need a decision, keep alert titles short and "
                        "specific, and label buttons with verbs rather than OK"
                    ),
                    "guide_signal": "human interface guidelines",
                    "guide_flag": "hig",
                },
                {
                    "product": "a SaaS admin console",
                    "guide": "the company's UX writing guide",
                    "guide_rule": (
                        "Follow the guide's two-part pattern (what happened, what to do) and its word "
                        "list, with sentence case and no exclamation marks"
                    ),
                    "guide_signal": "ux writing guide",
                    "guide_flag": "house",
                },
                {
                    "product": "an online shop checkout",
                    "guide": "the company's checkout content guidelines",
                    "guide_rule": (
                        "Keep the entered data when an error appears, place the message next to the field, "
                        "and never clear card or address fields on failure"
                    ),
                    "guide_signal": "checkout errors",
                    "guide_flag": "checkout",
                },
                {
                    "product": "a smart-home companion app",
                    "guide": "the platform's device setup messaging guidelines",
                    "guide_rule": (
                        "Name the device the user is setting up, say whether the problem is the phone, the "
                        "network or the device, and give one action per message"
                    ),
                    "guide_signal": "device setup",
                    "guide_flag": "setup",
                },
            ),
            "error": (
                {
                    "error": "required-field",
                    "error_rule": (
                        "Say which field is needed in plain words ('Enter your postcode'), not that it is "
                        "required"
                    ),
                    "error_signal": "required field",
                },
                {
                    "error": "wrong-format",
                    "error_rule": (
                        "Show the expected format with an example ('Enter a date like 27 3 2025') instead "
                        "of calling the input invalid"
                    ),
                    "error_signal": "invalid format",
                },
                {
                    "error": "out-of-range value",
                    "error_rule": (
                        "State the allowed range or limit in the message itself ('Enter an amount between "
                        "1 and 500')"
                    ),
                    "error_signal": "out of range",
                },
                {
                    "error": "lost-connection",
                    "error_rule": (
                        "Say the connection dropped, that nothing was lost if that is true, and offer Retry"
                    ),
                    "error_signal": "connection lost",
                },
                {
                    "error": "session-timeout",
                    "error_rule": (
                        "Say how long the session lasted, what was saved, and how to continue, and warn "
                        "before the timeout where possible"
                    ),
                    "error_signal": "session timed out",
                },
                {
                    "error": "permission-denied",
                    "error_rule": (
                        "Say who can grant access or what role is needed rather than just 'Access denied'"
                    ),
                    "error_signal": "permission denied",
                },
                {
                    "error": "upload-too-large",
                    "error_rule": (
                        "Give the size limit and accepted file types in the message and suggest how to "
                        "reduce the file"
                    ),
                    "error_signal": "file too large",
                },
            ),
        },
    ),
    Problem(
        slug="ui_label_translation_width_budget",
        category="optimize",
        summary=(
            "Write {platform} UI {element} labels that stay within {limit} after translation into "
            "{languages}, without truncation or abbreviations"
        ),
        task=(
            "Localisation QA found truncated {element} labels in the {platform} app after translation into "
            "{languages}; rewrite the English source labels so every translation fits {limit}."
        ),
        steps=(
            (
                "Measure each current label in every target language against the budget of {limit} and "
                "list the ones that overflow"
            ),
            (
                "Write English source labels at about 70 percent of the budget, since {languages} "
                "typically run longer than English{width_note}"
            ),
            (
                "Prefer one precise verb or noun over a phrase, keep terminology from the glossary, and "
                "give translators a context note and the limit for each string"
            ),
            (
                "Run the pseudo-localised build (expanded, accented strings) and screenshot tests on the "
                "smallest supported screen before sending strings for translation"
            ),
        ),
        avoid=(
            (
                "Do not abbreviate or truncate with ellipses to fit: abbreviations rarely translate and "
                "hide meaning from screen readers"
            ),
            "Do not measure only the English string: the budget applies to the longest translation",
        ),
        signals=(
            "text expansion",
            "truncated label",
            "pseudo-localization|pseudolocalisation",
            "{element_signal}",
        ),
        validation=("python label_budget.py strings/ --max {limit_flag} --locales {locales}",),
        slots={
            "element": (
                {
                    "element": "button",
                    "limit": "20 characters",
                    "limit_flag": "20",
                    "element_signal": "button label",
                },
                {
                    "element": "tab",
                    "limit": "12 characters",
                    "limit_flag": "12",
                    "element_signal": "tab label",
                },
                {
                    "element": "menu item",
                    "limit": "24 characters",
                    "limit_flag": "24",
                    "element_signal": "menu item",
                },
                {
                    "element": "notification title",
                    "limit": "40 characters",
                    "limit_flag": "40",
                    "element_signal": "notification title",
                },
                {
                    "element": "toast message",
                    "limit": "60 characters",
                    "limit_flag": "60",
                    "element_signal": "toast message",
                },
            ),
            "languages": (
                {
                    "languages": "German and Finnish",
                    "locales": "de,fi",
                    "width_note": ", with long compound words that cannot be broken",
                },
                {
                    "languages": "French and Brazilian Portuguese",
                    "locales": "fr,pt-BR",
                    "width_note": ", often by 20 to 30 percent",
                },
                {
                    "languages": "Russian and Polish",
                    "locales": "ru,pl",
                    "width_note": ", with inflected forms that change length by context",
                },
                {
                    "languages": "Japanese and Korean",
                    "locales": "ja,ko",
                    "width_note": (
                        " in rendered width, because full-width glyphs count double in width budgets"
                    ),
                },
            ),
            "platform": ("Android", "iOS", "web"),
        },
    ),
    Problem(
        slug="job_posting_pay_transparency",
        category="repair",
        summary="Write {posting} for {role} that meets the pay transparency rules of {jurisdiction}",
        task=(
            "Publish {posting} for {role}; the legal checklist for {jurisdiction} rejected the draft, and "
            "a compliance reviewer checks the pay and benefits disclosures."
        ),
        steps=(
            "{rule}",
            (
                "State pay as the good-faith range the employer actually expects to pay for this posting, "
                "with the period (hourly, annual) and currency, not an open-ended 'up to' or 'competitive'"
            ),
            "{role_rule}",
            (
                "Run the compliance checklist and keep a record of how the range was set, in case the "
                "posting is challenged"
            ),
        ),
        avoid=(
            (
                "Do not post a range so wide it tells applicants nothing: regulators treat it as not made "
                "in good faith"
            ),
            "Do not ask applicants for their salary history in the posting or application form",
        ),
        signals=("pay transparency", "salary range", "{signal}"),
        validation=("python posting_check.py posting.md --jurisdiction {flag}",),
        slots={
            "jurisdiction": (
                {
                    "jurisdiction": "Colorado",
                    "rule": (
                        "Include the hourly or salary range, a general description of benefits and other "
                        "compensation, and the application deadline, as the Equal Pay for Equal Work Act "
                        "requires"
                    ),
                    "signal": "equal pay for equal work act",
                    "flag": "co",
                },
                {
                    "jurisdiction": "New York City",
                    "rule": (
                        "Include the minimum and maximum salary or hourly rate the employer believes in "
                        "good faith it will pay, as Local Law 32 requires"
                    ),
                    "signal": "local law 32",
                    "flag": "nyc",
                },
                {
                    "jurisdiction": "California",
                    "rule": (
                        "Include the pay scale (the range the employer reasonably expects to pay) in the "
                        "posting and on third-party boards, as the Labor Code section 432.3 requires"
                    ),
                    "signal": "432.3",
                    "flag": "ca",
                },
                {
                    "jurisdiction": "Washington State",
                    "rule": (
                        "Include the wage scale or salary range and a general description of all benefits "
                        "and other compensation, as the Equal Pay and Opportunities Act requires"
                    ),
                    "signal": "equal pay and opportunities act",
                    "flag": "wa",
                },
                {
                    "jurisdiction": "an EU member state applying the Pay Transparency Directive",
                    "rule": (
                        "Give the initial pay or its range before the interview stage, and use a "
                        "gender-neutral job title and description"
                    ),
                    "signal": "pay transparency directive",
                    "flag": "eu",
                },
            ),
            "role": (
                {
                    "role": "a software engineer",
                    "role_rule": (
                        "List equity and bonus eligibility as other compensation without putting a "
                        "speculative value on them"
                    ),
                },
                {
                    "role": "an hourly warehouse associate",
                    "role_rule": (
                        "Give the hourly rate range and state shift differentials and overtime eligibility "
                        "as other compensation"
                    ),
                },
                {
                    "role": "a registered nurse",
                    "role_rule": (
                        "Give the base rate range and list shift, weekend and certification differentials "
                        "separately"
                    ),
                },
                {
                    "role": "a commissioned sales manager",
                    "role_rule": (
                        "Give the base salary range and describe how commission is earned, with an "
                        "on-target figure only if the policy defines it"
                    ),
                },
                {
                    "role": "a remote customer support agent",
                    "role_rule": (
                        "Treat the role as covered wherever the remote work could be done in the "
                        "jurisdiction, and give the range that applies there"
                    ),
                },
            ),
            "posting": (
                "a new external job posting",
                "an internal promotion posting",
                "a posting for a job board",
            ),
        },
    ),
    Problem(
        slug="fair_housing_listing_language",
        category="repair",
        summary=(
            "Write a rental or sale listing for {property} on {channel} that describes the property, not "
            "the people, under {law}"
        ),
        task=(
            "Rewrite the listing for {property} on {channel}; the draft was flagged under {law}, and a "
            "compliance checker scans for discriminatory or preference-signalling wording."
        ),
        steps=(
            (
                "Describe the property and its amenities (two bedrooms, fenced yard, near bus routes) "
                "instead of who should live there (ideal for families, perfect for professionals)"
            ),
            "{property_rule}",
            "{law_rule}",
            (
                "Run the word-list checker and reread every adjective that could describe a person rather "
                "than a home"
            ),
        ),
        avoid=(
            (
                "Do not state or imply a preference about familial status, religion, national origin, sex, "
                "disability or race, including through landmarks ('walking distance to St. Mary's')"
            ),
            (
                "Do not write 'no Section 8' or 'professionals only' where source-of-income or similar "
                "protections apply"
            ),
        ),
        signals=("fair housing", "discriminatory advertising", "{law_signal}"),
        validation=("python listing_check.py listing.md --law {law_flag}",),
        slots={
            "property": (
                {
                    "property": "a two-bedroom apartment",
                    "property_rule": (
                        "Describe the space in square feet and rooms, not in terms of who it suits"
                    ),
                },
                {
                    "property": "a four-bedroom suburban house",
                    "property_rule": (
                        "Describe the bedrooms, yard and nearby schools as facts about the area, not as a "
                        "fit for families with children"
                    ),
                },
                {
                    "property": "a 55-and-over community",
                    "property_rule": (
                        "State the age restriction only as the qualifying housing-for-older-persons "
                        "exemption allows, using the exact eligibility wording the community has documented"
                    ),
                },
                {
                    "property": "a studio above a shop",
                    "property_rule": (
                        "Describe stairs, access and accessibility features factually rather than saying "
                        "who can or cannot manage them"
                    ),
                },
                {
                    "property": "a downtown loft",
                    "property_rule": (
                        "Describe transit, parking and nearby amenities by name and distance without "
                        "signalling who the neighbours are"
                    ),
                },
            ),
            "channel": (
                "the MLS",
                "a classifieds site",
                "a social media ad platform",
                "a property management website",
            ),
            "law": (
                {
                    "law": "the federal Fair Housing Act",
                    "law_rule": (
                        "Check the wording against HUD's advertising guidance for the seven protected "
                        "classes and add the Equal Housing Opportunity statement or logo"
                    ),
                    "law_signal": "fair housing act",
                    "law_flag": "fha",
                },
                {
                    "law": "California's Fair Employment and Housing Act",
                    "law_rule": (
                        "Also cover the state's extra protected characteristics, including source of "
                        "income, so housing vouchers cannot be excluded"
                    ),
                    "law_signal": "source of income",
                    "law_flag": "ca-feha",
                },
                {
                    "law": "the New York City Human Rights Law",
                    "law_rule": (
                        "Also cover the city's extra protected categories, including lawful source of "
                        "income and occupation"
                    ),
                    "law_signal": "nyc human rights law",
                    "law_flag": "nyc",
                },
            ),
        },
    ),
    Problem(
        slug="food_label_ingredient_list",
        category="repair",
        summary=(
            "Write the ingredient list and allergen statement for {product} {recipe}, to {regime} "
            "labelling rules"
        ),
        task=(
            "Prepare the pack label text for {product} {recipe}; a regulatory reviewer checks the "
            "ingredient list against {regime} rules."
        ),
        steps=(
            (
                "List ingredients in descending order of weight at the mixing bowl, using each "
                "ingredient's legal or customary name"
            ),
            "{regime_rule}",
            "{recipe_rule}",
            (
                "Check the list against the recipe specification sheet line by line, including ingredients "
                "of ingredients from supplier specifications"
            ),
        ),
        avoid=(
            "Do not rely on a 'may contain' statement to cover an allergen that is an actual ingredient",
            (
                "Do not copy a supplier's ingredient names without checking they are the legal names for "
                "this market"
            ),
        ),
        signals=("ingredient list", "allergen", "{regime_signal}"),
        validation=("python label_check.py label.md --regime {regime_flag}",),
        slots={
            "product": (
                "a cereal bar",
                "a chilled lasagne ready meal",
                "a chocolate hazelnut spread",
                "a plant-based burger patty",
                "a prepacked sourdough loaf",
            ),
            "regime": (
                {
                    "regime": "EU",
                    "regime_rule": (
                        "Emphasise the 14 regulated allergens within the list (bold or capitals) as "
                        "Regulation (EU) No 1169/2011 requires, and give percentages (QUID) for "
                        "ingredients named or pictured on the pack"
                    ),
                    "regime_signal": "1169/2011",
                    "regime_flag": "eu",
                },
                {
                    "regime": "UK",
                    "regime_rule": (
                        "Emphasise the 14 allergens within the list under the retained food information "
                        "rules, give QUID percentages, and add full ingredient labelling for food "
                        "prepacked for direct sale"
                    ),
                    "regime_signal": "natasha's law|ppds",
                    "regime_flag": "uk",
                },
                {
                    "regime": "US FDA",
                    "regime_rule": (
                        "Name the nine major food allergens (including sesame) in the list or in a "
                        "'Contains' statement directly after it, and use the common or usual names of 21 "
                        "CFR 101.4"
                    ),
                    "regime_signal": "contains statement",
                    "regime_flag": "us",
                },
                {
                    "regime": "Canadian",
                    "regime_rule": (
                        "Give the list in English and French, declare priority allergens, gluten sources "
                        "and added sulphites in the list or a 'Contains' statement, and follow CFIA "
                        "ordering rules"
                    ),
                    "regime_signal": "cfia",
                    "regime_flag": "ca",
                },
            ),
            "recipe": (
                {
                    "recipe": "whose recipe contains compound ingredients such as a filling and a sauce",
                    "recipe_rule": (
                        "Declare each compound ingredient by name followed by its own ingredients in "
                        "parentheses, in descending order"
                    ),
                },
                {
                    "recipe": "whose recipe includes added water, flavourings and additives",
                    "recipe_rule": (
                        "Place added water by its weight in the finished product and name additives by "
                        "their functional class followed by the name or code"
                    ),
                },
                {
                    "recipe": "after a reformulation with a new supplier's ingredient",
                    "recipe_rule": (
                        "Re-derive the order and percentages from the new recipe and re-check the new "
                        "supplier's allergen declaration"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="ghs_hazard_label_elements",
        category="repair",
        summary=(
            "Write {element} for {substance} with the GHS label elements that {regime} requires: "
            "pictograms, signal word, hazard and precautionary statements"
        ),
        task=(
            "Prepare {element} for {substance} for sale under {regime}; a regulatory checker compares the "
            "label elements with the classification in the safety data sheet."
        ),
        steps=(
            (
                "Take the hazard classification from the safety data sheet or the official harmonised "
                "classification; never classify from the product name"
            ),
            (
                "Pick the pictograms and a single signal word (Danger outranks Warning) from the "
                "classification, and write the hazard statements with their codes in full standard wording"
            ),
            "{regime_rule}",
            "{element_rule}",
        ),
        avoid=(
            "Do not paraphrase hazard or precautionary statements: the regulation fixes their wording",
            "Do not show both Danger and Warning, or a pictogram the classification does not call for",
        ),
        signals=("ghs label", "hazard statements", "signal word", "{regime_signal}"),
        validation=("python ghs_check.py label.json --sds sds.pdf --regime {regime_flag}",),
        slots={
            "substance": (
                "an isopropyl alcohol cleaning solution",
                "a sodium hydroxide drain cleaner",
                "an epoxy resin hardener",
                "a herbicide concentrate",
                "an acetone-based solvent",
                "a 35 percent hydrogen peroxide solution",
            ),
            "regime": (
                {
                    "regime": "EU CLP",
                    "regime_rule": (
                        "Use CLP's EUH supplemental statements where they apply, choose no more than six "
                        "precautionary statements unless more are needed, and add the UFI code for mixtures"
                    ),
                    "regime_signal": "clp regulation",
                    "regime_flag": "clp",
                },
                {
                    "regime": "US OSHA HazCom",
                    "regime_rule": (
                        "Include product identifier, supplier name, address and phone number alongside the "
                        "six label elements of the Hazard Communication Standard"
                    ),
                    "regime_signal": "hazcom",
                    "regime_flag": "osha",
                },
                {
                    "regime": "Canadian WHMIS",
                    "regime_rule": (
                        "Give the label elements in English and French, inside the WHMIS hatched border "
                        "for supplier labels"
                    ),
                    "regime_signal": "whmis",
                    "regime_flag": "whmis",
                },
                {
                    "regime": "the GHS revision adopted in the export market",
                    "regime_rule": (
                        "Check which GHS revision and building blocks the destination has adopted, and "
                        "label to that country's version"
                    ),
                    "regime_signal": "ghs revision",
                    "regime_flag": "ghs",
                },
            ),
            "element": (
                {
                    "element": "the container label",
                    "element_rule": (
                        "Lay out the elements in the order and minimum size the regime requires for the "
                        "container volume, and keep them legible after handling"
                    ),
                },
                {
                    "element": "section 2 (hazard identification) of the safety data sheet",
                    "element_rule": (
                        "Make section 2 match the container label exactly, and keep it consistent with the "
                        "classification data in section 11"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="status_page_incident_update",
        category="repair",
        summary=(
            "Write the {phase} update for an incident on {service} for {page} that follows the incident "
            "communication template"
        ),
        task=(
            "An incident affects {service}; post the {phase} update on {page}; the incident communications "
            "checklist reviews timing, wording and required fields."
        ),
        steps=(
            (
                "Lead with the customer impact in plain words (what is failing, for whom, since when in "
                "UTC), not internal component names"
            ),
            "{phase_rule}",
            (
                "Give the time of the next update and keep the status label, affected components and "
                "severity consistent with the previous update"
            ),
            "Have the incident commander approve the text, then post it and check it renders on {page}",
        ),
        avoid=(
            "Do not speculate about cause or blame a vendor in a public update before it is confirmed",
            "Do not promise a fix time you cannot meet: give the next update time instead",
        ),
        signals=("status page", "incident update", "{phase_signal}"),
        validation=("python incident_comms_check.py update.md --phase {phase_flag}",),
        slots={
            "service": (
                "a payments API",
                "a video streaming platform",
                "an email delivery service",
                "a CI/CD platform",
                "a multiplayer game backend",
            ),
            "phase": (
                {
                    "phase": "Investigating",
                    "phase_rule": (
                        "Say the issue is known and being investigated, what users may see, and any "
                        "workaround"
                    ),
                    "phase_signal": "investigating",
                    "phase_flag": "investigating",
                },
                {
                    "phase": "Identified",
                    "phase_rule": (
                        "Say the cause has been identified in plain terms and what is being done, without "
                        "internal details"
                    ),
                    "phase_signal": "identified",
                    "phase_flag": "identified",
                },
                {
                    "phase": "Monitoring",
                    "phase_rule": (
                        "Say a fix has been applied, that the team is watching for recurrence, and whether "
                        "users need to retry anything"
                    ),
                    "phase_signal": "monitoring",
                    "phase_flag": "monitoring",
                },
                {
                    "phase": "Resolved",
                    "phase_rule": (
                        "Give the start and end times of impact in UTC, what was affected, and when a "
                        "post-incident report will follow"
                    ),
                    "phase_signal": "resolved",
                    "phase_flag": "resolved",
                },
            ),
            "page": (
                "a public status page",
                "a private status page for enterprise customers",
                "the status page and an in-app banner",
            ),
        },
    ),
    Problem(
        slug="clinical_handoff_structured",
        category="repair",
        summary=(
            "Write an {format} handoff for {setting} for {patient} that covers every element of the "
            "mnemonic in order"
        ),
        task=(
            "Convert free-text notes into an {format} handoff for {setting} involving {patient}; a "
            "clinical educator's checklist scores completeness and order."
        ),
        steps=(
            "{format_rule}",
            (
                "Put the most urgent concern first within its element, and give vital signs with their "
                "times and the latest {score} score"
            ),
            (
                "State the request or action items as specific tasks with owners and times ('review within "
                "30 minutes'), not 'keep an eye on'"
            ),
            "End with a read-back: the receiver restates the key points and any open questions are recorded",
        ),
        avoid=(
            (
                "Do not use abbreviations outside the approved list: ambiguous shorthand is a known cause "
                "of handoff errors"
            ),
            "Do not mix several patients in one handoff record",
        ),
        signals=("{format_signal}", "handoff|handover", "{score}"),
        validation=("python handoff_check.py handoff.md --format {format_flag}",),
        slots={
            "setting": (
                "an emergency department to ward transfer",
                "a nursing shift change on a medical ward",
                "an intensive care to step-down transfer",
                "a phone call to the on-call doctor about deterioration",
                "a handover from theatre to the recovery unit",
            ),
            "format": (
                {
                    "format": "SBAR",
                    "format_rule": (
                        "Write four labelled parts in order: Situation (who and what now), Background "
                        "(relevant history), Assessment (what you think is going on), Recommendation (what "
                        "you need)"
                    ),
                    "format_signal": "sbar",
                    "format_flag": "sbar",
                },
                {
                    "format": "ISBAR",
                    "format_rule": (
                        "Start with Identify (yourself, your role, the patient with two identifiers), then "
                        "Situation, Background, Assessment and Recommendation"
                    ),
                    "format_signal": "isbar",
                    "format_flag": "isbar",
                },
                {
                    "format": "I-PASS",
                    "format_rule": (
                        "Write Illness severity, Patient summary, Action list, Situation awareness and "
                        "contingency plans, then Synthesis by the receiver"
                    ),
                    "format_signal": "i-pass",
                    "format_flag": "ipass",
                },
            ),
            "patient": (
                {"patient": "an adult patient", "score": "NEWS2"},
                {"patient": "a child", "score": "PEWS"},
                {"patient": "a maternity patient", "score": "MEOWS"},
            ),
        },
    ),
    Problem(
        slug="informed_consent_required_elements",
        category="repair",
        summary=(
            "Write {format} for {study} that contains every element the revised Common Rule requires, with "
            "a key information section first, at {level}"
        ),
        task=(
            "Draft {format} for {study}; the IRB returned the previous draft, and a checklist based on 45 "
            "CFR 46.116 checks the elements and whether the text reads at {level}."
        ),
        steps=(
            (
                "Open with a concise key information section: that this is research and voluntary, its "
                "purpose, duration, procedures, main risks and benefits, and alternatives"
            ),
            (
                "Cover every basic element of 46.116(b) (purpose and procedures, risks, benefits, "
                "alternatives, confidentiality, compensation for injury where risk is more than minimal, "
                "contacts, voluntariness) and each additional element that applies"
            ),
            "{study_rule}",
            (
                "{format_rule} Then check the reading level with the checker and replace technical terms "
                "with plain words until it meets {level}"
            ),
        ),
        avoid=(
            "Do not include exculpatory language that waives or appears to waive participants' legal rights",
            "Do not hide key risks in the body while the key information section says the study is low risk",
        ),
        signals=("informed consent", "45 cfr 46.116", "key information", "{study_signal}"),
        validation=("python consent_check.py consent.md --rule common-rule --grade {grade}",),
        slots={
            "study": (
                {
                    "study": "a phase II drug trial",
                    "study_rule": (
                        "Describe foreseeable risks of the drug and procedures, what happens if "
                        "participants are injured, and that new findings will be shared"
                    ),
                    "study_signal": "clinical trial",
                },
                {
                    "study": "a minimal-risk online survey",
                    "study_rule": (
                        "Keep it short, say how data are stored and whether responses can be withdrawn, "
                        "and state the time the survey takes"
                    ),
                    "study_signal": "online survey",
                },
                {
                    "study": "a biobank sample collection",
                    "study_rule": (
                        "Explain future unspecified research use, whether samples may be used for "
                        "commercial profit, and whether whole-genome sequencing may be done"
                    ),
                    "study_signal": "biospecimens",
                },
                {
                    "study": "a classroom behavioural intervention",
                    "study_rule": (
                        "Write the parental permission form and a separate child assent script in "
                        "age-appropriate language"
                    ),
                    "study_signal": "child assent",
                },
                {
                    "study": "a wearable device feasibility study",
                    "study_rule": (
                        "Say what data the device collects, who can see it, how long it is kept, and what "
                        "happens to the device at the end"
                    ),
                    "study_signal": "device data",
                },
                {
                    "study": "a qualitative interview study",
                    "study_rule": (
                        "Say whether interviews are recorded, how quotes will be used and how participants "
                        "are de-identified"
                    ),
                    "study_signal": "audio recording",
                },
                {
                    "study": "a genetic sequencing study",
                    "study_rule": (
                        "Explain whether and how clinically relevant results will be returned and the "
                        "limits of genetic privacy protections"
                    ),
                    "study_signal": "return of results",
                },
            ),
            "format": (
                {
                    "format": "a paper consent form",
                    "format_rule": (
                        "Add the signature and date lines and a statement that the participant gets a copy."
                    ),
                },
                {
                    "format": "an electronic consent flow",
                    "format_rule": (
                        "Split the content into screens, add comprehension questions on the key points and "
                        "an electronic signature step."
                    ),
                },
                {
                    "format": "a verbal consent script read by phone",
                    "format_rule": (
                        "Write it to be read aloud, with pauses for questions, and record how consent is "
                        "documented under the waiver of documentation."
                    ),
                },
            ),
            "level": (
                {"level": "an 8th-grade reading level", "grade": "8"},
                {"level": "a 6th-grade reading level", "grade": "6"},
            ),
        },
    ),
    Problem(
        slug="peer_review_report_structure",
        category="repair",
        summary=(
            "Write a peer review report for {venue} under {model} review recommending {decision}, "
            "structured as the reviewer guidelines require"
        ),
        task=(
            "Review a submitted manuscript for {venue} under {model} review; the editor returned an "
            "earlier report, and a rubric checks structure, specificity and the {decision} "
            "recommendation's justification."
        ),
        steps=(
            (
                "Open with a neutral two or three sentence summary of the paper's question, methods and "
                "claimed findings, so the editor sees you read it as the authors intended"
            ),
            (
                "List major issues as numbered points, each naming the section or figure, the problem, why "
                "it matters for the conclusions, and what would resolve it; then minor issues separately"
            ),
            "{model_rule}",
            "{decision_rule}",
        ),
        avoid=(
            (
                "Do not put the accept or reject recommendation in the comments to authors when the form "
                "has a separate field for it"
            ),
            "Do not demand citations of your own work or new experiments outside the paper's scope",
        ),
        signals=("peer review report", "major issues", "{model_signal}", "comments to the editor"),
        validation=("python review_check.py report.md --venue {venue_flag}",),
        slots={
            "venue": (
                {"venue": "a general medical journal", "venue_flag": "medical"},
                {"venue": "a computer science conference", "venue_flag": "conference"},
                {"venue": "an economics journal", "venue_flag": "economics"},
                {"venue": "an ecology journal", "venue_flag": "ecology"},
            ),
            "model": (
                {
                    "model": "single-anonymous",
                    "model_rule": (
                        "Keep confidential concerns (suspected duplicate publication, conflicts) in the "
                        "comments to the editor, and address the authors respectfully by the paper, not by "
                        "name"
                    ),
                    "model_signal": "single-blind|single-anonymous",
                },
                {
                    "model": "double-anonymous",
                    "model_rule": (
                        "Remove anything that could identify you (your own papers as 'my work', your lab's "
                        "methods, local details) and do not try to identify the authors"
                    ),
                    "model_signal": "double-blind|double-anonymous",
                },
                {
                    "model": "open",
                    "model_rule": (
                        "Write knowing the report will be signed and published with the paper: keep every "
                        "point about the work and phrase criticism so it can stand in public"
                    ),
                    "model_signal": "open peer review",
                },
            ),
            "decision": (
                {
                    "decision": "major revision",
                    "decision_rule": (
                        "Tie the major revision recommendation to the numbered major issues, saying which "
                        "must be fixed for the conclusions to hold"
                    ),
                },
                {
                    "decision": "minor revision",
                    "decision_rule": (
                        "Say the conclusions are supported and list the minor changes needed before "
                        "publication"
                    ),
                },
                {
                    "decision": "rejection",
                    "decision_rule": (
                        "Explain which flaw cannot be fixed by revision, and still give the authors usable "
                        "feedback for another venue"
                    ),
                },
                {
                    "decision": "acceptance",
                    "decision_rule": (
                        "Say specifically why the evidence supports the claims and list any last corrections"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="romanisation_standard_names",
        category="repair",
        summary="Romanise {lang} {context} with {system} consistently, {mode}",
        task=(
            "A publisher needs {lang} {context} in Latin script, {mode}; its house style sheet mandates "
            "{system}, and a checker compares every form with the standard tables."
        ),
        steps=(
            (
                "Work from the original script, not from existing Latin spellings, unless a name has an "
                "established English form the style sheet lists as an exception"
            ),
            "{rule}",
            "{mode_rule}",
            (
                "Run the checker over the whole list and resolve every mismatch by checking the original "
                "script, then record exceptions in the style sheet"
            ),
        ),
        avoid=(
            (
                "Do not mix two romanisation systems in one publication, even for names that look familiar "
                "in another system"
            ),
            (
                "Do not drop the diacritics or apostrophes the system requires just because a font or "
                "keyboard makes them inconvenient"
            ),
        ),
        signals=("romanisation|romanization", "{system_signal}", "transliteration"),
        validation=("python romanise_check.py names.csv --system {flag}",),
        slots={
            "lang": (
                {
                    "lang": "Japanese",
                    "system": "modified Hepburn",
                    "rule": (
                        "Mark long vowels with macrons (Tōkyō), write n before b, m and p as n, and use an "
                        "apostrophe after n before a vowel or y (Jun'ichi)"
                    ),
                    "system_signal": "hepburn",
                    "flag": "hepburn",
                },
                {
                    "lang": "Chinese",
                    "system": "Hanyu Pinyin with tone marks",
                    "rule": (
                        "Put tone marks on the vowel the a-o-e rule selects (Běijīng), keep ü after n and "
                        "l (nǚ), and join the syllables of one word (Zhōngguó)"
                    ),
                    "system_signal": "pinyin",
                    "flag": "pinyin",
                },
                {
                    "lang": "Korean",
                    "system": "the Revised Romanization of Korean",
                    "rule": (
                        "Use no diacritics or apostrophes, apply the sound-change rules (Jongno, not "
                        "Jongro), and add a hyphen only to resolve ambiguity"
                    ),
                    "system_signal": "revised romanization",
                    "flag": "rr",
                },
                {
                    "lang": "Russian",
                    "system": "BGN/PCGN",
                    "rule": (
                        "Write ж as zh, х as kh, щ as shch, and initial е as ye, following the BGN/PCGN "
                        "table exactly"
                    ),
                    "system_signal": "bgn/pcgn",
                    "flag": "bgn",
                },
                {
                    "lang": "Russian",
                    "system": "ISO 9",
                    "rule": (
                        "Use the one-to-one ISO 9 table with diacritics (ж ž, ч č, щ ŝ, ю û, я â) so every "
                        "form can be reversed"
                    ),
                    "system_signal": "iso 9",
                    "flag": "iso9",
                },
                {
                    "lang": "Arabic",
                    "system": "ALA-LC",
                    "rule": (
                        "Mark long vowels with macrons (ā, ī, ū), ʻayn with ʻ and hamzah with ʼ, and "
                        "hyphenate the article al- to the following word"
                    ),
                    "system_signal": "ala-lc",
                    "flag": "ala-lc",
                },
                {
                    "lang": "Greek",
                    "system": "ELOT 743",
                    "rule": "Transcribe θ as th, χ as ch, ψ as ps and ου as ou, and drop the accent marks",
                    "system_signal": "elot 743",
                    "flag": "elot743",
                },
                {
                    "lang": "Ukrainian",
                    "system": "the Ukrainian national system of 2010",
                    "rule": (
                        "Write г as h and ґ as g, и as y and і as i, and ї as yi at the start of a word "
                        "but i elsewhere (Kyiv)"
                    ),
                    "system_signal": "kmu 2010",
                    "flag": "ua2010",
                },
            ),
            "context": (
                "personal names for library catalogue records",
                "place names for a map",
                "street names for a travel guide",
                "author names for a reference list",
            ),
            "mode": (
                {
                    "mode": "starting from the original script",
                    "mode_rule": (
                        "Record the original-script form next to each romanised form so reviewers can "
                        "check every line"
                    ),
                },
                {
                    "mode": "replacing legacy spellings that mixed several systems",
                    "mode_rule": (
                        "List each legacy spelling with its source, re-romanise from the original script, "
                        "and keep the old form only as a cross-reference"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="personal_name_order_and_sorting",
        category="repair",
        summary="Display and sort {culture} personal names correctly in {system} for {output}",
        task=(
            "Fix how {system} shows and sorts {culture} names in {output}; users complained of wrong "
            "surnames and salutations, and a test set of names checks display and sort keys."
        ),
        steps=(
            (
                "Store names in separate fields (given, family, and any additional parts) plus the "
                "person's own preferred full form, instead of one string split on spaces"
            ),
            "{rule}",
            "{output_rule}",
            "Run the test set and check the display name, the sort key and the salutation for each name",
        ),
        avoid=(
            "Do not assume the last word of a name is the family name or the first word the given name",
            "Do not force names into ASCII or title case: keep the person's own spelling and capitalisation",
        ),
        signals=("name order", "family name", "{signal}", "sort key"),
        validation=("python name_display_check.py names.json --culture {flag}",),
        slots={
            "culture": (
                {
                    "culture": "Japanese",
                    "rule": (
                        "Write family name first in Japanese, and follow the publication's stated order in "
                        "English (many now use family name first, often with the family name in capitals)"
                    ),
                    "signal": "family name first",
                    "flag": "ja",
                },
                {
                    "culture": "Chinese",
                    "rule": (
                        "Put the family name (usually one syllable, sometimes two) first, and do not "
                        "hyphenate or reorder two-syllable given names"
                    ),
                    "signal": "surname first",
                    "flag": "zh",
                },
                {
                    "culture": "Korean",
                    "rule": (
                        "Put the family name first and treat the two-syllable given name as one unit, "
                        "keeping the person's own hyphenation"
                    ),
                    "signal": "korean names",
                    "flag": "ko",
                },
                {
                    "culture": "Hungarian",
                    "rule": (
                        "Put the family name first in Hungarian text and sort by family name in every "
                        "language"
                    ),
                    "signal": "eastern name order",
                    "flag": "hu",
                },
                {
                    "culture": "Spanish",
                    "rule": (
                        "Keep both surnames (paternal then maternal), sort by the first surname, and do "
                        "not treat the maternal surname as a middle name"
                    ),
                    "signal": "two surnames",
                    "flag": "es",
                },
                {
                    "culture": "Icelandic",
                    "rule": (
                        "Treat the patronymic or matronymic as not a family name: address people by given "
                        "name and sort by given name, as Icelandic directories do"
                    ),
                    "signal": "patronymic",
                    "flag": "is",
                },
                {
                    "culture": "Vietnamese",
                    "rule": (
                        "Put the family name first in full names but address people by the last element, "
                        "their given name (Mr. Dũng for Nguyễn Văn Dũng)"
                    ),
                    "signal": "vietnamese names",
                    "flag": "vi",
                },
                {
                    "culture": "Arabic",
                    "rule": (
                        "Keep nasab elements (bin, ibn, bint) and the article al- as written, and sort by "
                        "the element the person or style guide designates, ignoring al- for alphabetising"
                    ),
                    "signal": "nasab",
                    "flag": "ar",
                },
            ),
            "system": (
                "a CRM contact list",
                "a conference badge generator",
                "an academic author index",
                "a patient registration system",
            ),
            "output": (
                {
                    "output": "English-language materials",
                    "output_rule": (
                        "Pick one explicit order for English output, apply it to every record and show the "
                        "family name unambiguously where the order could mislead"
                    ),
                },
                {
                    "output": "materials in each person's own language",
                    "output_rule": (
                        "Render names in each language's native order and script, falling back to the "
                        "preferred full form the person entered"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="locale_collation_sort_order",
        category="repair",
        summary=(
            "Sort {list} in {lang} alphabetical order with {tool}, following the locale's collation rules"
        ),
        task=(
            "Users reported that {list} sorts wrongly for {lang} readers; reimplement the ordering with "
            "{tool}; a test list of tricky words checks the result."
        ),
        steps=(
            "Replace code-point or ASCII sorting with locale-aware collation for the {locale} locale",
            "{rule}",
            "{tool_rule}",
            (
                "Sort the test list and compare it word by word with the expected order, including upper "
                "and lower case and accented forms"
            ),
        ),
        avoid=(
            (
                "Do not strip accents to sort: in many locales accented letters are separate letters with "
                "their own place"
            ),
            (
                "Do not sort in the database and again in the front end with different collations: pick "
                "one and use it everywhere"
            ),
        ),
        signals=("collation", "{locale}", "{signal}", "sort order"),
        validation=("python collation_check.py sorted.txt --locale {locale}",),
        slots={
            "lang": (
                {
                    "lang": "Swedish",
                    "locale": "sv-SE",
                    "rule": "Place å, ä and ö after z, in that order",
                    "signal": "å ä ö after z",
                },
                {
                    "lang": "German phonebook",
                    "locale": "de-DE-u-co-phonebk",
                    "rule": (
                        "Sort ä, ö and ü as ae, oe and ue, as the phonebook collation does, unlike the "
                        "dictionary default"
                    ),
                    "signal": "phonebook collation",
                },
                {
                    "lang": "Spanish",
                    "locale": "es-ES",
                    "rule": (
                        "Place ñ after n, and do not treat ch and ll as separate letters (modern rules "
                        "since 1994)"
                    ),
                    "signal": "ñ after n",
                },
                {
                    "lang": "Danish",
                    "locale": "da-DK",
                    "rule": "Place æ, ø and å after z, and sort aa as å in names where the locale does",
                    "signal": "æ ø å",
                },
                {
                    "lang": "Lithuanian",
                    "locale": "lt-LT",
                    "rule": "Sort y together with i, as Lithuanian collation does",
                    "signal": "y with i",
                },
                {
                    "lang": "Czech",
                    "locale": "cs-CZ",
                    "rule": "Sort ch as a letter after h, and č, ř, š and ž after c, r, s and z",
                    "signal": "ch after h",
                },
                {
                    "lang": "Turkish",
                    "locale": "tr-TR",
                    "rule": (
                        "Keep dotless ı before i, and ç, ğ, ö, ş and ü after c, g, o, s and u, with "
                        "Turkish case mapping for İ and I"
                    ),
                    "signal": "dotless i",
                },
                {
                    "lang": "Japanese",
                    "locale": "ja-JP",
                    "rule": (
                        "Sort by the reading (yomigana) in gojūon order, which requires a stored reading "
                        "for every kanji name"
                    ),
                    "signal": "gojuon",
                },
            ),
            "list": ("a product catalogue", "a customer directory", "a glossary", "a street index"),
            "tool": (
                {
                    "tool": "ICU through PyICU",
                    "tool_rule": (
                        "Create the collator with icu.Collator.createInstance for the locale and sort with "
                        "its getSortKey"
                    ),
                },
                {
                    "tool": "PostgreSQL ICU collations",
                    "tool_rule": (
                        "Create an ICU collation for the locale and use it in ORDER BY and in the index "
                        "that serves the query"
                    ),
                },
                {
                    "tool": "JavaScript Intl.Collator",
                    "tool_rule": (
                        "Use new Intl.Collator with the locale and compare, and check the runtime ships "
                        "full ICU data"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="amount_in_words_legal_tender",
        category="repair",
        summary=(
            "Write {currency} amounts in words on {document} exactly as {lang} conventions require, for "
            "{range}"
        ),
        task=(
            "Generate the amount-in-words line for {document} with {currency} amounts ({range}); a checker "
            "compares the words with the figures and the bank's wording rules."
        ),
        steps=(
            (
                "Convert the figure from the exact decimal value, never from a float, and split it into "
                "major and minor units first"
            ),
            "{rule}",
            "{range_rule}",
            (
                "Compare the words back to the figure with the checker for a test set including 0, 1, "
                "teens, round hundreds, thousands and the largest allowed amount"
            ),
        ),
        avoid=(
            (
                "Do not leave space before or after the words where someone could add to them: close the "
                "line as the convention requires"
            ),
            "Do not round the minor units: the words must match the figure exactly",
        ),
        signals=("amount in words", "{signal}", "number to words"),
        validation=("python words_check.py amounts.csv --lang {flag}",),
        slots={
            "currency": (
                {
                    "currency": "US dollar",
                    "lang": "US English",
                    "rule": (
                        "Write the dollars in words, then 'and' and the cents as a fraction over 100 (One "
                        "thousand two hundred thirty-four and 56/100 dollars)"
                    ),
                    "signal": "56/100",
                    "flag": "en-US",
                },
                {
                    "currency": "pound sterling",
                    "lang": "British English",
                    "rule": (
                        "Write the pounds in words with 'and' inside numbers (one thousand two hundred and "
                        "thirty-four pounds) and the pence in figures"
                    ),
                    "signal": "pounds and pence",
                    "flag": "en-GB",
                },
                {
                    "currency": "Indian rupee",
                    "lang": "Indian English",
                    "rule": (
                        "Group in lakhs and crores (Rupees One Lakh Twenty Thousand Only), close with "
                        "'Only', and write paise after 'and'"
                    ),
                    "signal": "lakh|crore",
                    "flag": "en-IN",
                },
                {
                    "currency": "euro",
                    "lang": "French",
                    "rule": (
                        "Follow French numeral rules (quatre-vingts takes s only when final, cent takes s "
                        "only when multiplied and final, mille never does) and use one hyphenation "
                        "convention throughout"
                    ),
                    "signal": "quatre-vingts",
                    "flag": "fr",
                },
                {
                    "currency": "euro",
                    "lang": "German",
                    "rule": (
                        "Write the number as one word below one million "
                        "(eintausendzweihundertvierunddreißig) and treat Million and Milliarde as separate "
                        "nouns"
                    ),
                    "signal": "zahlwort",
                    "flag": "de",
                },
                {
                    "currency": "euro",
                    "lang": "Spanish",
                    "rule": (
                        "Use 'y' only between tens and units (treinta y cuatro), write the cents as 'con "
                        "... céntimos', and use un, not uno, before the currency noun"
                    ),
                    "signal": "céntimos",
                    "flag": "es",
                },
            ),
            "document": ("printed cheques", "promissory notes", "invoices that repeat the total in words"),
            "range": (
                {
                    "range": "six-figure amounts",
                    "range_rule": "Check the thousands boundary words carefully, where most errors appear",
                },
                {
                    "range": "amounts of a million or more",
                    "range_rule": (
                        "Use the language's word for million and its plural and article rules, and check "
                        "the long and short scale are not confused"
                    ),
                },
                {
                    "range": "whole amounts with no minor units",
                    "range_rule": (
                        "Write the zero minor part the way the convention requires (00/100, 'only', or no "
                        "minor part at all) rather than omitting it inconsistently"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="vat_invoice_mandatory_fields",
        category="repair",
        summary="Produce {document} for {business} covering {case} with every field the tax rules require",
        task=(
            "For {case}, {business} must issue {document}; the accountant's checker rejected the template, "
            "and it now checks each mandatory field and the tax wording."
        ),
        steps=(
            (
                "Start from the legal list of mandatory fields for this case, not from the old template, "
                "and map each one to a template field"
            ),
            "{case_rule}",
            "{document_rule}",
            (
                "Fill the template with test data, run the checker, and confirm totals, tax amounts and "
                "rounding per line and per rate"
            ),
        ),
        avoid=(
            (
                "Do not put real customer tax numbers or bank details in test templates: use the checker's "
                "sample values"
            ),
            (
                "Do not charge tax and print a reverse-charge or exemption note on the same line: the "
                "treatment must be one or the other"
            ),
        ),
        signals=("invoice requirements", "{case_signal}", "mandatory fields"),
        validation=("python invoice_check.py invoice.pdf --case {case_flag}",),
        slots={
            "case": (
                {
                    "case": "a domestic sale in Germany",
                    "case_rule": (
                        "Include both parties' names and addresses, the supplier's tax or VAT number, a "
                        "unique sequential invoice number, date of supply, net amount per rate, the rate "
                        "and the tax amount, as UStG section 14 requires"
                    ),
                    "case_signal": "ustg 14",
                    "case_flag": "de",
                },
                {
                    "case": "an intra-EU business supply under reverse charge",
                    "case_rule": (
                        "Show both parties' VAT identification numbers, no VAT charged, and the reverse "
                        "charge note ('Reverse charge') the VAT Directive requires"
                    ),
                    "case_signal": "reverse charge",
                    "case_flag": "eu-rc",
                },
                {
                    "case": "a UK sale over £250",
                    "case_rule": (
                        "Issue a full VAT invoice with VAT registration number, time of supply, "
                        "description, quantity, unit price, rate and VAT per line, and the total VAT in "
                        "sterling"
                    ),
                    "case_signal": "vat invoice",
                    "case_flag": "uk",
                },
                {
                    "case": "an export of goods outside the EU",
                    "case_rule": (
                        "Zero-rate the supply, state the exemption reason, and keep the export evidence "
                        "reference on the invoice"
                    ),
                    "case_signal": "zero-rated export",
                    "case_flag": "export",
                },
                {
                    "case": "an Australian sale over AUD 1,000",
                    "case_rule": (
                        "Title it Tax invoice and include the supplier's ABN, the buyer's identity, and "
                        "the GST amount for each taxable item"
                    ),
                    "case_signal": "tax invoice",
                    "case_flag": "au",
                },
                {
                    "case": "a small sale that allows a simplified invoice",
                    "case_rule": (
                        "Check the threshold for the jurisdiction, then include the reduced field set it "
                        "allows and nothing less"
                    ),
                    "case_signal": "simplified invoice",
                    "case_flag": "simplified",
                },
            ),
            "document": (
                {
                    "document": "an invoice",
                    "document_rule": (
                        "Number invoices in one unbroken sequence and never reuse a number, even for "
                        "cancelled drafts"
                    ),
                },
                {
                    "document": "a credit note correcting an earlier invoice",
                    "document_rule": (
                        "Reference the original invoice number and date, show the corrected amounts and "
                        "tax, and never edit the original"
                    ),
                },
            ),
            "business": (
                "a consulting firm",
                "a software reseller",
                "a furniture manufacturer",
                "an online course provider",
            ),
        },
    ),
    Problem(
        slug="typographic_quotes_by_language",
        category="repair",
        summary="Set quotation marks in {content} to {lang} typographic conventions, replacing {source}",
        task=(
            "A proofreader flagged {source} in {content} in {lang}; fix every quotation mark, nested quote "
            "and apostrophe to the language's conventions, and a typography checker validates the text."
        ),
        steps=(
            "{rule}",
            (
                "Convert nested quotations to the second-level marks of the same convention, and keep "
                "apostrophes as the typographic apostrophe (’), never as an opening quote"
            ),
            "{source_rule}",
            (
                "Run the typography checker and review every mark next to numbers, code and inch or minute "
                "symbols by hand"
            ),
        ),
        avoid=(
            "Do not apply English quotation marks to {lang} text because the translation came from English",
            (
                "Do not convert straight quotes inside code, URLs or markup attributes: only running text "
                "changes"
            ),
        ),
        signals=("quotation marks", "{signal}", "smart quotes"),
        validation=("python typography_check.py text.md --lang {flag}",),
        slots={
            "lang": (
                {
                    "lang": "French",
                    "rule": (
                        "Use « guillemets » with a narrow no-break space inside each mark, and the same "
                        "space before ; : ! and ?"
                    ),
                    "signal": "guillemets",
                    "flag": "fr",
                },
                {
                    "lang": "German",
                    "rule": (
                        "Use „low-high“ quotes with ‚single‘ quotes for nesting, or »chevrons« if the "
                        "house style prefers them, consistently"
                    ),
                    "signal": "„",
                    "flag": "de",
                },
                {
                    "lang": "Swiss German",
                    "rule": (
                        "Use «guillemets» pointing outwards with no spaces, and ‹single› guillemets for "
                        "nesting"
                    ),
                    "signal": "swiss guillemets",
                    "flag": "de-CH",
                },
                {
                    "lang": "Polish",
                    "rule": "Use „…” (low opening, high closing) with «…» for nested quotations",
                    "signal": "polish quotes",
                    "flag": "pl",
                },
                {
                    "lang": "Japanese",
                    "rule": (
                        "Use 「corner brackets」 with 『double brackets』 for nesting and full-width "
                        "punctuation"
                    ),
                    "signal": "「",
                    "flag": "ja",
                },
                {
                    "lang": "Spanish",
                    "rule": (
                        "Use «comillas angulares» first, then “inglesas”, then ‘simples’ for deeper "
                        "nesting, as the RAE recommends"
                    ),
                    "signal": "comillas",
                    "flag": "es",
                },
                {
                    "lang": "Swedish",
                    "rule": (
                        "Use ”…” with the same right-pointing mark to open and close, and ’…’ for nesting"
                    ),
                    "signal": "swedish quotes",
                    "flag": "sv",
                },
                {
                    "lang": "Czech",
                    "rule": "Use „…“ (low opening, high closing) with ‚…‘ for nesting",
                    "signal": "czech quotes",
                    "flag": "cs",
                },
            ),
            "content": (
                "a novel manuscript with nested dialogue",
                "a news article full of quotations",
                "UI strings in a localisation file",
                "a translated marketing brochure",
            ),
            "source": (
                {
                    "source": "straight ASCII quotes",
                    "source_rule": (
                        "Decide opening or closing for each straight quote from its position (after a "
                        "space or opening bracket means opening), then review ambiguous ones such as "
                        "quotes after digits"
                    ),
                },
                {
                    "source": "English curly quotes left by translators",
                    "source_rule": (
                        "Map each English opening and closing mark to the target opening and closing mark, "
                        "not by glyph shape, since some languages reuse English glyphs in another role"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="geojson_rfc7946_output",
        category="repair",
        summary=(
            "Export {data} from {source} as GeoJSON that conforms to RFC 7946 and displays correctly in "
            "{consumer}"
        ),
        task=(
            "Produce a GeoJSON FeatureCollection of {data} converted from {source} for {consumer}; a "
            "validator checks RFC 7946 and a map test checks positions and rendering."
        ),
        steps=(
            (
                "Write every position as [longitude, latitude] in WGS 84 decimal degrees, with no crs "
                "member; {source_rule}"
            ),
            "{data_rule}",
            (
                "Keep about six decimal places (roughly 10 cm), drop duplicate consecutive points, and put "
                "attributes under properties with consistent types across features"
            ),
            (
                "Validate with the RFC 7946 checker, then load the file into {consumer} and spot-check a "
                "few features against a base map"
            ),
        ),
        avoid=(
            (
                "Do not write [latitude, longitude]: RFC 7946 order is longitude first, and swapped points "
                "land in the wrong hemisphere"
            ),
            "Do not leave polygon rings open: the last position must repeat the first",
        ),
        signals=("geojson", "rfc 7946", "{data_signal}", "/lon(gitude)?,? ?lat(itude)? order/i"),
        validation=("python geojson_check.py out.geojson --rfc7946",),
        slots={
            "data": (
                {
                    "data": "delivery zone polygons",
                    "data_rule": (
                        "Wind exterior rings counterclockwise and holes clockwise (the right-hand rule) "
                        "and close every ring"
                    ),
                    "data_signal": "right-hand rule",
                },
                {
                    "data": "bike lane lines",
                    "data_rule": (
                        "Write each lane as a LineString, or a MultiLineString when it has gaps, with "
                        "points in travel order"
                    ),
                    "data_signal": "linestring",
                },
                {
                    "data": "store location points",
                    "data_rule": (
                        "Write each store as a Point Feature with a stable id member and its attributes "
                        "under properties"
                    ),
                    "data_signal": "point features",
                },
                {
                    "data": "flood-risk polygons with holes",
                    "data_rule": (
                        "Put the outer ring first and each hole as a further ring in the same Polygon, "
                        "wound clockwise"
                    ),
                    "data_signal": "polygon holes",
                },
                {
                    "data": "a boundary that crosses the antimeridian",
                    "data_rule": (
                        "Split geometries that cross the 180th meridian into a MultiPolygon with parts on "
                        "each side, as RFC 7946 section 3.1.9 says"
                    ),
                    "data_signal": "antimeridian",
                },
            ),
            "source": (
                {
                    "source": "a spreadsheet with latitude and longitude columns",
                    "source_rule": (
                        "swap the spreadsheet's latitude-first columns into longitude-first positions"
                    ),
                },
                {
                    "source": "a shapefile in Web Mercator (EPSG:3857)",
                    "source_rule": "reproject from EPSG:3857 to EPSG:4326 before writing",
                },
                {
                    "source": "a KML export",
                    "source_rule": (
                        "keep KML's longitude-first order and drop the altitude unless the consumer uses it"
                    ),
                },
            ),
            "consumer": ("Leaflet", "Mapbox GL JS", "a PostGIS import", "a GitHub map preview"),
        },
    ),
    Problem(
        slug="pgn_chess_game_record",
        category="repair",
        summary=(
            "Convert {source} from {event} into a PGN game record with the Seven Tag Roster and standard "
            "algebraic notation, {extras}"
        ),
        task=(
            "Publish the games of {event} in PGN, converted from {source} {extras}; a PGN parser and a "
            "move legality check validate every game."
        ),
        steps=(
            (
                "Write the Seven Tag Roster first and in order (Event, Site, Date, Round, White, Black, "
                "Result), with the date as YYYY.MM.DD and ?? for unknown parts"
            ),
            "{source_rule}",
            "{extras_rule}",
            (
                "End the movetext with a result token (1-0, 0-1, 1/2-1/2 or *) that matches the Result "
                "tag, then replay every game in a legality checker"
            ),
        ),
        avoid=(
            (
                "Do not use figurine symbols or local piece letters (S for knight) in export PGN: use K, "
                "Q, R, B, N"
            ),
            (
                "Do not drop check and mate suffixes or write castling with zeros: use + and #, and O-O "
                "with the capital letter O"
            ),
        ),
        signals=("pgn", "seven tag roster", "san moves", "{source_signal}"),
        validation=("python pgn_check.py games.pgn --replay",),
        slots={
            "source": (
                {
                    "source": "scoresheets in descriptive notation",
                    "source_rule": (
                        "Translate each descriptive move (P-K4, N-KB3) to SAN (e4, Nf3) with the board "
                        "tracked move by move, since descriptive notation depends on the side to move"
                    ),
                    "source_signal": "descriptive notation",
                },
                {
                    "source": "handwritten scoresheets",
                    "source_rule": (
                        "Replay moves on a board while transcribing and resolve illegible or illegal moves "
                        "from the position, marking unresolved ones with a comment"
                    ),
                    "source_signal": "scoresheet",
                },
                {
                    "source": "an engine log in UCI long algebraic (e2e4)",
                    "source_rule": (
                        "Convert each UCI move to SAN from the current position, adding disambiguation "
                        "(Nbd2) and promotion (e8=Q) where needed"
                    ),
                    "source_signal": "uci moves",
                },
                {
                    "source": "a website export with no tags",
                    "source_rule": (
                        "Fill the tags from the tournament record and keep the site's game URL in a Site "
                        "or custom tag"
                    ),
                    "source_signal": "pgn tags",
                },
            ),
            "event": (
                "a club championship",
                "an online blitz tournament",
                "a correspondence tournament",
                "a simultaneous exhibition",
            ),
            "extras": (
                {
                    "extras": "with comments and variations",
                    "extras_rule": (
                        "Put comments in curly braces and variations in parentheses after the move they "
                        "replace, with move numbers restated (12... Nf6) after a comment or variation"
                    ),
                },
                {
                    "extras": "with clock times",
                    "extras_rule": (
                        "Record each move's remaining time as a [%clk h:mm:ss] command inside a comment "
                        "after the move"
                    ),
                },
                {
                    "extras": "in the reduced export format",
                    "extras_rule": (
                        "Strip comments, variations and numeric annotation glyphs and keep lines under 80 "
                        "characters, as the export format requires"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="photo_caption_credit_line",
        category="repair",
        summary=(
            "Write captions and credit lines for {photo} for {outlet}, {length}, in the photo desk's "
            "caption style"
        ),
        task=(
            "Caption a batch of {photo} for {outlet}, {length}; the photo editor's checklist reviews "
            "facts, tense and the credit line."
        ),
        steps=(
            (
                "Answer who, what, where and when in the first sentence, in the present tense for what the "
                "picture shows, and identify people left to right where several are shown"
            ),
            "{photo_rule}",
            (
                "Add background in a second sentence in the past tense only if the length allows, and "
                "check every name spelling against the story or the photographer's notes"
            ),
            "{outlet_rule}",
        ),
        avoid=(
            (
                "Do not describe what the reader can plainly see ('pictured above'): tell them what they "
                "cannot know from the image"
            ),
            (
                "Do not guess identities or locations: leave a person unidentified rather than name the "
                "wrong one"
            ),
        ),
        signals=("photo caption", "credit line", "{photo_signal}"),
        validation=("python caption_check.py captions.csv --max-words {max_words}",),
        slots={
            "photo": (
                {
                    "photo": "news event photos",
                    "photo_rule": (
                        "Give the date and the exact place, and say what the event was and why the people "
                        "were there"
                    ),
                    "photo_signal": "news photo",
                },
                {
                    "photo": "sports action shots",
                    "photo_rule": (
                        "Name the player, team, the moment (first half, final round) and the opponent"
                    ),
                    "photo_signal": "action shot",
                },
                {
                    "photo": "portraits",
                    "photo_rule": (
                        "Name the subject with the title or role relevant to the story, and where the "
                        "portrait was taken if it matters"
                    ),
                    "photo_signal": "portrait",
                },
                {
                    "photo": "supplied handout images",
                    "photo_rule": (
                        "Say who provided the image and credit it as a handout rather than to a staff "
                        "photographer"
                    ),
                    "photo_signal": "handout",
                },
                {
                    "photo": "historical archive photos",
                    "photo_rule": (
                        "Give the original date, or circa with a range, and the archive and collection "
                        "with the item reference"
                    ),
                    "photo_signal": "archive photo",
                },
            ),
            "outlet": (
                {
                    "outlet": "a wire service",
                    "outlet_rule": (
                        "End with the credit in the wire's form, photographer then agency, and keep the "
                        "caption editable by subscribers"
                    ),
                },
                {
                    "outlet": "a regional newspaper",
                    "outlet_rule": (
                        "Put the credit line under the image in the paper's format, Photographer / Paper "
                        "or Courtesy of source"
                    ),
                },
                {
                    "outlet": "a university magazine",
                    "outlet_rule": (
                        "Credit the photographer or the archive, and get consent notes for identifiable "
                        "students"
                    ),
                },
                {
                    "outlet": "a museum collection website",
                    "outlet_rule": (
                        "Give the credit line the lender or rights holder requires, word for word, "
                        "including the copyright notice"
                    ),
                },
            ),
            "length": (
                {"length": "with captions of up to 40 words", "max_words": "40"},
                {"length": "with one-line cutlines of up to 15 words", "max_words": "15"},
            ),
        },
    ),
    Problem(
        slug="broadcast_script_written_for_ear",
        category="optimize",
        summary=(
            "Rewrite {story} from print copy into {format} for {station}, written for the ear and timed to "
            "the slot"
        ),
        task=(
            "Turn a print story about {story} into {format} for {station}; the output is timed at reading "
            "speed and a news editor checks clarity when heard once."
        ),
        steps=(
            (
                "Lead with the single most important fact in a short sentence, in the present or present "
                "perfect tense, and keep one idea per sentence"
            ),
            (
                "Put attribution before the claim ('Police say ...'), round numbers the listener can hold "
                "('almost three million'), and write out anything the presenter might stumble on"
            ),
            "{format_rule}",
            "{station_rule} Then read the script aloud against a timer and cut until it fits",
        ),
        avoid=(
            (
                "Do not use parentheses, abbreviations, symbols or long strings of figures: the listener "
                "cannot see them"
            ),
            "Do not open with a name the audience does not know: give the role first and the name after",
        ),
        signals=("written for the ear", "broadcast script", "{format_signal}"),
        validation=("python script_timing.py script.txt --seconds {seconds} --wpm 165",),
        slots={
            "story": (
                "a council budget vote",
                "a court verdict",
                "a severe weather warning",
                "a company's quarterly results",
                "a cup final result",
            ),
            "format": (
                {
                    "format": "a 30-second radio read",
                    "format_rule": (
                        "Keep it to about 80 words, with the key fact repeated in the last line for "
                        "listeners who tuned in late"
                    ),
                    "format_signal": "30-second read",
                    "seconds": "30",
                },
                {
                    "format": "a 45-second TV voice-over",
                    "format_rule": (
                        "Keep it to about 120 words and write to the pictures, naming what is on screen as "
                        "it appears"
                    ),
                    "format_signal": "voice-over",
                    "seconds": "45",
                },
                {
                    "format": "a 20-second headline",
                    "format_rule": (
                        "Keep it to about 55 words: the main fact, one supporting detail, and what happens "
                        "next"
                    ),
                    "format_signal": "headline read",
                    "seconds": "20",
                },
            ),
            "station": (
                {
                    "station": "a public broadcaster",
                    "station_rule": (
                        "Add a phonetic guide in the script margin for every unfamiliar name, as the house "
                        "style requires."
                    ),
                },
                {
                    "station": "a commercial news broadcaster",
                    "station_rule": (
                        "Keep the tone brisk and conversational and end with the station's sign-off "
                        "convention."
                    ),
                },
                {
                    "station": "a regional news service",
                    "station_rule": (
                        "Use the pronunciation locals use for place names and name the area covered in the "
                        "first line."
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="chapter_markers_timestamps",
        category="optimize",
        summary=(
            "Create chapter markers for {content} as {target}, built from {source}, that the platform "
            "accepts and that help people navigate"
        ),
        task=(
            "Add chapters to {content} using {target}; the previous chapters were ignored by the platform, "
            "and a checker validates the format while reviewers rate the titles."
        ),
        steps=(
            "Find topic changes in {source} and pick chapter starts at those points, not at fixed intervals",
            "{target_rule}",
            (
                "Write short, distinct chapter titles that say what the section covers (not 'Part 2'), in "
                "the language of the content"
            ),
            (
                "Validate the markers with the checker and play each chapter start to confirm it lands at "
                "the right moment"
            ),
        ),
        avoid=(
            "Do not list chapters out of order or with overlapping times",
            (
                "Do not stuff chapter titles with keywords: titles that do not match the content are "
                "removed or ignored"
            ),
        ),
        signals=("chapters", "timestamps", "{target_signal}"),
        validation=("python chapter_check.py {file} --platform {flag}",),
        slots={
            "content": (
                "a two-hour podcast interview",
                "a 20-minute tutorial video",
                "a recorded conference talk",
                "a livestream replay",
                "a lecture recording",
            ),
            "target": (
                {
                    "target": "YouTube description timestamps",
                    "target_rule": (
                        "Write one timestamp per line in ascending order, start the first at 0:00, include "
                        "at least three chapters and make each at least 10 seconds long"
                    ),
                    "target_signal": "0:00",
                    "file": "description.txt",
                    "flag": "youtube",
                },
                {
                    "target": "a Podcasting 2.0 chapters file",
                    "target_rule": (
                        "Write the JSON chapters file with a version field and a chapters array of objects "
                        "with startTime in seconds and title, and link it from the feed's podcast:chapters "
                        "tag"
                    ),
                    "target_signal": "podcast:chapters",
                    "file": "chapters.json",
                    "flag": "podcasting20",
                },
                {
                    "target": "ID3 chapter frames in the MP3",
                    "target_rule": (
                        "Write one CHAP frame per chapter with start and end times in milliseconds and a "
                        "TIT2 title, plus a CTOC table of contents listing them in order"
                    ),
                    "target_signal": "id3 chap",
                    "file": "episode.mp3",
                    "flag": "id3",
                },
            ),
            "source": (
                "an auto-generated transcript with timestamps",
                "the host's rough show notes",
                "the editor's cut list",
            ),
        },
    ),
    Problem(
        slug="reporting_guideline_checklist",
        category="repair",
        summary="Make the {study} manuscript for {journal} comply with {guideline}, fixing {defect}",
        task=(
            "The journal's editorial office returned the {study} manuscript because the {guideline} "
            "checklist had {defect}; revise the manuscript and checklist so every item is reported and "
            "located."
        ),
        steps=(
            (
                "Download the current {guideline} checklist and go item by item, quoting the manuscript "
                "text that reports each item"
            ),
            "{guideline_rule}",
            "{defect_rule}",
            "Have a co-author check ten random items against the manuscript before resubmitting",
        ),
        avoid=(
            "Do not tick an item as reported when it is only implied: reviewers check the quoted location",
            (
                "Do not change the study's analysis to fit the checklist: report what was done, including "
                "deviations"
            ),
        ),
        signals=("{guideline_signal}", "reporting checklist", "{study_signal}"),
        validation=("python checklist_check.py manuscript.docx --guideline {flag}",),
        slots={
            "guideline": (
                {
                    "guideline": "CONSORT",
                    "study": "randomised trial",
                    "guideline_rule": (
                        "Include the participant flow diagram, the trial registration number, "
                        "randomisation and allocation concealment methods, and outcomes as pre-specified"
                    ),
                    "guideline_signal": "consort",
                    "study_signal": "randomised trial",
                    "flag": "consort",
                },
                {
                    "guideline": "PRISMA 2020",
                    "study": "systematic review",
                    "guideline_rule": (
                        "Include the PRISMA flow diagram with counts at each stage, the full search "
                        "strategy for every database, and the protocol registration"
                    ),
                    "guideline_signal": "prisma 2020",
                    "study_signal": "systematic review",
                    "flag": "prisma",
                },
                {
                    "guideline": "STROBE",
                    "study": "observational cohort",
                    "guideline_rule": (
                        "Describe the setting, eligibility, exposures, confounders, handling of missing "
                        "data and numbers at each stage of the study"
                    ),
                    "guideline_signal": "strobe",
                    "study_signal": "observational study",
                    "flag": "strobe",
                },
                {
                    "guideline": "ARRIVE 2.0",
                    "study": "animal research",
                    "guideline_rule": (
                        "Report the Essential 10 items in full: design, sample size, inclusion criteria, "
                        "randomisation, blinding, outcome measures, statistics, animals, procedures, "
                        "results"
                    ),
                    "guideline_signal": "arrive 2.0",
                    "study_signal": "animal study",
                    "flag": "arrive",
                },
                {
                    "guideline": "STARD",
                    "study": "diagnostic accuracy",
                    "guideline_rule": (
                        "Report the index test and reference standard, the flow of participants with a "
                        "diagram, and the 2x2 cross tabulation of results"
                    ),
                    "guideline_signal": "stard",
                    "study_signal": "diagnostic accuracy",
                    "flag": "stard",
                },
                {
                    "guideline": "CARE",
                    "study": "case report",
                    "guideline_rule": (
                        "Include the timeline, diagnostic assessment, therapeutic interventions, follow-up "
                        "and the patient's perspective, with consent stated"
                    ),
                    "guideline_signal": "care guidelines",
                    "study_signal": "case report",
                    "flag": "care",
                },
                {
                    "guideline": "COREQ",
                    "study": "qualitative interview",
                    "guideline_rule": (
                        "Describe the research team and reflexivity, sampling, data collection setting, "
                        "saturation and how themes were derived"
                    ),
                    "guideline_signal": "coreq",
                    "study_signal": "qualitative research",
                    "flag": "coreq",
                },
                {
                    "guideline": "TRIPOD+AI",
                    "study": "prediction model",
                    "guideline_rule": (
                        "Report the data sources, predictors, outcome definition, sample size, model "
                        "building, performance with calibration, and validation approach"
                    ),
                    "guideline_signal": "tripod",
                    "study_signal": "prediction model",
                    "flag": "tripod",
                },
            ),
            "journal": ("a general medical journal", "a specialty journal", "an open-access journal"),
            "defect": (
                {
                    "defect": "page numbers that did not match the manuscript",
                    "defect_rule": (
                        "Replace page numbers with section names plus line numbers from the final file, "
                        "and regenerate them after the last edit"
                    ),
                },
                {
                    "defect": "items reported only in the supplement",
                    "defect_rule": (
                        "Move items the guideline expects in the main text back into it, and point to the "
                        "supplement only for extended detail"
                    ),
                },
                {
                    "defect": "items marked not applicable without a reason",
                    "defect_rule": (
                        "Give a one-line reason next to every not applicable item, or report the item if "
                        "it does apply"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="statistical_results_reporting",
        category="repair",
        summary="Report {test} results from {source} in {style} format for {field}",
        task=(
            "Rewrite the results section of {field} so every {test} result follows {style} statistical "
            "reporting; the numbers come from {source}, and a checker parses each reported statistic."
        ),
        steps=(
            (
                "For each result, report the statistic with its degrees of freedom, the exact p value, and "
                "an effect size with its confidence interval, in the order the style shows"
            ),
            "{test_rule}",
            "{style_rule}",
            (
                "Recompute p values from the statistic and degrees of freedom with the checker to catch "
                "transcription errors"
            ),
        ),
        avoid=(
            "Do not write p = .000 or p = 0.000: report it as p < .001 in the style's form",
            (
                "Do not report a test without the descriptive statistics (means and SDs, or counts) the "
                "reader needs to interpret it"
            ),
        ),
        signals=("statistical reporting", "{style_signal}", "{test_signal}", "effect size"),
        validation=("python stats_check.py results.md --style {flag}",),
        slots={
            "test": (
                {
                    "test": "t-test",
                    "test_rule": (
                        "Write t with degrees of freedom in parentheses, then p, then Cohen's d with its "
                        "confidence interval"
                    ),
                    "test_signal": "t-test",
                },
                {
                    "test": "ANOVA",
                    "test_rule": (
                        "Write F with both degrees of freedom in parentheses separated by a comma, then p "
                        "and partial eta squared"
                    ),
                    "test_signal": "anova",
                },
                {
                    "test": "chi-square",
                    "test_rule": (
                        "Write χ² with degrees of freedom and N in parentheses, then p and Cramér's V or "
                        "an odds ratio"
                    ),
                    "test_signal": "chi-square",
                },
                {
                    "test": "correlation",
                    "test_rule": (
                        "Write r with degrees of freedom in parentheses, then p and the confidence "
                        "interval for r"
                    ),
                    "test_signal": "pearson r",
                },
                {
                    "test": "regression",
                    "test_rule": (
                        "Report each coefficient with its standard error, confidence interval and p, plus "
                        "the model R² and F test"
                    ),
                    "test_signal": "regression coefficients",
                },
                {
                    "test": "Mann-Whitney U",
                    "test_rule": (
                        "Report U, z, p and an effect size r, with medians and interquartile ranges as "
                        "descriptives"
                    ),
                    "test_signal": "mann-whitney",
                },
            ),
            "style": (
                {
                    "style": "APA 7",
                    "field": "a psychology manuscript",
                    "style_rule": (
                        "Italicise statistical symbols, drop the leading zero for values that cannot "
                        "exceed 1 (p, r), give exact p to two or three decimals, and put a space around ="
                    ),
                    "style_signal": "apa statistics",
                    "flag": "apa",
                },
                {
                    "style": "APA 7",
                    "field": "an education research report",
                    "style_rule": (
                        "Italicise statistical symbols, drop the leading zero for p and r, and report "
                        "confidence intervals in square brackets"
                    ),
                    "style_signal": "apa statistics",
                    "flag": "apa",
                },
                {
                    "style": "AMA 11",
                    "field": "a clinical research paper",
                    "style_rule": (
                        "Use an uppercase italic P, drop the leading zero, give P to two or three decimals "
                        "(P < .001 at the limit) and report means with SDs in parentheses"
                    ),
                    "style_signal": "ama style",
                    "flag": "ama",
                },
                {
                    "style": "AMA 11",
                    "field": "a public health brief",
                    "style_rule": (
                        "Use an uppercase italic P, report 95% CIs with the word 'to' or a hyphen as the "
                        "style specifies, and round percentages consistently"
                    ),
                    "style_signal": "ama style",
                    "flag": "ama",
                },
            ),
            "source": ("SPSS output tables", "R console output", "a co-author's spreadsheet of results"),
        },
    ),
    Problem(
        slug="measurement_uncertainty_notation",
        category="repair",
        summary=(
            "Express measured values and their uncertainty in {doc} using {notation}, rounded to "
            "{rounding}, as the GUM requires"
        ),
        task=(
            "Revise how results and uncertainties are written in {doc}; the quality reviewer requires "
            "{notation} and uncertainties rounded to {rounding}; a checker parses every value."
        ),
        steps=(
            (
                "Round the uncertainty first, to {rounding}, then round the value to the same decimal "
                "place as the rounded uncertainty"
            ),
            "{notation_rule}",
            (
                "Give the value and the uncertainty in the same unit, and state whether the uncertainty is "
                "standard (k = 1) or expanded with its coverage factor and coverage probability"
            ),
            "Run the checker to catch values with more digits than their uncertainty supports",
        ),
        avoid=(
            (
                "Do not quote a value to more decimal places than its uncertainty: 12.3456 ± 0.1 claims "
                "precision the measurement does not have"
            ),
            (
                "Do not omit the coverage factor for an expanded uncertainty: readers cannot tell k = 1 "
                "from k = 2"
            ),
        ),
        signals=("measurement uncertainty", "{notation_signal}", "coverage factor", "significant digits"),
        validation=("python uncertainty_check.py report.md --notation {flag}",),
        slots={
            "doc": (
                "a calibration certificate",
                "a physics lab report",
                "an analytical method validation report",
                "a metrology journal paper",
                "a dimensional inspection report",
            ),
            "notation": (
                {
                    "notation": "concise parenthesis notation",
                    "notation_rule": (
                        "Write the standard uncertainty in the last digits in parentheses, 1.234 5(12) g, "
                        "so the digits in parentheses apply to the last digits of the value"
                    ),
                    "notation_signal": "concise notation",
                    "flag": "concise",
                },
                {
                    "notation": "plus-minus notation with expanded uncertainty",
                    "notation_rule": (
                        "Write (value ± U) unit, with U the expanded uncertainty, followed by the "
                        "statement of k = 2 and approximately 95 % coverage"
                    ),
                    "notation_signal": "expanded uncertainty",
                    "flag": "pm",
                },
                {
                    "notation": "relative uncertainty",
                    "notation_rule": (
                        "Give the value with its unit, then the relative standard uncertainty as a number "
                        "such as 2.1 × 10⁻⁴ or in percent, with the same rounding rule"
                    ),
                    "notation_signal": "relative uncertainty",
                    "flag": "relative",
                },
                {
                    "notation": "a coverage interval",
                    "notation_rule": (
                        "Write the interval endpoints with the coverage probability, [9.81, 9.83] m/s² at "
                        "95 %, and say how it was obtained"
                    ),
                    "notation_signal": "coverage interval",
                    "flag": "interval",
                },
            ),
            "rounding": (
                {"rounding": "two significant digits"},
                {"rounding": "one significant digit unless the leading digit is 1 or 2"},
            ),
        },
    ),
    Problem(
        slug="taxonomic_name_conventions",
        category="repair",
        summary="Write {group} scientific names in {doc} according to {code}, fixing {defect}",
        task=(
            "A copy editor flagged {defect} in {doc}; make every {group} name follow {code} conventions, "
            "and a nomenclature checker reviews the text."
        ),
        steps=(
            (
                "Italicise genus and species names, capitalise the genus and lowercase the specific "
                "epithet, and leave higher ranks (family, order) in roman type"
            ),
            "{group_rule}",
            "{defect_rule}",
            "Check each name against the current authoritative list for the group and run the checker",
        ),
        avoid=(
            (
                "Do not abbreviate a genus at first mention, or anywhere two genera starting with the same "
                "letter could be confused"
            ),
            "Do not update a name to a newer synonym silently: say which taxonomy the paper follows",
        ),
        signals=("binomial nomenclature", "{code_signal}", "genus abbreviation"),
        validation=("python taxon_check.py text.md --group {flag}",),
        slots={
            "group": (
                {
                    "group": "bacterial",
                    "code": "the International Code of Nomenclature of Prokaryotes",
                    "group_rule": (
                        "Give the full name at first use (Escherichia coli), then abbreviate the genus (E. "
                        "coli), and write strain designations in roman after the name"
                    ),
                    "code_signal": "icnp",
                    "flag": "bacteria",
                },
                {
                    "group": "plant",
                    "code": "the International Code of Nomenclature for algae, fungi, and plants",
                    "group_rule": (
                        "Give the author citation at first mention where the journal requires it (Quercus "
                        "robur L.), in roman, and write cultivar names in single quotes, not italics"
                    ),
                    "code_signal": "icn",
                    "flag": "plants",
                },
                {
                    "group": "animal",
                    "code": "the International Code of Zoological Nomenclature",
                    "group_rule": (
                        "Give author and year where required, with parentheses around them when the "
                        "species has moved to another genus (Passer domesticus (Linnaeus, 1758))"
                    ),
                    "code_signal": "iczn",
                    "flag": "animals",
                },
                {
                    "group": "fungal",
                    "code": "the International Code of Nomenclature for algae, fungi, and plants",
                    "group_rule": (
                        "Use the single current name under one-fungus-one-name rules and give author "
                        "citations in roman after the first mention"
                    ),
                    "code_signal": "one fungus one name",
                    "flag": "fungi",
                },
                {
                    "group": "virus",
                    "code": "the ICTV rules",
                    "group_rule": (
                        "Italicise virus species names in the binomial format ICTV adopted, and write "
                        "virus names (as opposed to species) such as SARS-CoV-2 in roman"
                    ),
                    "code_signal": "ictv",
                    "flag": "viruses",
                },
            ),
            "doc": (
                "a journal manuscript",
                "a field survey report",
                "a set of museum labels",
                "a biology textbook chapter",
            ),
            "defect": (
                {
                    "defect": "ambiguous genus abbreviations",
                    "defect_rule": (
                        "Spell out the genus again at the start of each section and wherever two genera "
                        "share an initial"
                    ),
                },
                {
                    "defect": "italics and capitalisation errors",
                    "defect_rule": (
                        "Fix italics and capitals name by name, including in tables, figure labels and "
                        "references"
                    ),
                },
                {
                    "defect": "common and scientific names mixed inconsistently",
                    "defect_rule": (
                        "Give the scientific name with the common name at first mention and then use one "
                        "form consistently"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="gene_protein_symbol_nomenclature",
        category="repair",
        summary=(
            "Write {organism} gene and protein symbols in {doc} following {authority} nomenclature, fixing "
            "{issue}"
        ),
        task=(
            "Reviewers flagged {issue} in {doc} on {organism} genes; correct every gene and protein symbol "
            "to {authority} conventions, and a symbol checker validates them."
        ),
        steps=(
            (
                "Look up each symbol in the {authority} database and replace aliases with the approved "
                "symbol, giving the alias once in parentheses if readers know it better"
            ),
            "{rule}",
            "{issue_rule}",
            (
                "Run the symbol checker over the text, tables and figure labels, since symbols in figures "
                "are the most often missed"
            ),
        ),
        avoid=(
            (
                "Do not use the same typography for a gene and its protein: italic marks the gene, roman "
                "the protein"
            ),
            "Do not apply one organism's capitalisation convention to another's genes in a comparative paper",
        ),
        signals=("gene nomenclature", "{signal}", "gene symbol", "italic gene"),
        validation=("python symbol_check.py manuscript.md --organism {flag}",),
        slots={
            "organism": (
                {
                    "organism": "human",
                    "authority": "HGNC",
                    "rule": (
                        "Write human gene symbols in italic capitals (TP53) and the protein in roman "
                        "capitals (TP53)"
                    ),
                    "signal": "hgnc",
                    "flag": "human",
                },
                {
                    "organism": "mouse",
                    "authority": "MGI",
                    "rule": (
                        "Write mouse gene symbols in italics with only the first letter capitalised "
                        "(Trp53) and proteins in roman capitals (TRP53)"
                    ),
                    "signal": "mgi",
                    "flag": "mouse",
                },
                {
                    "organism": "zebrafish",
                    "authority": "ZFIN",
                    "rule": (
                        "Write zebrafish genes in italic lowercase (tp53) and proteins in roman with the "
                        "first letter capitalised (Tp53)"
                    ),
                    "signal": "zfin",
                    "flag": "zebrafish",
                },
                {
                    "organism": "Drosophila",
                    "authority": "FlyBase",
                    "rule": (
                        "Write fly genes in italics, starting lowercase when named for a recessive "
                        "phenotype and uppercase for a dominant one, as FlyBase lists them"
                    ),
                    "signal": "flybase",
                    "flag": "fly",
                },
                {
                    "organism": "budding yeast",
                    "authority": "SGD",
                    "rule": (
                        "Write wild-type genes in italic capitals (CDC28), recessive mutants in italic "
                        "lowercase (cdc28), and proteins in roman with the first letter capitalised (Cdc28)"
                    ),
                    "signal": "sgd",
                    "flag": "yeast",
                },
                {
                    "organism": "Arabidopsis",
                    "authority": "TAIR",
                    "rule": (
                        "Write wild-type genes in italic capitals (AG), mutants in italic lowercase "
                        "(ag-1), and proteins in roman capitals"
                    ),
                    "signal": "tair",
                    "flag": "arabidopsis",
                },
            ),
            "doc": (
                "a research manuscript",
                "a set of figure legends",
                "a grant specific aims page",
                "a lab protocol",
            ),
            "issue": (
                {
                    "issue": "symbols copied from a vendor catalogue",
                    "issue_rule": (
                        "Replace vendor product names and catalogue symbols with approved symbols, keeping "
                        "the catalogue number only in the methods"
                    ),
                },
                {
                    "issue": "outdated aliases",
                    "issue_rule": (
                        "Check withdrawn and previous symbols in the database history and update each to "
                        "the current approved symbol"
                    ),
                },
                {
                    "issue": "gene and protein forms mixed up",
                    "issue_rule": (
                        "Decide for each mention whether it means the gene, the transcript or the protein, "
                        "and set the typography accordingly"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="election_information_policy",
        category="explore",
        summary=(
            "Answer a question about {question} for {election} as {surface} under the election information "
            "policy: official sources, no predictions, no endorsements"
        ),
        task=(
            "A user of {surface} asked about {question} ahead of {election}; the reply must follow the "
            "election information policy, and policy reviewers grade each response."
        ),
        steps=(
            (
                "Classify the question first: voting logistics, factual claims, predictions, or requests "
                "for an opinion on whom to support"
            ),
            "{question_rule}",
            (
                "Point to {authority} for dates, places and eligibility rules, and say that details can "
                "change and should be confirmed there"
            ),
            (
                "Keep the answer neutral: the same level of detail and tone for every party and candidate, "
                "and no persuasive framing"
            ),
        ),
        avoid=(
            (
                "Do not state voting dates, deadlines or ID rules from memory as final: procedures change "
                "between elections, so point to the authority"
            ),
            "Do not predict outcomes or recommend a candidate or party, even when the user insists",
        ),
        signals=("election information", "voting", "{signal}"),
        validation=("python policy_grade.py replies.json --policy elections",),
        slots={
            "question": (
                {
                    "question": "where and when to vote",
                    "question_rule": (
                        "Give the general process and direct the user to the official polling place lookup "
                        "for their address"
                    ),
                    "signal": "polling place",
                },
                {
                    "question": "whether a candidate's claim is true",
                    "question_rule": (
                        "Summarise what reliable, dated sources say about the claim, attribute each point, "
                        "and say where evidence is missing"
                    ),
                    "signal": "fact check",
                },
                {
                    "question": "who will win",
                    "question_rule": (
                        "Decline to predict and offer neutral information instead: how results are counted "
                        "and where official results are published"
                    ),
                    "signal": "who will win",
                },
                {
                    "question": "registering after the deadline",
                    "question_rule": (
                        "Explain that deadline rules vary and some places allow same-day registration, and "
                        "send the user to the authority to check their own case"
                    ),
                    "signal": "voter registration",
                },
                {
                    "question": "postal voting rules",
                    "question_rule": (
                        "Explain the general steps and the kinds of deadlines that apply, and link the "
                        "official application and return instructions"
                    ),
                    "signal": "postal vote|mail-in ballot",
                },
                {
                    "question": "which party to vote for",
                    "question_rule": (
                        "Decline to recommend, and offer neutral ways to compare platforms such as the "
                        "parties' own published manifestos"
                    ),
                    "signal": "who should i vote for",
                },
            ),
            "election": (
                {"election": "a US state primary", "authority": "the state or county election office"},
                {
                    "election": "a UK general election",
                    "authority": "the Electoral Commission and the local council's electoral services",
                },
                {
                    "election": "an Indian state assembly election",
                    "authority": "the Election Commission of India and the state's Chief Electoral Officer",
                },
                {
                    "election": "an Australian local council election",
                    "authority": "the state electoral commission running the election",
                },
            ),
            "surface": ("a general-purpose assistant", "a news site's chatbot"),
        },
    ),
    Problem(
        slug="sms_marketing_consent_messages",
        category="repair",
        summary=(
            "Write {message} for {program} that meets {regime} requirements for consent, identification "
            "and opt-out"
        ),
        task=(
            "Write {message} for {program}; the carrier or regulator review under {regime} rejected the "
            "earlier copy, and a compliance checker scans for the required elements."
        ),
        steps=(
            (
                "Identify the sender by brand name at the start of the message, since the recipient may "
                "not recognise the number"
            ),
            "{message_rule}",
            "{regime_rule}",
            (
                "Count the message against one segment (160 GSM-7 characters, or 70 if any character "
                "forces UCS-2) and run the compliance checker"
            ),
        ),
        avoid=(
            "Do not send marketing to people who gave consent only for transactional messages",
            (
                "Do not hide opt-out instructions behind a link: the keyword reply must work in the "
                "message itself"
            ),
        ),
        signals=("sms marketing", "opt-out", "{regime_signal}", "{message_signal}"),
        validation=("python sms_compliance.py messages.csv --regime {flag}",),
        slots={
            "program": (
                "dental appointment reminders with occasional offers",
                "flash-sale alerts for a clothing retailer",
                "a restaurant loyalty club",
                "delivery updates with promotional offers",
                "class booking texts for a gym",
            ),
            "message": (
                {
                    "message": "the opt-in confirmation text",
                    "message_rule": (
                        "Confirm the program name, what messages to expect and how often, that message and "
                        "data rates may apply, and how to get help and opt out"
                    ),
                    "message_signal": "opt-in confirmation",
                },
                {
                    "message": "a recurring promotional text",
                    "message_rule": (
                        "Keep the offer short and end with the opt-out instruction (Reply STOP to opt out)"
                    ),
                    "message_signal": "reply stop",
                },
                {
                    "message": "the HELP reply",
                    "message_rule": (
                        "Give the program name, a support contact (phone, email or URL), and the opt-out "
                        "instruction"
                    ),
                    "message_signal": "help keyword",
                },
                {
                    "message": "the STOP confirmation",
                    "message_rule": (
                        "Confirm the unsubscribe in one message with no marketing content, and name the "
                        "program so the user knows which one ended"
                    ),
                    "message_signal": "stop confirmation",
                },
            ),
            "regime": (
                {
                    "regime": "US TCPA and CTIA",
                    "regime_rule": (
                        "Honour the standard opt-out keywords (STOP, END, CANCEL, UNSUBSCRIBE, QUIT) and "
                        "keep records of express written consent for marketing"
                    ),
                    "regime_signal": "ctia",
                    "flag": "us",
                },
                {
                    "regime": "UK PECR",
                    "regime_rule": (
                        "Send marketing only with consent or under the soft opt-in for existing customers, "
                        "and give a simple free way to opt out in every message"
                    ),
                    "regime_signal": "pecr",
                    "flag": "uk",
                },
                {
                    "regime": "Canada's CASL",
                    "regime_rule": (
                        "Identify the sender with contact information, include an unsubscribe mechanism "
                        "that works within ten business days, and keep proof of express or implied consent"
                    ),
                    "regime_signal": "casl",
                    "flag": "ca",
                },
            ),
        },
    ),
    Problem(
        slug="wikipedia_manual_of_style",
        category="repair",
        summary=(
            "Revise a Wikipedia article about {article} to the Manual of Style, fixing {issue}, as "
            "{submission}"
        ),
        task=(
            "Prepare {submission} about {article}; reviewers flagged {issue}, and the review checks "
            "neutrality, sourcing and Manual of Style compliance."
        ),
        steps=(
            (
                "Write the lead as a standalone summary of the body: the subject in bold in the first "
                "sentence, why it is notable, and no claims the body does not support"
            ),
            "{issue_rule}",
            "{article_rule}",
            "{submission_rule}",
        ),
        avoid=(
            (
                "Do not cite the subject's own website for claims of importance: notability rests on "
                "independent reliable sources"
            ),
            (
                "Do not add promotional adjectives (renowned, leading, award-winning) that the sources do "
                "not state in their own words"
            ),
        ),
        signals=("manual of style", "{issue_signal}", "reliable sources", "wp:npov|neutral point of view"),
        validation=("python wiki_style_check.py article.wiki --rules mos",),
        slots={
            "article": (
                {
                    "article": "a living scientist",
                    "article_rule": (
                        "Apply the biographies of living persons policy: every contentious claim needs an "
                        "inline citation to a high-quality source, or it is removed"
                    ),
                },
                {
                    "article": "a mid-sized town",
                    "article_rule": (
                        "Follow the settlement article layout (history, geography, demographics, economy, "
                        "transport) and cite census figures to the statistics office"
                    ),
                },
                {
                    "article": "an open-source software library",
                    "article_rule": (
                        "Describe features from independent coverage, not the changelog, and keep version "
                        "numbers in the infobox sourced"
                    ),
                },
                {
                    "article": "a historical battle",
                    "article_rule": (
                        "Attribute casualty figures and interpretations to named historians where sources "
                        "disagree"
                    ),
                },
                {
                    "article": "a music album",
                    "article_rule": (
                        "Use the album article layout (background, recording, release, reception, track "
                        "listing) with reviews attributed to their publications"
                    ),
                },
            ),
            "issue": (
                {
                    "issue": "peacock and weasel words",
                    "issue_rule": (
                        "Replace puffery and vague attributions ('some say') with specific, attributed "
                        "statements from reliable sources"
                    ),
                    "issue_signal": "peacock terms",
                },
                {
                    "issue": "a lead that does not summarise the body",
                    "issue_rule": (
                        "Rewrite the lead so each body section is reflected in proportion, in one to four "
                        "paragraphs"
                    ),
                    "issue_signal": "mos:lead",
                },
                {
                    "issue": "unsourced claims",
                    "issue_rule": (
                        "Add an inline citation with a citation template for every claim likely to be "
                        "challenged, or remove the claim"
                    ),
                    "issue_signal": "citation needed",
                },
                {
                    "issue": "inconsistent dates and numbers",
                    "issue_rule": (
                        "Use one date format throughout as the article's variety of English implies and "
                        "follow MOS:NUM for numbers and units"
                    ),
                    "issue_signal": "mos:num",
                },
                {
                    "issue": "external links inside the body",
                    "issue_rule": (
                        "Remove external links from running text and keep at most a few in an External "
                        "links section"
                    ),
                    "issue_signal": "external links",
                },
            ),
            "submission": (
                {
                    "submission": "an Articles for Creation draft",
                    "submission_rule": (
                        "Submit the draft through Articles for Creation with a disclosure of any conflict "
                        "of interest on the talk page"
                    ),
                },
                {
                    "submission": "an edit to an existing article",
                    "submission_rule": (
                        "Make the changes in small edits with clear edit summaries, and explain larger "
                        "restructuring on the talk page first"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="mail_merge_template_fallbacks",
        category="repair",
        summary=(
            "Write {doc} as a {engine} template whose merge fields have fallbacks, so records with "
            "{data_issue} still read correctly"
        ),
        task=(
            "Recipients of {doc} saw blank greetings and broken sentences caused by {data_issue}; rewrite "
            "the {engine} template, and a render test runs it against a sample of real-shaped records."
        ),
        steps=(
            (
                "List every merge field the template uses and check, against a sample export, how often "
                "each is empty, null or malformed"
            ),
            "{engine_rule}",
            "{data_rule}",
            (
                "Render the template against the sample records, including the worst ones, and read the "
                "output as a recipient would"
            ),
        ),
        avoid=(
            (
                "Do not build sentences that only work when an optional field is filled: write the "
                "fallback wording first"
            ),
            "Do not let a template error fail silently and send raw merge tags to recipients",
        ),
        signals=("merge fields", "{engine_signal}", "default value", "{data_signal}"),
        validation=("python render_test.py template.{ext} --records sample.csv",),
        slots={
            "engine": (
                {
                    "engine": "Jinja2",
                    "engine_rule": (
                        "Use the default filter for optional fields, {{ first_name | default('there', "
                        "true) }}, so empty strings also fall back, and enable StrictUndefined in the "
                        "render test"
                    ),
                    "engine_signal": "jinja2",
                    "ext": "j2",
                },
                {
                    "engine": "Liquid",
                    "engine_rule": (
                        "Use the default filter, {{ customer.first_name | default: 'there' }}, and wrap "
                        "whole optional sentences in if blocks"
                    ),
                    "engine_signal": "liquid",
                    "ext": "liquid",
                },
                {
                    "engine": "Handlebars",
                    "engine_rule": (
                        "Wrap optional phrases in {{#if field}} blocks with an else branch, and register "
                        "no helper that hides missing fields"
                    ),
                    "engine_signal": "handlebars",
                    "ext": "hbs",
                },
                {
                    "engine": "Mailchimp merge tag",
                    "engine_rule": (
                        "Set a default value for each merge field in the audience settings and use "
                        "conditional merge tags (IF and ELSE blocks around *|FNAME|*) for optional "
                        "sentences"
                    ),
                    "engine_signal": "mailchimp merge tags",
                    "ext": "html",
                },
                {
                    "engine": "Word mail merge",
                    "engine_rule": (
                        "Use IF fields around MERGEFIELD codes to supply fallback wording, and preview "
                        "every record in the merge preview"
                    ),
                    "engine_signal": "mergefield",
                    "ext": "docx",
                },
            ),
            "doc": (
                "a renewal reminder email",
                "an event invitation",
                "a payment receipt",
                "a welcome letter",
            ),
            "data_issue": (
                {
                    "data_issue": "missing first names",
                    "data_rule": (
                        "Fall back to a neutral greeting ('Hello,') rather than 'Dear ,' or 'Dear Customer'"
                    ),
                    "data_signal": "missing first name",
                },
                {
                    "data_issue": "missing company names on business contacts",
                    "data_rule": (
                        "Rephrase sentences that mention the company so they read correctly without it"
                    ),
                    "data_signal": "empty field",
                },
                {
                    "data_issue": "names stored in capitals by an old CRM",
                    "data_rule": (
                        "Normalise case only where it is safe (no particles like van or Mc) and leave the "
                        "rest as stored"
                    ),
                    "data_signal": "all caps names",
                },
            ),
        },
    ),
    Problem(
        slug="product_safety_signal_words",
        category="repair",
        summary=(
            "Write the safety messages for {product} in {doc} to {standard}, with the right signal word "
            "for each hazard level, fixing {defect}"
        ),
        task=(
            "Revise the safety messages for {product} in {doc}; the compliance review against {standard} "
            "found {defect}, and a checker reviews each message's signal word, structure and symbols."
        ),
        steps=(
            (
                "Rate each hazard from the risk assessment: DANGER for death or serious injury that will "
                "happen if not avoided, WARNING for could, CAUTION for minor or moderate injury, NOTICE "
                "for property damage only"
            ),
            (
                "Write each message with the signal word panel, then the hazard, the consequence and how "
                "to avoid it, in that order"
            ),
            "{standard_rule}",
            "{defect_rule}",
        ),
        avoid=(
            (
                "Do not use a hazard signal word with the safety alert symbol for property-damage-only "
                "messages: use NOTICE without it"
            ),
            "Do not write safety messages that name the hazard but give no avoidance action",
        ),
        signals=("signal word", "{standard_signal}", "safety messages", "danger|warning|caution"),
        validation=("python safety_msg_check.py {file} --standard {flag}",),
        slots={
            "product": (
                "a chainsaw",
                "an electric pressure cooker",
                "an e-bike battery charger",
                "an extension ladder",
                "a pool chemical dispenser",
                "a portable space heater",
            ),
            "standard": (
                {
                    "standard": "ANSI Z535.4",
                    "doc": "on-product safety labels",
                    "standard_rule": (
                        "Lay out each label with the signal word panel in its standard colour, a safety "
                        "symbol, and the message panel, sized for the viewing distance"
                    ),
                    "standard_signal": "ansi z535.4",
                    "flag": "z535.4",
                    "file": "labels.json",
                },
                {
                    "standard": "ANSI Z535.6",
                    "doc": "the owner's manual",
                    "standard_rule": (
                        "Place each safety message right before the step where the hazard arises, and "
                        "group general safety information in its own section at the start"
                    ),
                    "standard_signal": "ansi z535.6",
                    "flag": "z535.6",
                    "file": "manual.md",
                },
                {
                    "standard": "ISO 3864-2",
                    "doc": "on-product safety labels",
                    "standard_rule": (
                        "Use the ISO 3864 safety sign shapes and colours with a word message panel, and "
                        "symbols registered in ISO 7010 where one exists"
                    ),
                    "standard_signal": "iso 3864",
                    "flag": "iso3864",
                    "file": "labels.json",
                },
                {
                    "standard": "IEC/IEEE 82079-1",
                    "doc": "the instructions for use",
                    "standard_rule": (
                        "Structure safety information by its position (general, section and embedded "
                        "safety messages) and keep the same wording and signal words as the product labels"
                    ),
                    "standard_signal": "82079-1",
                    "flag": "iec82079",
                    "file": "instructions.md",
                },
            ),
            "defect": (
                {
                    "defect": "every message labelled WARNING regardless of severity",
                    "defect_rule": (
                        "Re-rate every message from the risk assessment and change the signal word where "
                        "the severity or probability does not match"
                    ),
                },
                {
                    "defect": "messages with no avoidance steps",
                    "defect_rule": (
                        "Add one or more imperative avoidance actions to every message ('Unplug before "
                        "cleaning')"
                    ),
                },
                {
                    "defect": "property damage messages using hazard signal words",
                    "defect_rule": (
                        "Change property-damage-only messages to NOTICE and remove the safety alert symbol "
                        "from them"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="simplified_technical_english",
        category="repair",
        summary=(
            "Rewrite {doc} in ASD-STE100 Simplified Technical English, applying the {text_type} rules to "
            "{source}"
        ),
        task=(
            "Convert {source} for {doc} into ASD-STE100 Simplified Technical English; an STE checker flags "
            "unapproved words and sentences over the {text_type} length limit."
        ),
        steps=(
            (
                "Use only approved words in their approved meaning and part of speech, or technical names "
                "and verbs from the company's list, and replace each unapproved word with its approved "
                "alternative"
            ),
            "{text_rule}",
            (
                "Use the active voice, the simple tenses, and articles and determiners where they belong; "
                "do not leave out words to make sentences shorter"
            ),
            "Run the STE checker and rewrite each flagged sentence rather than adding exceptions",
        ),
        avoid=(
            (
                "Do not use an approved word in an unapproved sense ('follow' is approved only as 'come "
                "after', not 'obey')"
            ),
            (
                "Do not cluster more than three nouns: write 'the pressure of the engine oil' instead of a "
                "noun stack"
            ),
        ),
        signals=("asd-ste100", "simplified technical english", "approved words", "{text_signal}"),
        validation=("python ste_check.py doc.md --dictionary ste100 --mode {flag}",),
        slots={
            "doc": (
                "an aircraft maintenance task",
                "a wind turbine inspection procedure",
                "a rail vehicle troubleshooting guide",
                "a medical device cleaning procedure",
                "a machine tool setup instruction",
            ),
            "text_type": (
                {
                    "text_type": "procedural",
                    "text_rule": (
                        "Write one instruction per sentence in the imperative, keep sentences to 20 words "
                        "or fewer, and put a warning or caution before the step it applies to"
                    ),
                    "text_signal": "20 words",
                    "flag": "procedural",
                },
                {
                    "text_type": "descriptive",
                    "text_rule": (
                        "Keep sentences to 25 words or fewer, paragraphs to six sentences, and start each "
                        "paragraph with a topic sentence"
                    ),
                    "text_signal": "25 words",
                    "flag": "descriptive",
                },
            ),
            "source": (
                "a draft written by engineers",
                "a translation from German",
                "an OEM manual with long sentences",
                "notes from a technician interview",
            ),
        },
    ),
    Problem(
        slug="dita_topic_type_structure",
        category="repair",
        summary=(
            "Restructure {source} about {product} into DITA {topic} topics that validate against the DITA "
            "1.3 DTDs"
        ),
        task=(
            "Migrate {source} for {product} into DITA; content must be split into {topic} topics with "
            "valid markup, and the DITA Open Toolkit build must pass without errors."
        ),
        steps=(
            (
                "Split the source into chunks that each answer one question, and assign each chunk a "
                "single topic type"
            ),
            "{topic_rule}",
            (
                "Give each topic a unique id, a title and a shortdesc of one or two sentences, and "
                "reference topics from a ditamap instead of nesting them"
            ),
            (
                "Build with the DITA Open Toolkit, fix every validation error, and check that no content "
                "was lost by comparing word counts with the source"
            ),
        ),
        avoid=(
            (
                "Do not put procedures in concept topics or background in task steps: each topic type has "
                "one purpose"
            ),
            (
                "Do not use generic topic elements to dodge validation: use the specialised task, concept "
                "or reference elements"
            ),
        ),
        signals=("dita", "{topic_signal}", "dita-ot", "shortdesc"),
        validation=("dita --input=map.ditamap --format=html5",),
        slots={
            "topic": (
                {
                    "topic": "task",
                    "topic_rule": (
                        "Write tasks as prereq, context, then steps with one step element per action, each "
                        "with a cmd element and optional info, stepresult and result"
                    ),
                    "topic_signal": "<steps>",
                },
                {
                    "topic": "concept",
                    "topic_rule": (
                        "Write concepts with a conbody holding paragraphs, sections and examples that "
                        "explain what something is or why it matters, without instructions"
                    ),
                    "topic_signal": "<conbody>",
                },
                {
                    "topic": "reference",
                    "topic_rule": (
                        "Write reference topics with a refbody using properties tables, simpletables or "
                        "sections for lookup data such as parameters and limits"
                    ),
                    "topic_signal": "<refbody>",
                },
                {
                    "topic": "troubleshooting",
                    "topic_rule": (
                        "Write troubleshooting topics with a condition, then troubleSolution elements, "
                        "each with a cause and a remedy with steps"
                    ),
                    "topic_signal": "<troublebody>",
                },
            ),
            "product": (
                "a network router",
                "a payroll application",
                "an industrial pressure sensor",
                "a mobile banking app",
                "a laboratory centrifuge",
            ),
            "source": ("a long Word manual chapter", "a wiki page"),
        },
    ),
    Problem(
        slug="man_page_sections",
        category="repair",
        summary="Write a section {section} man page for {tool} in {format}, fixing {defect}",
        task=(
            "Document {tool} as a section {section} manual page written in {format}; the packaging review "
            "found {defect}, and the page must pass mandoc's lint."
        ),
        steps=(
            (
                "Use the standard section order: NAME (name and one-line description), SYNOPSIS, "
                "DESCRIPTION, OPTIONS, then the others that apply ({extra_sections})"
            ),
            "{defect_rule}",
            "{format_rule}",
            "Render the page with man and check it with mandoc -T lint, fixing warnings as well as errors",
        ),
        avoid=(
            (
                "Do not paste --help output as the page: each option needs a sentence on what it does and "
                "its default"
            ),
            (
                "Do not hard-code line breaks or formatting with raw spaces: use the macros so the page "
                "reflows on any terminal"
            ),
        ),
        signals=("man page", "mandoc", "{defect_signal}", "synopsis"),
        validation=("mandoc -T lint {page}",),
        slots={
            "tool": (
                {
                    "tool": "a backup command-line tool",
                    "section": "1",
                    "extra_sections": "EXIT STATUS, ENVIRONMENT, FILES, EXAMPLES, SEE ALSO",
                    "page": "backup.1",
                },
                {
                    "tool": "a log rotation daemon",
                    "section": "8",
                    "extra_sections": "FILES, SIGNALS in DESCRIPTION, EXIT STATUS, SEE ALSO",
                    "page": "logrotd.8",
                },
                {
                    "tool": "a daemon's configuration file",
                    "section": "5",
                    "extra_sections": "FILES, EXAMPLES, SEE ALSO",
                    "page": "logrotd.conf.5",
                },
                {
                    "tool": "a network diagnostics command",
                    "section": "8",
                    "extra_sections": "EXIT STATUS, EXAMPLES, DIAGNOSTICS, SEE ALSO",
                    "page": "netprobe.8",
                },
                {
                    "tool": "a C library function",
                    "section": "3",
                    "extra_sections": "RETURN VALUES, ERRORS, EXAMPLES, SEE ALSO",
                    "page": "ringbuf_push.3",
                },
            ),
            "format": (
                {
                    "format": "mdoc macros",
                    "format_rule": (
                        "Use semantic mdoc macros (.Nm, .Fl, .Ar, .Op, .Xr) rather than font escapes"
                    ),
                },
                {
                    "format": "man macros",
                    "format_rule": (
                        "Use .TH with the section and date, .SH for sections, .TP for option lists, and .B "
                        "and .I for the bold and italic conventions"
                    ),
                },
                {
                    "format": "scdoc",
                    "format_rule": (
                        "Write scdoc source with the title line name(section) and convert it to roff with "
                        "scdoc before linting"
                    ),
                },
            ),
            "defect": (
                {
                    "defect": "a SYNOPSIS without the bracket and ellipsis conventions",
                    "defect_rule": (
                        "Write the SYNOPSIS with optional items in brackets, repeatable items followed by "
                        "an ellipsis, and literal text in bold, arguments in italics"
                    ),
                    "defect_signal": "synopsis conventions",
                },
                {
                    "defect": "unsorted and undocumented options",
                    "defect_rule": (
                        "List every option in the OPTIONS or DESCRIPTION list, sorted alphabetically with "
                        "short and long forms together"
                    ),
                    "defect_signal": "options list",
                },
                {
                    "defect": "missing EXIT STATUS and EXAMPLES sections",
                    "defect_rule": (
                        "Add the exit codes with their meanings and at least two realistic examples with a "
                        "sentence each"
                    ),
                    "defect_signal": "exit status",
                },
            ),
        },
    ),
    Problem(
        slug="conventional_comments_code_review",
        category="repair",
        summary=(
            "Write code review comments for {situation} in {codebase} on {platform} using the Conventional "
            "Comments labels and decorations"
        ),
        task=(
            "The team adopted Conventional Comments for reviews on {platform}; review {situation} in "
            "{codebase}, and a checker plus the team lead grade labelling, tone and actionability."
        ),
        steps=(
            (
                "Start each comment with a label from the set (praise, nitpick, suggestion, issue, todo, "
                "question, thought, chore, note) and a colon"
            ),
            (
                "Add a decoration in parentheses for blocking status, (blocking) or (non-blocking), and "
                "(if-minor) where the author may resolve it without another round"
            ),
            "{situation_rule}",
            "{platform_rule}",
        ),
        avoid=(
            (
                "Do not mark personal style preferences as issue (blocking): use nitpick (non-blocking) or "
                "drop them"
            ),
            (
                "Do not write questions that are really demands: if a change is required, label it issue "
                "and say why"
            ),
        ),
        signals=("conventional comments", "nitpick (non-blocking)", "{platform_signal}"),
        validation=("python review_comment_check.py comments.json --spec conventional-comments",),
        slots={
            "situation": (
                {
                    "situation": "a first-time contributor's pull request",
                    "situation_rule": (
                        "Include at least one specific praise comment, link to the contributing guide for "
                        "conventions instead of repeating them, and explain every blocking issue"
                    ),
                },
                {
                    "situation": "a colleague's urgent hotfix",
                    "situation_rule": (
                        "Limit blocking comments to correctness and safety, and turn everything else into "
                        "todo or a follow-up issue"
                    ),
                },
                {
                    "situation": "a large refactoring change",
                    "situation_rule": (
                        "Open with a summary comment on the overall approach, then comment per file, and "
                        "ask to split the change if it mixes refactoring and behaviour changes"
                    ),
                },
            ),
            "codebase": (
                "a Python web service",
                "a React front end",
                "an infrastructure-as-code repository",
                "a data pipeline",
                "an Android app",
            ),
            "platform": (
                {
                    "platform": "GitHub",
                    "platform_rule": (
                        "Use suggested changes blocks for small concrete fixes, and submit the review as "
                        "Request changes only when a blocking comment exists"
                    ),
                    "platform_signal": "pull request review",
                },
                {
                    "platform": "GitLab",
                    "platform_rule": (
                        "Use suggestion blocks for concrete fixes and start threads for blocking comments "
                        "so they must be resolved before merge"
                    ),
                    "platform_signal": "merge request",
                },
                {
                    "platform": "Gerrit",
                    "platform_rule": (
                        "Match the Code-Review vote to the comments: -1 only with at least one blocking "
                        "issue, and mark resolved threads as done"
                    ),
                    "platform_signal": "code-review -1",
                },
            ),
        },
    ),
    Problem(
        slug="bluf_memo_format",
        category="optimize",
        summary=(
            "Rewrite {memo} for {org} in bottom-line-up-front form so {reader} gets the point from the "
            "subject line and first sentences"
        ),
        task=(
            "Leaders at {org} complained that {memo} buried the point; rewrite it BLUF-style for {reader}, "
            "and a rubric scores whether the decision or key fact is clear within the first 50 words."
        ),
        steps=(
            "Write the subject line with a tag for the action needed ({tags}) and the topic in a few words",
            "{memo_rule}",
            (
                "Follow with background and supporting points in short paragraphs or bullets, most "
                "important first, each one line where possible"
            ),
            "{reader_rule}",
        ),
        avoid=(
            "Do not open with history or context: the bottom line goes first",
            "Do not hide the deadline or the ask in the last paragraph",
        ),
        signals=("bluf", "bottom line up front", "{memo_signal}"),
        validation=("python memo_check.py memo.md --bluf --max-lead-words 50",),
        slots={
            "org": (
                {"org": "a US Army unit", "tags": "ACTION, SIGN, INFO, DECISION"},
                {"org": "a federal agency office", "tags": "ACTION, DECISION, INFO"},
                {"org": "a consulting firm", "tags": "DECISION NEEDED, FYI, ACTION"},
                {"org": "a hospital leadership team", "tags": "ACTION, DECISION, FYI"},
                {"org": "a software company's engineering leadership", "tags": "DECISION, ACTION, FYI"},
            ),
            "memo": (
                {
                    "memo": "a decision request",
                    "memo_rule": (
                        "State the recommendation and the decision needed, with the deadline, in the first "
                        "sentence, then the options you considered"
                    ),
                    "memo_signal": "decision request",
                },
                {
                    "memo": "a project status update",
                    "memo_rule": (
                        "State the overall status (on track, at risk, off track) and the one thing the "
                        "reader must know in the first sentence"
                    ),
                    "memo_signal": "status update",
                },
                {
                    "memo": "an incident notification",
                    "memo_rule": (
                        "State what happened, the impact and what you need from the reader in the first "
                        "two sentences, then the timeline"
                    ),
                    "memo_signal": "incident notification",
                },
            ),
            "reader": (
                {
                    "reader": "a senior leader who reads on a phone",
                    "reader_rule": (
                        "Keep the whole memo to one screen if possible and move detail to an attachment"
                    ),
                },
                {
                    "reader": "a board",
                    "reader_rule": (
                        "Add a one-paragraph executive summary with the financial or risk impact and keep "
                        "the detail in an appendix"
                    ),
                },
                {
                    "reader": "a cross-functional working group",
                    "reader_rule": (
                        "Name the owner for each action and use the same names and dates as the shared "
                        "tracker"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="promotional_prize_official_rules",
        category="repair",
        summary="Write the {doc} for {promo} that meet the prize promotion rules of {jurisdiction}",
        task=(
            "Draft the {doc} for {promo} run in {jurisdiction}; legal review rejected the draft, and a "
            "checklist verifies the required terms."
        ),
        steps=(
            (
                "State the promoter's name and address, who may enter, the start and end dates with time "
                "zone, how to enter, and how and when winners are chosen and told"
            ),
            "{jurisdiction_rule}",
            "{promo_rule}",
            "{doc_rule}",
        ),
        avoid=(
            (
                "Do not require a purchase or payment for a chance-based draw without a free method of "
                "entry where the law requires one"
            ),
            (
                "Do not describe prizes vaguely: state each prize, its approximate retail value and the "
                "number available"
            ),
        ),
        signals=(
            "official rules",
            "prize draw|sweepstakes",
            "{jurisdiction_signal}",
            "no purchase necessary",
        ),
        validation=("python promo_rules_check.py rules.md --jurisdiction {flag}",),
        slots={
            "promo": (
                {
                    "promo": "an Instagram giveaway",
                    "promo_rule": (
                        "Include a release of Instagram and an acknowledgement that the promotion is not "
                        "sponsored or administered by it, as the platform requires"
                    ),
                },
                {
                    "promo": "a receipt-upload prize draw",
                    "promo_rule": (
                        "Describe the free alternative method of entry with equal dignity and the same odds"
                    ),
                },
                {
                    "promo": "an email sign-up prize draw",
                    "promo_rule": (
                        "Keep entry separate from marketing consent: entering must not require agreeing to "
                        "newsletters"
                    ),
                },
                {
                    "promo": "a photo contest judged on skill",
                    "promo_rule": (
                        "Publish the judging criteria with their weights, the judges' qualifications, and "
                        "what happens in a tie"
                    ),
                },
                {
                    "promo": "an instant-win game",
                    "promo_rule": (
                        "State how many prizes are seeded, the odds of winning, and what happens to "
                        "unclaimed prizes"
                    ),
                },
                {
                    "promo": "a text-to-win promotion",
                    "promo_rule": (
                        "State that standard message rates may apply, give the free alternative entry "
                        "route, and cap entries per phone number"
                    ),
                },
                {
                    "promo": "a customer referral prize draw",
                    "promo_rule": (
                        "Say who counts as a valid referral, when entries are credited, and limit entries "
                        "per person"
                    ),
                },
            ),
            "jurisdiction": (
                {
                    "jurisdiction": "the United States",
                    "jurisdiction_rule": (
                        "Include 'No purchase necessary' and 'Void where prohibited', and register and "
                        "bond in New York and Florida when the total prize value exceeds $5,000"
                    ),
                    "jurisdiction_signal": "void where prohibited",
                    "flag": "us",
                },
                {
                    "jurisdiction": "the United Kingdom",
                    "jurisdiction_rule": (
                        "Follow CAP Code section 8: state all significant conditions, including closing "
                        "date, prize details and restrictions, before entry or at the first opportunity"
                    ),
                    "jurisdiction_signal": "cap code",
                    "flag": "uk",
                },
                {
                    "jurisdiction": "Canada",
                    "jurisdiction_rule": (
                        "Require a skill-testing question before awarding any prize, disclose the odds, "
                        "and check the separate filing rules for Quebec residents"
                    ),
                    "jurisdiction_signal": "skill-testing question",
                    "flag": "ca",
                },
            ),
            "doc": (
                {
                    "doc": "full official rules",
                    "doc_rule": (
                        "Number the sections, define terms used, and add the winner list request procedure "
                        "and privacy notice reference"
                    ),
                },
                {
                    "doc": "abbreviated rules for the ad",
                    "doc_rule": (
                        "Keep only the terms that must appear in the ad itself (no purchase, eligibility, "
                        "dates, link to full rules) and check they match the full rules word for word"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="environmental_claims_substantiation",
        category="repair",
        summary=(
            "Rewrite the {claim} claim for {product} so it is specific, substantiated and allowed under "
            "{regime}"
        ),
        task=(
            "Marketing wants to call {product} {claim}; rewrite the claim and its qualifications so it "
            "complies with {regime}, and a compliance reviewer checks wording and evidence."
        ),
        steps=(
            (
                "Ask what the claim actually means for this product (which part, which life-cycle stage, "
                "compared with what) and collect the evidence for that exact meaning"
            ),
            "{claim_rule}",
            "{regime_rule}",
            (
                "Put qualifications next to the claim, not in a footnote or linked page, and check the "
                "images and product name do not imply more than the text"
            ),
        ),
        avoid=(
            (
                "Do not use broad terms like eco-friendly, green or sustainable without specific, "
                "substantiated qualification"
            ),
            "Do not claim a benefit that is required by law anyway as if it were a distinguishing feature",
        ),
        signals=("green claims", "{claim_signal}", "{regime_signal}"),
        validation=("python claim_check.py copy.md --regime {flag}",),
        slots={
            "product": (
                "a reusable water bottle",
                "a laundry detergent",
                "a clothing line",
                "a coffee pod",
                "a smartphone case",
            ),
            "claim": (
                {
                    "claim": "eco-friendly",
                    "claim_rule": (
                        "Replace the general term with the specific, measurable benefit (made with 60% "
                        "recycled plastic), naming the part of the product it applies to"
                    ),
                    "claim_signal": "eco-friendly",
                },
                {
                    "claim": "carbon neutral",
                    "claim_rule": (
                        "Separate reductions from offsets, say which emissions scopes and life-cycle "
                        "stages are included, and name the offset standard if offsets are used"
                    ),
                    "claim_signal": "carbon neutral",
                },
                {
                    "claim": "recyclable",
                    "claim_rule": (
                        "Qualify the claim where recycling facilities are not available to most consumers, "
                        "and say which parts are recyclable and how to prepare them"
                    ),
                    "claim_signal": "recyclable",
                },
                {
                    "claim": "biodegradable",
                    "claim_rule": (
                        "Give the conditions, standard and time frame for biodegradation, and avoid the "
                        "claim for items that go to landfill where they will not degrade"
                    ),
                    "claim_signal": "biodegradable",
                },
            ),
            "regime": (
                {
                    "regime": "the FTC Green Guides",
                    "regime_rule": (
                        "Apply the Green Guides' qualification rules, including that recyclable claims "
                        "need qualification unless facilities are available to a substantial majority of "
                        "consumers where the item is sold"
                    ),
                    "regime_signal": "green guides",
                    "flag": "ftc",
                },
                {
                    "regime": "the UK CMA Green Claims Code",
                    "regime_rule": (
                        "Check all six principles: truthful and accurate, clear and unambiguous, no "
                        "omission of important information, fair comparisons, full life cycle, and "
                        "substantiated"
                    ),
                    "regime_signal": "green claims code",
                    "flag": "cma",
                },
                {
                    "regime": "the EU rules on empowering consumers for the green transition",
                    "regime_rule": (
                        "Drop generic environmental claims without recognised excellent environmental "
                        "performance, and drop neutrality claims that rely on offsetting"
                    ),
                    "regime_signal": "directive (eu) 2024/825",
                    "flag": "eu",
                },
            ),
        },
    ),
    Problem(
        slug="fixed_width_record_layout",
        category="repair",
        summary=(
            "Generate {file} from {source} with every field padded, justified and positioned exactly as "
            "the record layout specifies, handling {pitfall}"
        ),
        task=(
            "Build {file} from {source}; the receiving system rejected earlier files, and a layout "
            "validator checks record length, field positions and how the file handles {pitfall}."
        ),
        steps=(
            (
                "Encode the record layout as data (field name, start, length, type, justification, pad "
                "character) and generate every record from it instead of concatenating strings by hand"
            ),
            "{file_rule}",
            "{pitfall_rule}",
            (
                "Validate every record's length and field values with the layout validator and compare "
                "control totals (record counts, amount totals) with the source"
            ),
        ),
        avoid=(
            (
                "Do not let a value longer than its field shift the rest of the record: truncate or reject "
                "it per the layout's rule"
            ),
            (
                "Do not write the file with the platform's default encoding or line endings: use the ones "
                "the layout specifies"
            ),
        ),
        signals=("fixed-width", "record length", "{file_signal}", "{pitfall_signal}"),
        validation=("python layout_check.py {out} --layout {layout}",),
        slots={
            "file": (
                {
                    "file": "a NACHA ACH payment file",
                    "file_rule": (
                        "Write 94-character records in the file header, batch header, entry detail, batch "
                        "control and file control order, and pad the file with 9-filled records to a "
                        "multiple of ten"
                    ),
                    "file_signal": "nacha",
                    "out": "payments.ach",
                    "layout": "nacha.json",
                },
                {
                    "file": "an extract defined by a COBOL copybook",
                    "file_rule": (
                        "Follow the PIC clauses exactly: 9(n) numeric right-justified and zero-filled, "
                        "X(n) alphanumeric left-justified and space-filled, V as an implied decimal point"
                    ),
                    "file_signal": "copybook",
                    "out": "extract.dat",
                    "layout": "copybook.json",
                },
                {
                    "file": "an Australian ABA direct entry file",
                    "file_rule": (
                        "Write 120-character records with the descriptive record first, detail records "
                        "next and the file total record last"
                    ),
                    "file_signal": "aba file",
                    "out": "payments.aba",
                    "layout": "aba.json",
                },
                {
                    "file": "a legacy insurance claims feed",
                    "file_rule": (
                        "Follow the feed specification's record types, with the record type code in the "
                        "first positions and a trailer record carrying the record count"
                    ),
                    "file_signal": "record layout",
                    "out": "claims.txt",
                    "layout": "claims.json",
                },
            ),
            "source": ("a CSV export", "a JSON API response", "a database query", "a spreadsheet"),
            "pitfall": (
                {
                    "pitfall": "negative amounts and implied decimals",
                    "pitfall_rule": (
                        "Write amounts in the smallest unit with no decimal point, and encode the sign the "
                        "way the layout says (a separate sign field, or a trailing overpunch for signed "
                        "zoned decimals)"
                    ),
                    "pitfall_signal": "implied decimal",
                },
                {
                    "pitfall": "names with accents and non-ASCII characters",
                    "pitfall_rule": (
                        "Transliterate or replace characters outside the allowed character set before "
                        "padding, and measure field length in bytes of the target encoding"
                    ),
                    "pitfall_signal": "character set",
                },
                {
                    "pitfall": "dates and empty fields",
                    "pitfall_rule": (
                        "Format dates in the layout's form (YYMMDD or CCYYMMDD) and fill empty fields with "
                        "the layout's default (spaces or zeros), never with nothing"
                    ),
                    "pitfall_signal": "space-filled",
                },
            ),
        },
    ),
    Problem(
        slug="bcp14_requirement_keywords",
        category="repair",
        summary=(
            "Revise {doc} so every normative requirement uses BCP 14 keywords (RFC 2119 and RFC 8174) "
            "correctly, fixing {defect}, with {targets}"
        ),
        task=(
            "Reviewers of {doc} found {defect}; revise the text so requirement levels are unambiguous "
            "under BCP 14, with {targets}, and a spec linter checks keyword usage."
        ),
        steps=(
            (
                "Add the current BCP 14 boilerplate that cites both RFC 2119 and RFC 8174 and says the "
                "keywords apply only when in all capitals"
            ),
            "{defect_rule}",
            "{targets_rule}",
            (
                "Run the linter, then read each MUST and ask whether an implementation that ignores it "
                "would actually fail to interoperate or be unsafe; downgrade any that would not"
            ),
        ),
        avoid=(
            (
                "Do not capitalise keywords in explanatory or non-normative text: under RFC 8174 capitals "
                "make a statement normative"
            ),
            "Do not use MUST for things an implementation cannot observe or test",
        ),
        signals=("rfc 2119", "bcp 14", "{defect_signal}", "must|should|may"),
        validation=("python spec_lint.py {file} --bcp14",),
        slots={
            "doc": (
                {"doc": "an IETF Internet-Draft", "file": "draft.md"},
                {"doc": "a company API design standard", "file": "api-standard.md"},
                {"doc": "a data exchange profile", "file": "profile.md"},
                {"doc": "an internal security baseline", "file": "baseline.md"},
                {"doc": "an open file format specification", "file": "spec.md"},
            ),
            "defect": (
                {
                    "defect": "lowercase 'must' and 'should' used ambiguously",
                    "defect_rule": (
                        "Decide for each lowercase must, should and may whether it is a requirement; "
                        "capitalise the normative ones and reword the rest ('needs to', 'can') so they "
                        "cannot be mistaken"
                    ),
                    "defect_signal": "lowercase must",
                },
                {
                    "defect": "SHALL and MUST mixed for the same level",
                    "defect_rule": (
                        "Pick one of MUST or SHALL for absolute requirements and use it throughout, with "
                        "MUST NOT or SHALL NOT to match"
                    ),
                    "defect_signal": "shall vs must",
                },
                {
                    "defect": "mandatory behaviour written as SHOULD",
                    "defect_rule": (
                        "Turn SHOULD into MUST wherever there is no valid reason to deviate, and for each "
                        "remaining SHOULD state the circumstances that justify deviating"
                    ),
                    "defect_signal": "should with exceptions",
                },
                {
                    "defect": "a missing or outdated boilerplate",
                    "defect_rule": (
                        "Replace the RFC 2119-only boilerplate with the RFC 8174 version and move it to "
                        "the terminology section"
                    ),
                    "defect_signal": "rfc 8174",
                },
            ),
            "targets": (
                {
                    "targets": "one conformance class",
                    "targets_rule": (
                        "Write each requirement with the implementation as its subject ('An implementation "
                        "MUST ...') and number requirements so tests can cite them"
                    ),
                },
                {
                    "targets": "separate client and server requirements",
                    "targets_rule": (
                        "Make the conformance target the subject of every requirement ('A server MUST "
                        "...', 'A client MAY ...') and never leave it implied"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="ears_requirements_syntax",
        category="repair",
        summary=(
            "Rewrite the requirements for {system} into EARS {pattern} form for {tool}, one testable "
            "requirement per statement"
        ),
        task=(
            "A requirements review of the {system} specification found vague and compound statements; "
            "rewrite them in the EARS {pattern} pattern for import into {tool}, and a requirements linter "
            "checks the syntax."
        ),
        steps=(
            (
                "Split compound statements so each has one trigger or condition, one system name and one "
                "response"
            ),
            "{pattern_rule}",
            (
                "Use 'shall' for every requirement, name the system the same way each time, and state "
                "responses measurably (within 200 ms, at least 3 attempts)"
            ),
            "{tool_rule} Then run the linter and fix every statement it cannot parse into the pattern",
        ),
        avoid=(
            (
                "Do not use vague terms such as fast, user-friendly, appropriate or as required: they "
                "cannot be tested"
            ),
            (
                "Do not hide an unwanted-behaviour requirement inside an event-driven one: write If-then "
                "statements for faults"
            ),
        ),
        signals=("ears", "{pattern_signal}", "shall", "requirements syntax"),
        validation=("python ears_lint.py requirements.csv",),
        slots={
            "system": (
                "an automotive door-lock controller",
                "an infusion pump",
                "a level crossing controller",
                "a smart thermostat",
                "a satellite power subsystem",
            ),
            "pattern": (
                {
                    "pattern": "ubiquitous",
                    "pattern_rule": (
                        "Write always-active requirements as 'The <system> shall <response>' with no "
                        "precondition"
                    ),
                    "pattern_signal": "ubiquitous requirement",
                },
                {
                    "pattern": "event-driven",
                    "pattern_rule": (
                        "Write 'When <trigger>, the <system> shall <response>', with one triggering event "
                        "per requirement"
                    ),
                    "pattern_signal": "when <trigger>",
                },
                {
                    "pattern": "state-driven",
                    "pattern_rule": (
                        "Write 'While <state>, the <system> shall <response>' for behaviour that holds "
                        "throughout a state"
                    ),
                    "pattern_signal": "while <state>",
                },
                {
                    "pattern": "unwanted-behaviour",
                    "pattern_rule": (
                        "Write 'If <unwanted condition>, then the <system> shall <response>' for faults, "
                        "failures and misuse"
                    ),
                    "pattern_signal": "if then shall",
                },
                {
                    "pattern": "optional-feature",
                    "pattern_rule": (
                        "Write 'Where <feature is included>, the <system> shall <response>' for "
                        "variant-specific behaviour"
                    ),
                    "pattern_signal": "where <feature>",
                },
            ),
            "tool": (
                {
                    "tool": "IBM DOORS Next",
                    "tool_rule": (
                        "Put each requirement in its own artefact with the pattern recorded as an attribute."
                    ),
                },
                {
                    "tool": "Jama Connect",
                    "tool_rule": (
                        "Import each requirement as one item with its pattern and verification method "
                        "fields filled."
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="grounded_answer_passage_citations",
        category="explore",
        summary="Answer questions over {corpus} citing only the supplied passages with {cite}, when {case}",
        task=(
            "An assistant answers from retrieved passages of {corpus} and must cite them with {cite}; in "
            "this case {case}, and a grader checks every claim against the cited passage."
        ),
        steps=(
            "Read all supplied passages before answering and note which passage supports which fact",
            "{case_rule}",
            (
                "Attach a citation to every sentence that states a fact from the passages, using {cite} "
                "exactly as the format defines, and cite the most specific passage"
            ),
            (
                "Check each cited passage really contains the claim it is attached to, and remove any "
                "sentence that relies on outside knowledge"
            ),
        ),
        avoid=(
            "Do not cite a passage for a claim it does not make, or invent passage identifiers",
            "Do not fill gaps with general knowledge when the instructions restrict answers to the passages",
        ),
        signals=("grounded answer", "citations", "{cite_signal}", "{case_signal}"),
        validation=("python citation_grounding.py answers.jsonl --passages passages.jsonl",),
        slots={
            "corpus": (
                "an HR policy handbook",
                "product documentation",
                "a set of court opinions",
                "clinical practice guidelines",
                "internal engineering design documents",
            ),
            "cite": (
                {"cite": "bracketed passage numbers such as [3]", "cite_signal": "[1]"},
                {"cite": "footnote markers and a sources list", "cite_signal": "footnote citations"},
                {"cite": "inline document id and page tags", "cite_signal": "doc_id"},
            ),
            "case": (
                {
                    "case": "the passages contradict each other",
                    "case_rule": (
                        "Report both positions with their own citations and say which is more recent or "
                        "more authoritative if the passages show it"
                    ),
                    "case_signal": "conflicting sources",
                },
                {
                    "case": "the answer is not in the passages",
                    "case_rule": (
                        "Say that the supplied sources do not answer the question, and state what they do "
                        "cover, instead of answering anyway"
                    ),
                    "case_signal": "not in the sources",
                },
                {
                    "case": "the answer needs facts from two passages",
                    "case_rule": (
                        "Combine the facts explicitly, citing each passage for its part, and make the "
                        "reasoning that links them visible"
                    ),
                    "case_signal": "multi-passage",
                },
            ),
        },
    ),
    Problem(
        slug="robots_txt_crawler_rules",
        category="repair",
        summary=(
            "Write robots.txt rules for {site} {served}, handling {issue} as RFC 9309 crawlers interpret it"
        ),
        task=(
            "Search console reports show crawlers fetching the wrong URLs on {site}; rewrite the "
            "robots.txt, {served}, and a robots.txt tester checks a list of URLs against each user agent."
        ),
        steps=(
            (
                "List the URLs and paths that must be crawlable and the ones that must not, and turn them "
                "into a test table before writing rules"
            ),
            "{issue_rule}",
            "{site_rule}",
            (
                "Run the tester over the URL table for each user agent, and check the file is served at "
                "the root with status 200 and text/plain"
            ),
        ),
        avoid=(
            (
                "Do not use robots.txt to keep pages out of search results: a blocked URL can still be "
                "indexed from links; use noindex or authentication"
            ),
            "Do not block the CSS and JavaScript that pages need to render",
        ),
        signals=("robots.txt", "rfc 9309", "{issue_signal}", "disallow"),
        validation=("python robots_test.py robots.txt --urls urls.csv",),
        slots={
            "site": (
                {
                    "site": "an online shop with faceted navigation",
                    "site_rule": (
                        "Disallow the filter and sort parameter combinations that create near-infinite URL "
                        "spaces, while keeping category and product pages open"
                    ),
                },
                {
                    "site": "a documentation site with versioned paths",
                    "site_rule": (
                        "Keep the current version open and disallow old version paths only if they have "
                        "canonical equivalents"
                    ),
                },
                {
                    "site": "a staging copy of a marketing site",
                    "site_rule": (
                        "Disallow everything for all agents as a backstop, and protect the site with "
                        "authentication, since robots.txt alone does not stop indexing"
                    ),
                },
                {
                    "site": "a news site that opts out of AI training crawlers",
                    "site_rule": (
                        "Add groups for the AI training user agents it opts out of (for example GPTBot, "
                        "Google-Extended, CCBot) while leaving search crawlers allowed"
                    ),
                },
                {
                    "site": "a forum with user profile and search pages",
                    "site_rule": (
                        "Disallow internal search results and session-specific URLs, and keep thread pages "
                        "crawlable"
                    ),
                },
            ),
            "issue": (
                {
                    "issue": "Allow and Disallow precedence",
                    "issue_rule": (
                        "Remember that the most specific (longest) matching rule wins and Allow wins a "
                        "tie, and order rules for readability, not for precedence"
                    ),
                    "issue_signal": "longest match",
                },
                {
                    "issue": "wildcards and end anchors",
                    "issue_rule": (
                        "Use * for any sequence and $ to anchor the end of the URL, and test that /*.pdf$ "
                        "does not also block /file.pdf?download"
                    ),
                    "issue_signal": "wildcard",
                },
                {
                    "issue": "user-agent groups",
                    "issue_rule": (
                        "Give each crawler that needs different rules its own group: a crawler obeys only "
                        "the most specific group matching its name, not the * group as well"
                    ),
                    "issue_signal": "user-agent group",
                },
            ),
            "served": (
                "served from the site root by nginx",
                "generated by a CMS plugin",
                "injected by a CDN edge rule",
            ),
        },
    ),
    Problem(
        slug="hreflang_annotations",
        category="optimize",
        summary="Add hreflang annotations for {site} via {method} that search engines accept, fixing {issue}",
        task=(
            "International pages of {site} rank in the wrong countries; fix the hreflang annotations "
            "delivered through {method}, where an audit found {issue}, and a crawler-based checker "
            "validates every cluster."
        ),
        steps=(
            (
                "Build the cluster table first: each page's URL with its language and optional region, "
                "with one row per alternate"
            ),
            "{issue_rule}",
            "{method_rule}",
            (
                "Crawl the site with the checker and fix every cluster with missing, non-reciprocal or "
                "invalid entries"
            ),
        ),
        avoid=(
            (
                "Do not use region codes that search engines reject, such as en-UK (use en-GB) or es-419 "
                "for Google: use ISO 639-1 languages and ISO 3166-1 alpha-2 regions"
            ),
            "Do not point hreflang at URLs that redirect, are blocked or carry a canonical to another page",
        ),
        signals=("hreflang", "x-default", "{issue_signal}"),
        validation=("python hreflang_check.py --sitemap sitemap.xml --crawl",),
        slots={
            "site": (
                "an online store in five EU countries",
                "a SaaS marketing site in English, German and Japanese",
                "a news publisher with regional editions",
                "a travel site with Spanish for Spain and Latin America",
            ),
            "method": (
                {
                    "method": "link elements in the HTML head",
                    "method_rule": (
                        "Put a full set of link rel=alternate hreflang elements, including a "
                        "self-reference, in the head of every page in the cluster"
                    ),
                },
                {
                    "method": "the XML sitemap",
                    "method_rule": (
                        "List every alternate as an xhtml:link element under each url entry in the "
                        "sitemap, with the xhtml namespace declared"
                    ),
                },
                {
                    "method": "HTTP Link headers",
                    "method_rule": (
                        "Send one Link header value per alternate for non-HTML files such as PDFs, with "
                        "absolute URLs"
                    ),
                },
            ),
            "issue": (
                {
                    "issue": "missing return links",
                    "issue_rule": (
                        "Make every page list all alternates, including itself, so each pair links both ways"
                    ),
                    "issue_signal": "return tags",
                },
                {
                    "issue": "invalid language and region codes",
                    "issue_rule": (
                        "Replace invalid codes with language, or language-region pairs, that the search "
                        "engines document"
                    ),
                    "issue_signal": "en-gb",
                },
                {
                    "issue": "no x-default",
                    "issue_rule": (
                        "Add an x-default alternate pointing to the language selector or the global "
                        "default page"
                    ),
                    "issue_signal": "x-default missing",
                },
                {
                    "issue": "alternates pointing at redirected or non-canonical URLs",
                    "issue_rule": (
                        "Point every alternate at the final, canonical, indexable URL of each version"
                    ),
                    "issue_signal": "non-canonical",
                },
            ),
        },
    ),
    Problem(
        slug="data_subject_access_response",
        category="explore",
        summary="Respond to a data subject access request to {org} under {law} when {complication}",
        task=(
            "{org_cap} received an access request under {law} and {complication}; draft the response and "
            "decide what to disclose, and a privacy reviewer grades it against the statutory requirements."
        ),
        steps=(
            "Log the request date and compute the deadline: {deadline}",
            "{complication_rule}",
            (
                "Give the personal data with the required supplementary information: purposes, categories, "
                "recipients, retention, source, and the person's other rights"
            ),
            (
                "Record each redaction or exemption with its legal basis in the case file before sending, "
                "and send the data securely"
            ),
        ),
        avoid=(
            (
                "Do not refuse or delay because the request did not use a form or the words 'subject "
                "access request': any clear request counts"
            ),
            (
                "Do not release other people's personal data in the response without a lawful basis: "
                "redact or seek consent"
            ),
        ),
        signals=("subject access request|dsar", "right of access", "{law_signal}"),
        validation=("python policy_grade.py response.json --policy access-request",),
        slots={
            "org": (
                {"org": "an online retailer", "org_cap": "An online retailer"},
                {"org": "a fitness app company", "org_cap": "A fitness app company"},
                {"org": "a recruitment agency", "org_cap": "A recruitment agency"},
                {"org": "a video streaming service", "org_cap": "A video streaming service"},
                {"org": "a private tutoring company", "org_cap": "A private tutoring company"},
            ),
            "law": (
                {
                    "law": "the EU GDPR",
                    "deadline": (
                        "one month from receipt, extendable by two further months for complex or numerous "
                        "requests if the person is told within the first month"
                    ),
                    "law_signal": "article 15",
                },
                {
                    "law": "the UK GDPR",
                    "deadline": (
                        "one calendar month, extendable by two months for complex requests, with the clock "
                        "paused while waiting for identity documents the organisation reasonably needs"
                    ),
                    "law_signal": "uk gdpr",
                },
                {
                    "law": "the CCPA",
                    "deadline": (
                        "45 calendar days, extendable once by another 45 days with notice to the consumer"
                    ),
                    "law_signal": "right to know",
                },
            ),
            "complication": (
                {
                    "complication": "the request arrived as a social media message",
                    "complication_rule": (
                        "Treat it as a valid request, move the conversation to a secure channel and verify "
                        "identity proportionately"
                    ),
                },
                {
                    "complication": "the requester wants CCTV footage that shows other people",
                    "complication_rule": (
                        "Locate the footage, then blur or otherwise redact third parties, or explain why "
                        "they cannot be redacted"
                    ),
                },
                {
                    "complication": "a third party is asking on someone else's behalf",
                    "complication_rule": (
                        "Confirm the third party's authority (signed authorisation or legal power) before "
                        "disclosing anything"
                    ),
                },
                {
                    "complication": "the requester's identity is not yet verified",
                    "complication_rule": (
                        "Ask only for the verification needed, proportionate to the data, and say when the "
                        "deadline starts or resumes"
                    ),
                },
            ),
        },
    ),
    Problem(
        slug="mt_post_editing_levels",
        category="explore",
        summary=(
            "Post-edit {pair} machine translation of {content} to the {level} standard, changing what the "
            "level requires and nothing more"
        ),
        task=(
            "A localisation vendor ordered {level} of {pair} machine translation for {content}; reviewers "
            "score accuracy, required fixes and unnecessary edits against ISO 18587 guidelines."
        ),
        steps=(
            (
                "Read the source and the raw output side by side and mark errors by type: meaning, "
                "omission, addition, terminology, grammar, style"
            ),
            "{level_rule}",
            "{content_rule}",
            (
                "Check numbers, names, tags and placeholders against the source in every segment, whatever "
                "the level"
            ),
        ),
        avoid=(
            (
                "Do not retranslate segments from scratch when the output only needs correcting: it wastes "
                "effort and the reviewers count it"
            ),
            (
                "Do not leave meaning errors because the sentence reads fluently: fluent errors are the "
                "most dangerous in MT output"
            ),
        ),
        signals=("post-editing", "iso 18587", "{level_signal}", "machine translation"),
        validation=("python pe_review.py segments.xliff --level {flag}",),
        slots={
            "level": (
                {
                    "level": "light post-editing",
                    "level_rule": (
                        "Fix meaning, omissions, additions and errors that block understanding; leave "
                        "correct but unidiomatic wording and style as it is"
                    ),
                    "level_signal": "light post-editing",
                    "flag": "light",
                },
                {
                    "level": "full post-editing",
                    "level_rule": (
                        "Bring the text to the quality of a human translation: correct meaning, "
                        "terminology, grammar, style and consistency, following the client's style guide"
                    ),
                    "level_signal": "full post-editing",
                    "flag": "full",
                },
            ),
            "content": (
                {
                    "content": "e-commerce product descriptions",
                    "content_rule": (
                        "Keep measurements, sizes and product names exactly as in the source, and check "
                        "the units suit the target market"
                    ),
                },
                {
                    "content": "a user manual",
                    "content_rule": (
                        "Apply the terminology list to every instance and keep instructions in the "
                        "imperative the target style uses"
                    ),
                },
                {
                    "content": "support knowledge base articles",
                    "content_rule": (
                        "Match UI labels to the localised product's actual strings, not to a translation "
                        "of the English label"
                    ),
                },
                {
                    "content": "legal terms and conditions",
                    "content_rule": (
                        "Flag every segment whose legal meaning is uncertain for a legal reviewer instead "
                        "of guessing"
                    ),
                },
                {
                    "content": "marketing landing pages",
                    "content_rule": (
                        "Flag segments where a literal fix cannot carry the message, since marketing copy "
                        "may need transcreation beyond post-editing"
                    ),
                },
            ),
            "pair": (
                "English to German",
                "English to Japanese",
                "Spanish to English",
                "English to Brazilian Portuguese",
            ),
        },
    ),
    Problem(
        slug="spaced_repetition_card_rules",
        category="innovate",
        summary=(
            "Turn {source} on {subject} into Anki {card_type} that follow the minimum information principle"
        ),
        task=(
            "Create Anki {card_type} on {subject} from {source}; a card checker validates the note syntax "
            "and reviewers check that each card tests one fact."
        ),
        steps=(
            "List the facts worth remembering from {source} and drop anything that does not need recall",
            (
                "Split every fact list into single facts: one card tests one atomic fact, with enough "
                "context in the prompt that it has only one right answer"
            ),
            "{card_rule}",
            (
                "Import into a test deck with the checker and review the cards once yourself, rewriting "
                "any you answer by recognising the wording rather than the fact"
            ),
        ),
        avoid=(
            (
                "Do not make cards that ask for a whole list or enumeration: split them or use overlapping "
                "cloze cards"
            ),
            "Do not copy textbook sentences verbatim as prompts: rephrase so recall depends on understanding",
        ),
        signals=("anki", "minimum information principle", "{card_signal}"),
        validation=("python anki_check.py cards.txt --type {flag}",),
        slots={
            "subject": (
                "pharmacology drug classes",
                "Spanish verb conjugations",
                "organic chemistry reactions",
                "cardiac physiology",
                "constitutional law cases",
                "networking protocols",
                "music theory intervals",
            ),
            "source": ("a lecture transcript", "a textbook chapter", "a set of lecture slides"),
            "card_type": (
                {
                    "card_type": "cloze deletion notes",
                    "card_rule": (
                        "Write cloze deletions with the c1, c2 numbering (two braces, c1, two colons, "
                        "answer, optional hint), one deletion per card unless items must be learned "
                        "together"
                    ),
                    "card_signal": "cloze deletion",
                    "flag": "cloze",
                },
                {
                    "card_type": "basic and reversed notes",
                    "card_rule": (
                        "Write front and back fields for a tab-separated import, and add a reversed card "
                        "only where recall in both directions is needed"
                    ),
                    "card_signal": "basic and reversed",
                    "flag": "basic",
                },
            ),
        },
    ),
]
