"""``rulespy check``: links, anchors, file mentions, ownership and navigation of the rules repository.

Output ``PATH:LINE:COLUMN: CODE message`` (paths relative to the repository root) and a total line;
``--format github`` (workflow annotations) or ``--format json``. Exit 0 clean, 1 findings, 2 cannot run
(bad path; ``concepts.yml`` or ``mkdocs.yml`` that is not valid YAML or, for the registry, not in its
fixed format, or not a regular file of at most 1 MiB: ``FILE:LINE: message`` on standard error; a root
folder that cannot be listed). Paths and messages in text and github output have control characters,
line breaks and bidirectional overrides escaped (``\\n``, ``\\u202e``); JSON holds them exactly.
Nothing is ever written inside the repository; parsed files are cached by content in the user cache
directory (``--no-cache`` for a cold run).

What is checked: every ``*.md`` under the repository except in hidden folders, ``node_modules``,
``__pycache__`` and the top-level ``site``, ``build``, ``tests``, ``bench``, ``examples``
(``check: exclude`` in concepts.yml). Pages (for orphans) are those files except README.md,
CONTRIBUTING.md, CHANGELOG.md.
Links inside fenced or indented code, HTML comments and footnotes are not links. External URLs are
never fetched. Library use: ``check_tree(root, CheckOptions()) -> list[Finding]``; the link graph for
other tools is ``rulespy.check.graph.build_graph(root)``.

The finding codes (generated below from ``rulespy.check.findings.FINDING_CODES``; also in
``rulespy check --help``):

"""

from rulespy.check.findings import CODES, CheckError, Finding, code_table
from rulespy.check.runner import CheckOptions, Report, check_tree, run_check

__doc__ = (__doc__ or "") + code_table()

__all__ = ["CODES", "CheckError", "CheckOptions", "Finding", "Report", "check_tree", "run_check"]
