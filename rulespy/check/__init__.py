"""``rulespy check``: links, anchors, file mentions, ownership and navigation of the rules repository.

Output ``PATH:LINE:COLUMN: CODE message`` (paths relative to the repository root) and a total line;
``--format github`` (workflow annotations) or ``--format json``. Exit 0 clean, 1 findings, 2 cannot run
(bad path; ``concepts.yml`` or ``mkdocs.yml`` that is not valid YAML or, for the registry, not in its
fixed format: ``FILE:LINE: message`` on standard error). Nothing is ever written inside the repository;
parsed files are cached by content in the user cache directory (``--no-cache`` for a cold run).

=====  ==========================  ================================================================
code   name                        reported when
=====  ==========================  ================================================================
RS001  missing-file                a relative link, image or reference definition names a file that
                                   does not exist (case-exact, percent-decoded; ``/x`` is read from
                                   the repository root); also a file named in concepts.yml
RS002  link-escapes-repo           a link resolves outside the repository (``../../x``, ``/../x``)
RS003  missing-anchor              ``#anchor`` is not a heading id of the target page (toc slug or
                                   explicit ``{#id}``, case-sensitive) nor an HTML ``id``/``<a name>``;
                                   also for mentions ``core/x.md#a`` and concepts.yml anchors
RS004  missing-mention             a rule-file path written in prose or inline code
                                   (``core/damage.md``) does not exist (the rule: ``parse.py``)
RS010  two-owners                  concepts.yml gives one concept name or alias to two owners
RS011  no-owner                    a sentence "X is owned by F" names a concept no file owns, or a
                                   retired term's ``current`` is owned by no file
RS012  wrong-ownership-claim       "X is owned by F" (F a path or a link) disagrees with concepts.yml
RS013  restated-concept            a section of a non-owner file is headed with an owned concept's
                                   name or alias and does not link to the owner file
RS020  orphan-page                 a page is neither in the mkdocs.yml ``nav`` nor linked from another
                                   page (``index.md`` at the root is the home page, never an orphan)
RS021  nav-entry-to-nothing        a mkdocs.yml ``nav`` entry names no file
RS030  missing-required-reference  a file does not link to a file that concepts.yml ``requires``
RS031  retired-term                a retired term is used outside the section that explains it; the
                                   message names the current term
RS040  not-utf8                    a markdown (or cited Python) file is not UTF-8 (line and column of
                                   the first bad byte)
RS041  bad-front-matter            a leading ``---`` block is not a YAML mapping
RS042  file-too-large              a markdown file over the size limit (2 MiB; ``check: max_file_kb``)
RS043  too-complex                 a markdown file over a parsing budget, at the line of the costly
                                   block: reference definitions without blank lines between them, or
                                   a paragraph with too much markup (``rulespy/check/budget.py``)
RS050  rule-heading-without-id     a heading of level 2+ in a rule file (``core/``, ``sequences/``,
                                   ``timing/``, ``commands/``) has no explicit ``{#id}``
RS051  code-cites-missing-rule     a ``Rule: PATH#ANCHOR`` docstring line in ``rulespy/**/*.py`` cites
                                   a file or anchor that does not exist
RS060  step-drift                  a numbered step of ``sequences/shooting_sequence.md`` or a step of
                                   ``timing/firefight.md`` differs from the engine's step list
                                   (``rulespy.coverage.drift``; only for a tree that carries ``rulespy/``)
=====  ==========================  ================================================================

What is checked: every ``*.md`` under the repository except in hidden folders, ``node_modules``,
``__pycache__`` and the top-level ``site``, ``tests``, ``bench``, ``examples`` (``check: exclude`` in
concepts.yml). Pages (for orphans) are those files except README.md, CONTRIBUTING.md, CHANGELOG.md.
Links inside fenced or indented code, HTML comments and footnotes are not links. External URLs are
never fetched. Library use: ``check_tree(root, CheckOptions()) -> list[Finding]``; the link graph for
other tools is ``rulespy.check.graph.build_graph(root)``.
"""

from rulespy.check.findings import CODES, CheckError, Finding
from rulespy.check.runner import CheckOptions, Report, check_tree, run_check

__all__ = ["CODES", "CheckError", "CheckOptions", "Finding", "Report", "check_tree", "run_check"]
