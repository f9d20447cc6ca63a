"""MkDocs hook of the VoidSiege rules site (``hooks:`` in mkdocs.yml). The work is done in ``rulesite/``.

Why the rule files are not in docs_dir: players, the checker and the tests read the rules at the top
of the repository (index.md, core/, sequences/, timing/, commands/), and MkDocs refuses the
repository root as docs_dir. Instead of keeping copies in git, docs_dir (hooks/docs) holds only the
site's own assets, and ``on_files`` adds every rule file as a MkDocs ``File`` whose src_dir is the
repository root. MkDocs therefore reads, links and validates the real files, and reports problems
against their real paths. The glossary is a generated page (``File.generated``), never committed.

Build stages used:
- ``on_config``: register the tree processor that adds links (``rulesite.linker``);
- ``on_files``: add the rule files and the glossary; build the link graph once (rulespy's own);
- ``on_nav`` is not needed: the navigation is set in ``on_files`` from the folders;
- ``on_page_markdown``: replace worked-example fences by Example blocks with diagrams, add the
  "Defined on this page" and "Referenced by" blocks, and tell the tree processor which page it is on.
"""

from __future__ import annotations

import logging
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.exceptions import PluginError
from mkdocs.structure.files import File, Files
from mkdocs.structure.pages import Page

sys.path.insert(0, str(Path(__file__).resolve().parent))  # so `rulesite` imports during the whole build

from rulesite import diagram, examples, pages  # noqa: E402
from rulesite.linker import PageContext, RulesLinkerExtension  # noqa: E402
from rulesite.registry import Concept, Previews, RegistryError, load_concepts  # noqa: E402

from rulespy.check.graph import LinkGraph, build_graph  # noqa: E402
from rulespy.coverage.rules import rule_paths  # noqa: E402

log = logging.getLogger("mkdocs.hooks.voidsiege")


class _Site:
    """State of one build: the repository, its concepts and link graph, and the page being converted."""

    def __init__(self) -> None:
        self.root = Path(".")
        self.concepts: tuple[Concept, ...] = ()
        self.previews = Previews(self.root, ())
        self.graph: LinkGraph | None = None
        self.pages: frozenset[str] = frozenset()
        self.current: PageContext | None = None


SITE = _Site()


def on_config(config: MkDocsConfig) -> MkDocsConfig:
    SITE.root = Path(config.config_file_path).resolve().parent
    if not any(isinstance(ext, RulesLinkerExtension) for ext in config.markdown_extensions):
        config.markdown_extensions.append(RulesLinkerExtension(lambda: SITE.current))  # type: ignore[arg-type]
    return config


def _rule_sources(root: Path) -> list[str]:
    found = ["index.md"] if (root / "index.md").is_file() else []
    return found + sorted(rule_paths(root), key=lambda path: pages.RULE_FOLDERS.index(path.split("/")[0]))


def on_files(files: Files, config: MkDocsConfig) -> Files:
    root = SITE.root
    try:
        SITE.concepts = load_concepts(root / "concepts.yml")
    except RegistryError as exc:
        raise PluginError(str(exc)) from None
    SITE.previews = Previews(root, SITE.concepts)
    SITE.graph = build_graph(root)
    for path in _rule_sources(root):
        existing = files.get_file_from_path(path)
        if existing is not None:
            files.remove(existing)
        files.append(File(path, str(root), config.site_dir, config.use_directory_urls))
    for scenario in sorted((root / "examples" / "scenarios").glob("*.yaml")):
        # Rule pages link the scenario files they illustrate; publish them beside the pages.
        files.append(
            File(scenario.relative_to(root).as_posix(), str(root), config.site_dir, config.use_directory_urls)
        )
    SITE.pages = frozenset(f.src_uri for f in files.documentation_pages()) | {pages.GLOSSARY}
    files.append(
        File.generated(
            config, pages.GLOSSARY, content=pages.glossary(SITE.concepts, SITE.previews, SITE.pages)
        )
    )
    config.nav = pages.navigation(SITE.pages, SITE.graph)
    return files


def on_page_markdown(markdown: str, page: Page, config: MkDocsConfig, files: Files, **_: Any) -> str:
    path = page.file.src_uri
    context = PageContext(path, SITE.pages, SITE.concepts, SITE.previews.tooltip)
    SITE.current = context
    lines = markdown.split("\n")
    for example in reversed(examples.find_examples(markdown, SITE.root)):
        first_slot = len(context.diagrams)
        for offset, scenario in enumerate(example.scenarios):
            slot = first_slot + offset
            context.diagrams[slot] = diagram.render(scenario, f"vs-board-{slot}")
        fence = lines[example.start : example.end]
        lines[example.start : example.end] = examples.example_block(example, fence, first_slot)
    if pages.is_rule_file(path) and SITE.graph is not None:
        title_line = next((i for i, line in enumerate(lines) if line.startswith("# ")), -1)
        lines[title_line + 1 : title_line + 1] = ["", *pages.page_header(path, SITE.concepts)]
        lines += pages.page_footer(path, SITE.graph, SITE.pages)
    return "\n".join(lines)


def on_page_content(html: str, page: Page, **_: Any) -> str:
    SITE.current = None  # the tree processor only works on the page whose markdown was just prepared
    return html


def on_serve(server: Any, config: MkDocsConfig, builder: Any) -> Any:
    """`mkdocs serve` rebuilds when a rule file, the registry or the hook changes."""
    for name in ("index.md", "concepts.yml", *pages.RULE_FOLDERS, "hooks"):
        if (SITE.root / name).exists():
            server.watch(str(SITE.root / name))
    return server
