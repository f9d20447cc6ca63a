"""``rulespy render``: the rule files, enriched, written as plain pages into a staging folder.

The generators (mkdocs-material and Zensical) build the site from ``build/pages/`` (``docs_dir`` in
``mkdocs.yml``) and take the navigation from ``build/nav.yml`` (``INHERIT`` in ``mkdocs.yml``); both
are written here and never committed. Nothing else runs at build time: every enrichment is already
in the pages as markdown, HTML and SVG.

Deterministic: the same inputs give byte-identical output (sorted walks, no time stamps, no
randomness). Incremental: each page's output is keyed by a digest of everything it depends on (its
own text, concepts.yml, the owners' paragraphs, the page list, the pages that link to it, the
scenario files and rulespy's own code); a page whose key did not change is not rendered again, and a
file whose bytes did not change is not rewritten.

Input errors (a file that is not UTF-8 text, a page of more than ``MAX_PAGE_HEADINGS`` headings, two
files publishing to one URL, a broken concepts.yml) are ``RenderError``s naming each file; warnings
(an example scenario the loader refused) name the page and line, and ``--strict`` turns them into a
failure.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import yaml

from rulespy.book import markdown as book_markdown
from rulespy.book.book import Book, Page, page_of, parse_page
from rulespy.book.digest import code_digest
from rulespy.check import outputs
from rulespy.check.atomic import WriteError, locked_folder, write_atomic
from rulespy.check.files import Tree, same_url
from rulespy.check.findings import CheckError
from rulespy.check.graph import LinkGraph
from rulespy.check.publish import publishable
from rulespy.editions.page import PAGE as CHANGES
from rulespy.editions.page import TITLE as CHANGES_TITLE
from rulespy.editions.page import Changes
from rulespy.editions.page import changes as edition_changes
from rulespy.editions.site import versions_json
from rulespy.editions.versions import ReleaseError, checked_out, is_top
from rulespy.errors import BookError

from . import board, currency, examples, judge, languages, pages, search
from .linker import PageContext, link_markdown, link_page
from .registry import Concept, Previews

#: The Judge and What changed pages at the end of each edition's navigation, by language (None: English;
#: each edition's What changed page is generated in its language: ``rulespy.editions.page``).
EXTRA_TITLES = {
    None: (("Judge", judge.PAGE), (CHANGES_TITLE, CHANGES)),
    "ru": (("Судья", judge.PAGE), ("Что изменилось", CHANGES)),
}

OUT = Path("build") / "pages"
NAV = Path("build") / "nav.yml"
MANIFEST = "render-manifest.json"  # beside the staging folder, so that no generator publishes it
ASSETS = Path(__file__).resolve().parent / "assets"
SCENARIOS = Path("examples") / "scenarios"
PDF_NAME = "voidsiege-rules.pdf"
MAX_PAGE_BYTES = 2 << 20
#: Headings a page may have. Material's search plugin finds each section's heading by walking the
#: page's whole table of contents, so its time grows with the square of a page's headings (10,000
#: headings: 5 s); at this limit it is a few hundredths of a second. The largest rule page has 13.
MAX_PAGE_HEADINGS = 1_000


class RenderError(BookError):
    """Input the renderer cannot publish; ``problems`` are ``path:line: message`` lines."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass
class Report:
    written: list[str] = field(default_factory=list)
    rendered: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    changes: Changes | None = None  # the What changed page staged (``render_all`` hands it on)
    book: Book | None = field(default=None, repr=False)  # the edition this render read (output only)


def publishable_sources(
    root: Path, rule_dirs: Sequence[str], tree: Tree | None = None
) -> tuple[list[str], list[str]]:
    """The rule files to publish (``index.md`` and the other pages at the root, then each rule folder's
    ``*.md``, sorted) and a warning
    for each file or folder left out because it is a symlink resolving outside the repository.

    The list is the checker's own walk (``rulespy.check.publish.publishable``): folder symlinks are never
    followed out, file symlinks are read only when they resolve inside (RS043 in ``rulespy check``).
    """
    listed = publishable(root, tree=tree)

    def published(path: str) -> bool:
        return "/" not in path or path.split("/", 1)[0] in rule_dirs

    # the pages at the root: the home page first, then the others (questions, the page for rule writers)
    found = sorted((p for p in listed.pages if "/" not in p), key=lambda p: (p != "index.md", p))
    for folder in rule_dirs:
        found += sorted(path for path in listed.pages if path.startswith(folder + "/"))
    skipped = [
        f"{path}: a symlink to {target!r}, outside the repository: not published"
        for path, target in listed.refused
        if published(path) or path in rule_dirs
    ]
    return found, sorted(skipped)


def _one_page_per_url(sources: list[str]) -> list[str]:
    """A problem for each page that would publish to a URL an earlier page takes (the checker's RS022,
    ``rulespy.check.files.same_url``): one would silently replace the other."""
    return [
        f"{page}:1: publishes to the same URL /{url} as {earlier}: rename one of them"
        for page, url, earlier in same_url(sources)
    ]


def read_text(root: Path, path: str) -> str:
    """A rule file's text; ``RenderError`` naming the file when it is not UTF-8 text."""
    try:
        with open(root / path, "rb") as handle:
            data = handle.read(MAX_PAGE_BYTES + 1)
    except OSError as error:
        raise RenderError([f"{path}:1: cannot read: {error.strerror or error}"]) from None
    if len(data) > MAX_PAGE_BYTES:
        raise RenderError([f"{path}:1: larger than {MAX_PAGE_BYTES >> 20} MB: not published"])
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        kind = "UTF-16" if data[:2] in (b"\xff\xfe", b"\xfe\xff") else "Latin-1"
        raise RenderError([f"{path}:{line}: not UTF-8 text ({kind} or binary?): not published"]) from None
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        raise RenderError(
            [f"{path}:{line}: holds NUL bytes (UTF-16 without a BOM, or binary): not published"]
        )
    text = text.replace("\r\n", "\n").removeprefix("\ufeff")
    _check_headings(path, text)
    return text


#: What the checker finds in a page that makes it unpublishable: raw HTML outside the allowed set and
#: unsafe addresses (RS080, RS081; ``rulespy/check/markup.py``), nesting deeper than the parser reads
#: (RS006: the strict mkdocs build ends in a recursion error there), markup over the parse budget, and
#: an example whose scenario the site cannot follow (RS085: its board would show another scenario).
REFUSED_CODES = frozenset({"RS006", "RS044", "RS080", "RS081", "RS085"})


def refused_markup(path: str, text: str | Page) -> list[str]:
    """A ``path:line: message`` problem for each thing in page ``text`` (or the book's ``Page``) that must
    never be published, found by the checker's own parser (``rulespy check`` reports the same, with the
    same lines), so that a render run without the check publishes nothing of it either."""
    document = parse_page(path, text)[0] if isinstance(text, str) else text.document
    return [
        f"{path}:{line}: {code} {message}: not published"
        for line, _, code, message in sorted((*document.problems, *document.unsafe))
        if code in REFUSED_CODES
    ]


def _check_headings(path: str, text: str) -> None:
    """``RenderError`` at the first heading past ``MAX_PAGE_HEADINGS``; the block parse only (linear,
    and it knows fences and setext headings), before any generator sees the page."""
    marked = sum(1 for line in text.split("\n") if "#" in line or "=" in line or "-" in line)
    if marked <= MAX_PAGE_HEADINGS:
        return  # each heading is a line holding one of these marks (its `#` or its setext underline)
    blocks = book_markdown.parser(inline=False)
    headings = [t for t in book_markdown.parse(blocks, text) if t.type == "heading_open"]
    if len(headings) > MAX_PAGE_HEADINGS:
        first_line = (headings[MAX_PAGE_HEADINGS].map or [0])[0] + 1
        raise RenderError(
            [
                f"{path}:{first_line}: {len(headings):,} headings, more than the {MAX_PAGE_HEADINGS:,} "
                "a page may have (the site's search index takes time that grows with their square): "
                "not published; split the page"
            ]
        )


def _digest(*parts: str) -> str:
    h = hashlib.sha256()
    for part in parts:
        h.update(part.encode("utf-8", "surrogatepass") + b"\0")
    return h.hexdigest()


def render_page(
    root: Path,
    path: str,
    text: str,
    site_pages: frozenset[str],
    concepts: tuple[Concept, ...],
    previews: Previews,
    graph: LinkGraph,
    warnings: list[str],
    language: str | None = None,
    book_page: Page | None = None,
    *,
    rule_dirs: Sequence[str],
    published: Sequence[str] = (),
) -> str:
    """One rule page as the generators build it: examples as Example blocks with boards, mentions and
    concepts linked, and (on rule files) the owned concepts under the title and "Referenced by" below.
    ``text`` is the book's page ``book_page`` (parsed when not given); a translated page's links to the
    ``published`` scenario files are pointed at the translation's copies (``languages.scenario_links``)."""
    if book_page is None or book_page.text != text:
        book_page = page_of(path, path, text)
    # on the file as written: warnings name its lines
    found = examples.find_examples(text, root, path, book_page.examples)
    rule_file = pages.is_rule_file(path, rule_dirs)
    after = next((i for i, line in enumerate(text.split("\n")) if line.startswith("# ")), -1) + 1
    # linked from the book's tokens, the header's links counted as read where it goes; linking edits
    # inside lines only, so line numbers hold in its result
    context = PageContext(path, site_pages, concepts, previews.tooltip, tuple(rule_dirs))
    shown = (after, [href for _, href in pages.header_links(path, concepts)] if rule_file else [])
    linked = link_page(book_page, context, shown)
    if language:
        linked = languages.scenario_links(linked, path, language, published)
    lines = linked.split("\n")
    if not rule_file:
        after, shift = len(lines), 0
    else:  # the header under the title, "Referenced by" below (links only: nothing in them to link)
        header = ["", *pages.page_header(path, concepts, language)]
        lines[after:after] = header
        shift = len(header)
        lines += pages.page_footer(path, graph, site_pages, language)
    for number, example in reversed(list(enumerate(found))):
        warnings.extend(example.warnings)
        if not example.scenarios:
            continue
        start, end = (
            (example.start + shift, example.end + shift)
            if example.start >= after
            else (example.start, example.end)
        )
        key = board.key(path, number)
        lines[start:end] = examples.example_block(example, lines[start:end], key, language)
    if path == "index.md":
        lines += ["", pages.rulebook_link(language)]
    return "\n".join(lines).rstrip("\n") + "\n"


def _write(path: Path, data: bytes) -> bool:
    """Write ``data`` unless the file already holds exactly it; True when written."""
    try:
        if path.read_bytes() == data:
            return False
    except OSError:
        pass
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        write_atomic(path, data)  # whole or not at all, nothing left behind
    except WriteError as error:
        raise RenderError([f"{path}: cannot write: {error.reason}"]) from None
    except OSError as error:
        raise RenderError([f"{path.parent}: cannot make the folder: {error.strerror or error}"]) from None
    return True


def render(
    root: Path,
    out: Path | None = None,
    nav_file: Path | None = None,
    language: str | None = None,
    unreleased: bool = True,
    changes: Changes | None = None,
    book: Book | None = None,
) -> Report:
    """Render the repository at ``root`` into ``out`` (default ``root/build/pages``) and its navigation
    into ``nav_file`` (default ``root/build/nav.yml``). Raises ``RenderError`` for input it cannot publish.

    With ``language`` (``ru``): the translation in ``root/ru/`` as a site of its own, into
    ``root/build/ru/pages`` and ``root/build/ru/nav.yml`` by default (``rulespy/render/languages.py``).
    Without: the English site, with a switcher to each page's translation where one exists, and the
    "What changed" page (``rulespy.editions.page``) last; ``unreleased=False`` leaves out its entry of
    unreleased changes, which takes seconds. ``changes``: that page as ``rulespy.editions.page.changes``
    made it already (``render_all`` hands the English render's to each translation); ``book``: the
    edition ``language``, read already (``render_all`` reads each translation with the English book's
    ``concepts.yml``)."""
    root = Path(root)
    edition = root / language if language else root
    out = Path(out) if out is not None else (root / "build" / language / "pages" if language else root / OUT)
    if nav_file is None:
        nav_file = root / "build" / language / "nav.yml" if language else root / NAV
    nav_file = Path(nav_file)
    if not edition.is_dir():  # before the lock below makes any folder
        raise CheckError(f"{edition}: no such folder")
    for folder in (out, nav_file.parent):  # before anything is written or deleted there
        refused = outputs.refusal(root, folder, "rulespy render")
        if refused is not None:
            raise RenderError([refused])
    try:  # one render at a time writes a staging folder (two would remove each other's files)
        with locked_folder(out.parent):
            report = Report(changes=changes)
            return _render(root, edition, out, nav_file, language, unreleased, report, book)
    except WriteError as error:
        raise RenderError([f"{error.path}: cannot write: {error.reason}"]) from None


def _render(
    root: Path,
    edition: Path,
    out: Path,
    nav_file: Path,
    language: str | None,
    unreleased: bool,
    report: Report,
    book: Book | None,
) -> Report:
    """``render``, with the staging folder's lock held; ``book`` the edition read already, if it was."""
    changes = report.changes
    unread: list[str] = []
    try:  # the edition, read once: its tree, concepts.yml, each page parsed once (``rulespy.book``)
        book = book or Book.open(root, language)
        concepts = languages.localized(book.concepts, language)
    except CheckError as error:  # concepts.yml cannot be read
        unread.append(f"{root / 'concepts.yml'}:{error.line or 1}: {error.message}")
        book, concepts = Book.without_registry(root, language), ()
    report.book = book
    sources, skipped = publishable_sources(edition, book.rule_dirs, book.tree)
    report.warnings += skipped
    problems = _one_page_per_url(sources)
    texts: dict[str, str] = {}
    for path in sources:
        try:
            texts[path] = read_text(edition, path)
        except RenderError as error:
            problems += error.problems
        else:
            read = book.page(path, texts[path])
            problems += refused_markup(book.source(path), read) if read else []
    problems += unread
    # the scenario files rule pages link to, published beside them (never one resolving outside), each
    # read by the scenario loader first: one it refuses (an alias bomb, a syntax error) is not published
    found = sorted((root / SCENARIOS).glob("*.yaml")) if (root / SCENARIOS).is_dir() else []
    scenario_files = [p for p in found if p.is_file() and _inside(root, p)]
    problems += judge.refused(root, [p.relative_to(root).as_posix() for p in scenario_files])
    if problems:
        raise RenderError(problems)
    # a translation's links to them are pointed at its own copies as each page is rendered
    published = [p.relative_to(root).as_posix() for p in sorted((root / SCENARIOS).glob("*.yaml"))]
    previews = Previews({path: read for path in texts if (read := book.page(path)) is not None}, concepts)
    try:  # the releases: a tag that disagrees with CHANGELOG.md, or a shallow clone, stops the render
        if changes is None:  # every edition lists them; English pages carry the marks
            changes = report.changes = edition_changes(root, unreleased, book.english)
        versions = versions_json(root)
    except ReleaseError as error:
        raise RenderError(str(error).splitlines()) from None
    built = currency.Built(*checked_out(root)) if is_top(root) else currency.Built(None, False)

    def stamped(path: str, page: str) -> str:
        return currency.stamp(page, currency.line(changes, built, path, language))

    graph = book.graph
    site_pages = frozenset(texts) | {pages.GLOSSARY}
    shared = _digest(
        code_digest(p for p in ASSETS.iterdir() if p.is_file()),
        (root / "concepts.yml").read_text(encoding="utf-8") if (root / "concepts.yml").is_file() else "",
        previews.digest(),
        "\n".join(sorted(site_pages)),
        *(p.name + "\n" + p.read_text(encoding="utf-8", errors="replace") for p in scenario_files),
    )
    manifest_path = out.parent / f"{out.name}-{MANIFEST}"
    try:
        manifest: dict[str, dict[str, object]] = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        manifest = {}
    fresh: dict[str, dict[str, object]] = {}
    produced: set[str] = set()
    others = [other for other in (None, *languages.LANGUAGES) if other != language]
    for path in sources:
        referencing = [(p, pages.title_of(graph, p)) for p in graph.referenced_by(path)]
        twins = [o for o in others if o is None or languages.has_twin(root, path, o)]
        english = _english_text(root, path) if language else None
        book_page = book.page(path)
        marks = changes.key(path) if language is None else ""
        key = _digest(shared, path, texts[path], json.dumps(referencing), repr(twins), english or "", marks)
        target = out / path
        old = manifest.get(path, {})
        if old.get("key") == key and target.is_file():
            fresh[path] = old
            kept = old.get("warnings")
            report.warnings += [str(w) for w in kept] if isinstance(kept, list) else []
            # the rendering is kept; the edition line (a new commit, a new count) is set anew
            if _write(target, stamped(path, target.read_text(encoding="utf-8")).encode("utf-8")):
                report.written.append(path)
        else:
            page_warnings: list[str] = []
            page = render_page(
                edition,
                path,
                texts[path],
                site_pages,
                concepts,
                previews,
                graph,
                page_warnings,
                language,
                book_page,
                rule_dirs=book.rule_dirs,
                published=published,
            )
            page = search.with_search_words(page, path, concepts, language)
            if language:
                twin = page_of(path, path, english) if english is not None else None
                page = languages.stale_notices(page, path, book_page, twin, language)
            if language is None:
                page = changes.mark(path, page)
            page = stamped(path, languages.with_switchers(page, path, language, twins))
            report.rendered.append(path)
            report.warnings += page_warnings
            fresh[path] = {"key": key, "warnings": page_warnings}
            if _write(target, page.encode("utf-8")):
                report.written.append(path)
        produced.add(path)
    glossary = pages.glossary(concepts, previews, site_pages, language)
    editions = [o for o in others if o is None or (root / o / "index.md").is_file()]
    glossary = languages.with_switchers(glossary, pages.GLOSSARY, language, editions)
    glossary = link_markdown(
        glossary, PageContext(pages.GLOSSARY, site_pages, concepts, previews.tooltip, book.rule_dirs)
    )
    extra = {pages.GLOSSARY: stamped(pages.GLOSSARY, glossary).encode("utf-8")}
    # every edition's site has the What changed page, the versions and the rules judge (each in its own
    # language, the judge sharing the English site's runtime), so that each generator finds every page
    # its navigation names
    what_changed = changes.text_in(language)
    if language:  # a switcher to the English page, carrying the words of the version selector
        what_changed = languages.with_switchers(what_changed, CHANGES, language, [None])
    extra.update({CHANGES: stamped(CHANGES, what_changed).encode("utf-8"), "versions.json": versions})
    published = [p.relative_to(root).as_posix() for p in scenario_files]
    judge_page = judge.page(root, published, language)
    if language:  # a switcher to the English judge, carrying the words of the version selector
        judge_page = languages.with_switchers(judge_page, judge.PAGE, language, [None])
    extra[judge.PAGE] = stamped(judge.PAGE, judge_page).encode("utf-8")
    titles = judge.rule_titles(graph, site_pages, book.rule_dirs)
    extra[judge.WORDS_SCRIPT] = judge.words_script(language, titles, judge.download_size(), book.rule_dirs)
    extra.update({f"assets/{p.name}": p.read_bytes() for p in sorted(ASSETS.iterdir()) if p.is_file()})
    extra.update({p.relative_to(root).as_posix(): p.read_bytes() for p in scenario_files})
    for rel, data in extra.items():
        if _write(out / rel, data):
            report.written.append(rel)
        produced.add(rel)
    for current, _dirs, files in sorted(os.walk(out)):
        for name in sorted(files):
            rel = (Path(current) / name).relative_to(out).as_posix()
            if rel not in produced and rel not in judge.RUNTIME_PATHS:  # `make serve` put the runtime there
                try:
                    (Path(current) / name).unlink()
                except OSError as error:
                    raise RenderError([f"{out / rel}: cannot remove: {error.strerror or error}"]) from None
                report.removed.append(rel)
    _write(manifest_path, json.dumps(fresh, indent=1, sort_keys=True).encode("utf-8"))
    nav_entries = pages.navigation(site_pages, graph, language, book.rule_dirs)
    nav = {"nav": [*nav_entries, *({title: page} for title, page in EXTRA_TITLES[language])]}
    header = "# Written by `rulespy render` (mkdocs.yml INHERITs it): the site's navigation. Never edit.\n"
    if _write(nav_file, (header + yaml.safe_dump(nav, sort_keys=False, allow_unicode=True)).encode("utf-8")):
        report.written.append(nav_file.name)
    return report


def _english_text(root: Path, path: str) -> str | None:
    """The English twin of a translated page (its stale sections are found against it)."""
    try:
        return read_text(root, path)
    except RenderError:
        return None


def render_all(root: Path) -> Report:
    """The English site and every translation there is (a ``ru/`` folder with pages), one report. The
    repository is read once: the English render's book (its walk, ``concepts.yml``, its parsed pages)
    is the one What changed compares with the last release and the one each translation is read with
    (``Book.translation``: only its folder walked)."""
    report = render(root)
    for language in languages.LANGUAGES:
        if (Path(root) / language / "index.md").is_file():
            book = report.book.translation(language) if report.book is not None else None
            done = render(root, language=language, changes=report.changes, book=book)
            for name in ("written", "rendered", "removed", "warnings"):
                getattr(report, name).extend(f"{language}/{item}" for item in getattr(done, name))
        elif (Path(root) / "build" / language).is_dir():  # the translation is gone: so is its site
            refused = outputs.refusal(root, Path(root) / "build" / language, "rulespy render")
            if refused is not None:
                raise RenderError([refused])
            shutil.rmtree(Path(root) / "build" / language)
            report.removed.append(f"{language}/")
    return report


def _inside(root: Path, path: Path) -> bool:
    return path.resolve().is_relative_to(root.resolve())
