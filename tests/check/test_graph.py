"""The link graph other tools import: ``rulespy.check.graph.build_graph``."""

from __future__ import annotations

from pathlib import Path

from rulespy.book.links import resolve
from rulespy.check.graph import build_graph

from .helpers import write


def test_graph_lists_links_referrers_anchors_and_headings(tmp_path: Path) -> None:
    write(
        tmp_path,
        {
            "index.md": "# Home\n\n[damage](core/damage.md) and [shooting](core/shooting.md#target-limit)\n",
            "core/damage.md": "# Damage {#damage}\n\n## Target Limit {#target-limit}\n\n"
            "## Notes\n\n## Notes\n",
            "core/shooting.md": "# Shooting\n\nSee [the limit](damage.md#target-limit).\n\n"
            "```\n[x](nope.md)\n```\n",
        },
    )
    graph = build_graph(tmp_path, use_cache=False)
    assert graph.links_from("index.md") == {"core/damage.md", "core/shooting.md"}
    assert graph.links_from("core/shooting.md") == {"core/damage.md"}
    assert graph.referenced_by("core/damage.md") == ["core/shooting.md", "index.md"]
    assert graph.anchors("core/damage.md") == {"damage": 1, "target-limit": 3, "notes": 5, "notes_1": 7}
    heading = graph.headings("core/damage.md")[1]
    assert (heading.text, heading.level, heading.anchor, heading.line, heading.explicit) == (
        "Target Limit",
        2,
        "target-limit",
        3,
        True,
    )


def test_resolve_reads_absolute_links_from_the_root_and_spots_escapes() -> None:
    assert resolve("core/a.md", "/core/b.md#x").path == "core/b.md"
    assert resolve("core/a.md", "../../x.md").escapes
    assert resolve("core/a.md", "https://example.com/x.md").external
    assert resolve("core/a.md", "#frag").path == "core/a.md"
    assert resolve("core/a.md", "my%20file.md?q=1#f").path == "core/my file.md"
