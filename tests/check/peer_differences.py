"""Where our checker deliberately disagrees with a peer on the peer corpus, and why (see test_peer_corpus.py).

Each entry: (direction, corpus file, line or, for the mkdocs cases, the link). ``extra``: we report a
broken link the peer accepts; ``missing``: the peer reports one we accept. Generated once from a run,
then sorted by hand into these reasons; a new disagreement fails the test until it is explained here.
"""

from __future__ import annotations

DIFFERENCES: dict[str, tuple[str, list[tuple[str, str, int | str]]]] = {
    "NOT_CHECKED_EXTERNAL_OR_HTML": (
        "URLs (GitHub blob URLs included) are never fetched or mapped to files, and .html files are "
        "not markdown pages we check",
        [
            ("missing", "lychee/fixtures/fragments/file.html", 20),
            ("missing", "lychee/fixtures/fragments/file.html", 24),
            ("missing", "lychee/fixtures/fragments/file1.md", 67),
            ("missing", "remark-validate-links/fixtures/images.md", 25),
            ("missing", "remark-validate-links/fixtures/images.md", 39),
            ("missing", "remark-validate-links/fixtures/line-links.md", 9),
        ],
    ),
    "ROOT": (
        "the checked folder is the repository root: /x is read from it and links out of it escape; "
        "the peers map / elsewhere (replacementPatterns) or skip absolute links (repository:false)",
        [
            ("missing", "markdown-link-check/local-file.md", 10),
            ("extra", "markdown-link-check/local-file.md", 5),
            ("extra", "markdown-link-check/local-file.md", 6),
            ("extra", "remark-validate-links/fixtures/github.md", 19),
            ("extra", "remark-validate-links/fixtures/github.md", 23),
        ],
    ),
    "HTML_NAME": (
        "name= on an <a> element is a fragment target in browsers, so #myname exists",
        [
            ("missing", "markdownlint-md051/link-fragments.md", 226),
        ],
    ),
    "ATTR_LIST": (
        "Python-Markdown attr_list accepts any {#id}: {#embedded space} gives id 'embedded', and "
        "{#hyphen--run} and {#UpperCase} are kept as written",
        [
            ("missing", "markdownlint-md051/link-fragments.md", 293),
            ("missing", "markdownlint-md051/link-fragments.md", 295),
            ("missing", "markdownlint-md051/link-fragments.md", 301),
        ],
    ),
    "FOOTNOTES": (
        "footnotes are not modelled (the site does not enable the footnotes extension)",
        [
            ("missing", "mkdocs/test_anchor_warning_for_footnote/docs/test/foo.md", "#fnref:2"),
        ],
    ),
    "SLUGS": (
        "we compute anchors as the site does, with Python-Markdown toc slugs (accents folded to "
        "ASCII, punctuation dropped, runs of dashes made one, duplicates suffixed _1), not "
        "GitHub's; a GitHub-style fragment is broken on our site",
        [
            ("extra", "lychee/fixtures/fragments/file1.md", 41),
            ("extra", "lychee/fixtures/fragments/file1.md", 53),
            ("extra", "lychee/fixtures/fragments/file1.md", 54),
            ("extra", "lychee/fixtures/fragments/file1.md", 55),
            ("extra", "lychee/fixtures/fragments/file2.md", 9),
            ("extra", "markdown-link-check/hash-links.md", 100),
            ("extra", "markdown-link-check/hash-links.md", 104),
            ("extra", "markdown-link-check/hash-links.md", 110),
            ("extra", "markdown-link-check/hash-links.md", 116),
            ("extra", "markdown-link-check/hash-links.md", 64),
            ("extra", "markdown-link-check/hash-links.md", 68),
            ("extra", "markdown-link-check/hash-links.md", 72),
            ("extra", "markdown-link-check/hash-links.md", 76),
            ("extra", "markdown-link-check/hash-links.md", 80),
            ("extra", "markdown-link-check/hash-links.md", 84),
            ("extra", "markdown-link-check/hash-links.md", 96),
            ("extra", "markdown-link-check/section-links.md", 26),
            ("extra", "markdownlint-md051/link-fragments-default-case.md", 17),
            ("extra", "markdownlint-md051/link-fragments-ignore-case.md", 17),
            ("extra", "markdownlint-md051/link-fragments-ignore-case.md", 19),
            ("extra", "markdownlint-md051/link-fragments.md", 101),
            ("extra", "markdownlint-md051/link-fragments.md", 103),
            ("extra", "markdownlint-md051/link-fragments.md", 17),
            ("extra", "markdownlint-md051/link-fragments.md", 19),
            ("extra", "markdownlint-md051/link-fragments.md", 21),
            ("extra", "markdownlint-md051/link-fragments.md", 23),
            ("extra", "markdownlint-md051/link-fragments.md", 25),
            ("extra", "markdownlint-md051/link-fragments.md", 260),
            ("extra", "markdownlint-md051/link-fragments.md", 264),
            ("extra", "markdownlint-md051/link-fragments.md", 33),
            ("extra", "markdownlint-md051/link-fragments.md", 35),
            ("extra", "markdownlint-md051/link-fragments.md", 37),
            ("extra", "markdownlint-md051/link-fragments.md", 39),
            ("extra", "markdownlint-md051/link-fragments.md", 41),
            ("extra", "markdownlint-md051/link-fragments.md", 45),
            ("extra", "markdownlint-md051/link-fragments.md", 47),
            ("extra", "markdownlint-md051/link-fragments.md", 49),
            ("extra", "markdownlint-md051/link-fragments.md", 51),
            ("extra", "markdownlint-md051/link-fragments.md", 53),
            ("extra", "markdownlint-md051/link-fragments.md", 55),
            ("extra", "markdownlint-md051/link-fragments.md", 65),
            ("extra", "markdownlint-md051/link-fragments.md", 93),
            ("extra", "markdownlint-md051/link-fragments.md", 95),
            ("extra", "markdownlint-md051/link-fragments.md", 97),
            ("extra", "markdownlint-md051/link-fragments.md", 99),
            ("extra", "remark-validate-links/fixtures/image-alts.md", 7),
            ("extra", "remark-validate-links/fixtures/image-alts.md", 8),
            ("extra", "remark-validate-links/fixtures/image-alts.md", 9),
        ],
    ),
    "CASE": (
        "anchors are case-sensitive, as in the browser and MkDocs; these peers compare heading "
        "fragments case-insensitively",
        [
            ("extra", "lychee/fixtures/fragments/file1.md", 49),
            ("extra", "markdownlint-md051/link-fragments-ignore-case.md", 13),
            ("extra", "markdownlint-md051/link-fragments-ignore-case.md", 7),
            ("extra", "remark-validate-links/fixtures/case-insensitive-headings.md", 3),
            ("extra", "remark-validate-links/fixtures/case-insensitive-headings.md", 7),
        ],
    ),
    "DISABLE_COMMENTS": (
        "we have no markdown-link-check-disable comments: every link in prose is checked",
        [
            ("extra", "markdown-link-check/local-file.md", 15),
            ("extra", "markdown-link-check/local-file.md", 18),
            ("extra", "markdown-link-check/local-file.md", 19),
            ("extra", "markdown-link-check/local-file.md", 21),
        ],
    ),
    "IGNORED_PATTERN": (
        "we have no ignored_pattern option: every fragment is checked",
        [
            ("extra", "markdownlint-md051/link-fragments-ignored-pattern-multiple.md", 7),
            ("extra", "markdownlint-md051/link-fragments-ignored-pattern-multiple.md", 9),
            ("extra", "markdownlint-md051/link-fragments-ignored-pattern-present.md", 7),
        ],
    ),
    "HOST": (
        "host-specific fixtures (Bitbucket/GitLab slugs) that upstream only runs with a repository "
        "URL; we check them like any file",
        [
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 19),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 25),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 27),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 3),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 31),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 33),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 39),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 41),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 47),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 49),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 5),
            ("extra", "remark-validate-links/fixtures/bitbucket.md", 7),
            ("extra", "remark-validate-links/fixtures/examples/bitbucket.md", 19),
            ("extra", "remark-validate-links/fixtures/examples/bitbucket.md", 23),
            ("extra", "remark-validate-links/fixtures/examples/bitbucket.md", 29),
            ("extra", "remark-validate-links/fixtures/examples/bitbucket.md", 3),
            ("extra", "remark-validate-links/fixtures/examples/bitbucket.md", 35),
            ("extra", "remark-validate-links/fixtures/examples/bitbucket.md", 5),
            ("extra", "remark-validate-links/fixtures/examples/gitlab.md", 19),
            ("extra", "remark-validate-links/fixtures/examples/gitlab.md", 29),
            ("extra", "remark-validate-links/fixtures/examples/gitlab.md", 35),
            ("extra", "remark-validate-links/fixtures/examples/gitlab.md", 5),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 19),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 25),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 27),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 39),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 41),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 47),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 49),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 5),
            ("extra", "remark-validate-links/fixtures/gitlab.md", 69),
        ],
    ),
    "FOLDER": (
        "a folder link lands on its index.md or README.md as MkDocs serves it, not on "
        "readme.markdown (remark's first readme.*)",
        [
            ("extra", "remark-validate-links/fixtures/folder.md", 13),
            ("extra", "remark-validate-links/fixtures/folder.md", 15),
        ],
    ),
}
