"""Hostile inputs of issue 12, one builder a class, sized by the caller.

The test suite (``tests/hostile``) builds each at a small size that an unbounded tool would still take
many seconds over; ``bench/bench_hostile.py`` builds them at the sizes of the issue and measures time
and peak memory. Every builder returns plain text (or a dict of repository files).
"""

from __future__ import annotations

# --- markdown for rulespy check ----------------------------------------------------------------------


def identical_headings(count: int) -> str:
    """``# T`` and ``count`` identical ``## Same`` headings (20,000: 180 KB)."""
    return "# T\n\n" + "## Same\n\n" * count


def reference_definitions(count: int) -> str:
    """``count`` reference definitions without a blank line between them (5,000: 100 KB)."""
    return "# Refs\n\n" + "".join(f"[r{i}]: nope{i}.md\n" for i in range(count))


def bracket_runs(count: int) -> str:
    """One paragraph of ``count`` link labels that never become links, each followed by text."""
    return "# Brackets\n\n" + ("[a]" + "b " * 50) * count + "\n"


def emphasis_openers(count: int) -> str:
    """One paragraph of ``count`` unmatched ``*a _b`` emphasis openers."""
    return "# Emphasis\n\n" + "*a _b " * count + "\n"


def repeated_claims(count: int) -> str:
    """``count`` ownership claims in one paragraph (20,000: 580 KB)."""
    return "# Claims\n\n" + "X is owned by core/damage.md " * count + "\n"


def capitalised_run(words: int) -> str:
    """One line of ``words`` capitalised words before a lower-case claim (20,000: 40 KB)."""
    return "# Run\n\n" + "A " * words + "a is owned by core/damage.md\n"


# --- YAML with aliases -------------------------------------------------------------------------------


def _alias_levels(indent: str, levels: int, leaf: str) -> list[str]:
    """Lines of a YAML mapping whose lists each hold nine aliases of the list before: 9**levels values."""
    lines = [f"{indent}l0.md: &a0 [{', '.join([leaf] * 9)}]"]
    for level in range(1, levels + 1):
        lines.append(f"{indent}l{level}.md: &a{level} [{', '.join([f'*a{level - 1}'] * 9)}]")
    return lines


def concepts_alias_bomb(levels: int) -> str:
    """A concepts.yml whose ``requires`` lists refer to each other through aliases; the bomb's last
    line (``levels + 3``) is the alias that takes it over any budget."""
    return "\n".join(["owners: {}", "requires:", *_alias_levels("  ", levels, "core/x.md")]) + "\n"


def nav_alias_bomb(levels: int) -> str:
    """A mkdocs.yml whose ``nav`` is built from nested aliases of a list of pages."""
    lines = ["site_name: hostile", "x-pages:"]
    lines.append("  - &a0 [" + ", ".join(["index.md"] * 9) + "]")
    for level in range(1, levels + 1):
        lines.append(f"  - &a{level} [" + ", ".join([f"*a{level - 1}"] * 9) + "]")
    lines.append(f"nav:\n  - Home: *a{levels}")
    return "\n".join(lines) + "\n"


def scenario_alias_bomb(levels: int) -> str:
    """A scenario whose ``description``-free top level holds nested aliases (refused before the schema)."""
    return "\n".join(["x:", *_alias_levels("  ", levels, "1")]) + "\n"


# --- scenarios for odds and resolve ------------------------------------------------------------------


def big_unit(models: int, dice: int, snap_fire: bool = False) -> str:
    """One model with a ``dice``-dice weapon shooting a unit of ``models`` one-wound models; with
    ``snap_fire`` the unit answers with Snap Fire (a firefight)."""
    lines = [
        "weapons:",
        f"  gun: {{range: 48, dice: {dice}, lock: 4, damage: 1}}",
        "units:",
        "  - id: shooters",
        "    side: blue",
        "    models:",
        "      - {id: s1, at: [0, 0], leader: true, weapons: [gun]}",
        "  - id: horde",
        "    side: red",
        "    models:",
    ]
    for i in range(models):
        extra = ", leader: true, weapons: [gun]" if i == 0 else ""
        lines.append(f"      - {{id: h{i}, at: [10, {i * 0.01:.2f}]{extra}}}")
    lines.append("attack: {unit: shooters, command: shoot, targets: [{unit: horde, mark: h0}]}")
    if snap_fire:
        lines.append("response: {command: snap_fire, mark: s1}")
    lines.append("seed: 1")
    return "\n".join(lines) + "\n"


def zigzag_wall(vertices: int, past: bool = True) -> str:
    """One model shooting one model beside a blocking zigzag wall of ``vertices`` vertices; ``past``
    puts the target where the sight line clears the wall's end, else the wall is in the way."""
    teeth = vertices // 2
    front = [(10.0 + (i % 2) * 0.5, i * 0.01) for i in range(teeth)]
    back = [(x + 1.0, y) for x, y in reversed(front)]
    polygon = ", ".join(f"[{x}, {y:.2f}]" for x, y in front + back)
    target_y = -5 if past else teeth * 0.005
    return f"""\
weapons:
  gun: {{range: 48, dice: 1, lock: 4, damage: 1}}
units:
  - id: shooters
    side: blue
    models: [{{id: s1, at: [0, 0], leader: true, weapons: [gun]}}]
  - id: targets
    side: red
    models: [{{id: t1, at: [20, {target_y}], leader: true}}]
terrain:
  - {{kind: blocking, polygon: [{polygon}]}}
attack: {{unit: shooters, command: shoot, targets: [{{unit: targets, mark: t1}}]}}
dice: [5]
"""


# --- a large tree for rulespy coverage ---------------------------------------------------------------


def continuation_file(fences: int, body_lines: int = 3) -> str:
    """A rule file of ``fences`` sections, each with a ``continuation`` example of ``body_lines`` lines."""
    body = "x = 1\n" + "# a line of example code, long enough to weigh something in memory\n" * body_lines
    lines = ["# Generated {#generated}", ""]
    for i in range(fences):
        lines += [f"## Rule {i} {{#rule-{i}}}", "", "Text.", "", "```{.python continuation}", body, "```", ""]
    return "\n".join(lines)


def unit_test_names(count: int, anchors: int) -> list[str]:
    """``count`` unit test names, each naming one of ``anchors`` generated rule anchors."""
    return [f"test_rule_{i % anchors}_case_{i}" for i in range(count)]


def counting_chain(fences: int) -> str:
    """A rule file of one chain of ``fences`` continuation examples; the k-th asserts that fences 1..k ran,
    each exactly once, in its process (a chain run again for each fence runs the first fence k times)."""
    lines = ["# Chain {#chain}", ""]
    for k in range(1, fences + 1):
        code = (
            "import builtins\n"
            f"builtins.__dict__.setdefault('fences_run', []).append({k})\n"
            f"assert builtins.fences_run == list(range(1, {k + 1})), builtins.fences_run[-3:]\n"
        )
        lines += [f"## Step {k} {{#step-{k}}}", "", "```{.python continuation}", code, "```", ""]
    return "\n".join(lines)


# --- markup a rule page must not publish (issue 29) --------------------------------------------------

#: One line of each class of markup a hostile pull request could put in a rule page, and the finding
#: ``rulespy check`` gives it (``rulespy render`` refuses the page with the same line).
UNSAFE_MARKUP: dict[str, tuple[str, str]] = {
    "iframe of a local file": ('<iframe src="file:///etc/os-release"></iframe>', "RS080"),
    "object of the clone's git config": ('<object data="../.git/config"></object>', "RS080"),
    "embed": ('<embed src="../../id_rsa">', "RS080"),
    "script": ("<script>document.body.innerHTML = ''</script>", "RS080"),
    "style": ("<style>body { display: none }</style>", "RS080"),
    "link": ('<link rel="stylesheet" href="file:///etc/x.css">', "RS080"),
    "meta refresh": ('<meta http-equiv="refresh" content="0; url=file:///etc/passwd">', "RS080"),
    "base": ('<base href="file:///">', "RS080"),
    "form": ('<form action="https://example.org/"><input name="x"></form>', "RS080"),
    "img of a local file": ('<img src="file:///etc/os-release">', "RS080"),
    "svg with a script": ("<svg><script>alert(1)</script></svg>", "RS080"),
    "event handler inline": ('Read <a id="x" onmouseover="alert(1)">this</a>.', "RS080"),
    "unfinished tag": ('<iframe src="file:///etc/os-release"', "RS080"),
    "a comment a browser ends early": ("<!-- x --!><script>alert(1)</script> -->", "RS080"),
    "event handler in an attribute list": ('A [link](../index.md){ onmouseover="alert(1)" }.', "RS080"),
    "style in a heading's attribute list": ('## Part {#part style="display: none"}', "RS080"),
    "javascript: in raw HTML, written with an entity": ('<a href="&#106;avascript:alert(1)">x</a>', "RS081"),
    "javascript: link": ("A [link](javascript:alert(1)).", "RS081"),
    "data: image": ("An ![image](data:text/html;base64,PHNjcmlwdD4=).", "RS081"),
    "file: image": ("An ![image](file:///etc/os-release).", "RS081"),
    "protocol-relative link": ("A [link](//example.org/x).", "RS081"),
    "raw HTML climbing out of the site": ('<a href="../../../../.git/config">config</a>', "RS081"),
    "raw HTML at the disk root": ('<a href="/etc/os-release">config</a>', "RS081"),
}


def page_with(line: str) -> str:
    """A rule page whose line 5 is ``line``, between allowed markup (a comment, ``<br>``, a link)."""
    return f"# Page\n\nText<br>more, <!-- a comment -->, [home](../index.md).\n\n{line}\n\nThe end.\n"


# --- a hostile mkdocs.yml (issue 29) -----------------------------------------------------------------

#: One line of each class of configuration that would run code, read the build machine or publish
#: outside files, appended to a small mkdocs.yml (at line ``CONFIG_LINE``), and its finding.
UNSAFE_CONFIG: dict[str, tuple[str, str]] = {
    "hooks": ("hooks: [evil.py]", "RS082"),
    "python name tag": ("x: !!python/name:os.system", "RS082"),
    "python object tag": ("x: !!python/object/apply:os.system [id]", "RS082"),
    "environment tag": ("site_author: !ENV GITHUB_TOKEN", "RS082"),
    "plugin not used": ("plugins: [search, macros]", "RS083"),
    "a local module as an extension": ("markdown_extensions: [evil]", "RS083"),
    "snippets": ("markdown_extensions: [{pymdownx.snippets: {base_path: [.]}}]", "RS083"),
    "theme not used": ("theme: {name: readthedocs}", "RS083"),
    "docs_dir outside": ("docs_dir: ..", "RS084"),
    "site_dir outside": ("site_dir: /tmp/elsewhere", "RS084"),
    "custom_dir outside": ("theme: {name: material, custom_dir: ../../}", "RS084"),
    "INHERIT outside": ("INHERIT: ../outside.yml", "RS084"),
    "watch outside": ("watch: [/etc]", "RS084"),
    "a script from elsewhere": ("extra_javascript: ['https://example.org/x.js']", "RS084"),
    "a style from the disk": ("extra_css: ['file:///etc/x.css']", "RS084"),
    "raw HTML in a value the theme prints": ("copyright: <script>alert(1)</script>", "RS080"),
    "analytics": ("extra: {analytics: {provider: google, property: G-X}}", "RS083"),
}
CONFIG_LINE = 3


def config_with(line: str) -> str:
    """A mkdocs.yml whose line ``CONFIG_LINE`` is ``line``."""
    return f"site_name: Hostile\nnav: [index.md]\n{line}\n"


def mentions(count: int) -> str:
    """One paragraph of ``count`` mentions of ``core/cover.md`` (40,000: 560 KB)."""
    return "# Mentions\n\n" + "core/cover.md " * count + "\n"


def nested_markers(count: int) -> str:
    """One line of ``count`` nested list markers (2,000: 4 KB), deeper than any parser should follow."""
    return "# Nested\n\n" + "- " * count + "x\n"


def many_profiles(models: int, profiles: int, targets: int) -> str:
    """``models`` models each carrying ``profiles`` two-dice weapons of different lock, damage and
    critical, at ``targets`` models of varied wounds and armour: inside the odds limits judged from the
    scenario, but its allocation rounds need more deals than the engine makes (3, 10, 3: refused after
    333,000 deals and 1.7 s of CPU when a deal counted only its models)."""
    lines = ["weapons:"]
    for k in range(profiles):
        traits = f"traits: [critical {4 + k % 3}]"
        profile = f"range: 24, dice: 2, lock: {2 + k % 4}, damage: {1 + k % 5}, {traits}"
        lines.append(f"  w{k}: {{{profile}}}")
    carried = ", ".join(f"w{k}" for k in range(profiles))
    lines += ["units:", "  - id: squad", "    side: blue", "    models:"]
    for i in range(models):
        lead = ", leader: true" if i == 0 else ""
        lines.append(f"      - {{id: a{i}, at: [0, {i * 1.5}], weapons: [{carried}]{lead}}}")
    lines += ["  - id: foes", "    side: red", "    models:"]
    for i in range(targets):
        lines.append(f"      - {{id: t{i}, at: [14, {i * 1.5}], wounds: {2 + i % 6}, armour: {i % 3}}}")
    lines.append("attack: {unit: squad, command: shoot, targets: [{unit: foes, mark: t0}]}")
    return "\n".join(lines) + "\n"
