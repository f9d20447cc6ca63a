"""Rule coverage and traceability: which code implements each rule, which examples prove it.

- ``rulespy.coverage.report.build_report(root)``: the report ``rulespy coverage`` prints.
- ``rulespy.check.drift.findings(root)``: the numbered steps of the rules against the engine's step
  lists, as checker findings (RS060).
- ``rulespy.coverage.diff``: the outcome of every scenario and worked example at a git revision and in the
  working tree (``rulespy diff REV``).
"""
