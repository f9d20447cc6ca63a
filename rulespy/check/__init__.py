"""``rulespy check``: links, anchors, file mentions, ownership and navigation of the rules repository.

(table below)
"""

from rulespy.check.findings import CODES, CheckError, Finding
from rulespy.check.runner import CheckOptions, Report, check_tree, run_check

__all__ = ["CODES", "CheckError", "CheckOptions", "Finding", "Report", "check_tree", "run_check"]
