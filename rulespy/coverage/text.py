"""The coverage report as text: one row a rule, then what fails, then the totals."""

from __future__ import annotations

from rulespy.coverage.report import Entry, Report


def _mark(entry: Entry) -> str:
    if entry.concept is None:
        return ""
    if entry.terminology:
        return "terminology"
    return "concept" if entry.owner_examples() else "concept, NO EXAMPLE"


def render(report: Report, verbose: bool = False) -> str:
    rows = [("RULE", "FUNCS", "EXAMPLES", "TESTS", "")]
    details: dict[int, list[str]] = {}
    for entry in report.entries:
        ref = entry.ref if entry.heading else f"{entry.ref} (no heading)"
        rows.append(
            (ref, str(len(entry.functions)), str(len(entry.examples)), str(len(entry.tests)), _mark(entry))
        )
        if verbose:
            lines = [f"    implements: {f}" for f in entry.functions]
            lines += [
                f"    example:    {e} ({', '.join(sorted(v))})" for e, v in sorted(entry.examples.items())
            ]
            lines += [f"    test:       {t}" for t in entry.tests]
            details[len(rows) - 1] = lines
    width = max(len(r[0]) for r in rows)
    out = []
    for index, (ref, funcs, examples, tests, mark) in enumerate(rows):
        out.append(f"{ref:<{width}}  {funcs:>5}  {examples:>8}  {tests:>5}  {mark}".rstrip())
        out.extend(details.get(index, []))
    failing = [(n, r) for n, r in report.example_runs.items() if r.get("error")]
    if failing:
        out.append("")
        out.append("examples that failed when run (pytest reports them too):")
        out.extend(f"  {name}: {run['error']}" for name, run in failing)
    problems = [
        f"{e.path}:{e.line}: {e.ref} ({e.concept}) has no executed example in {e.path}"
        for e in report.uncovered()
    ]
    problems += [f"{path}:{line}: {message}" for path, line, message in report.problems]
    problems += [str(f) for f in report.drift]
    if problems:
        out.append("")
        out.extend(problems)
    t = report.totals()
    out.append("")
    percent = 100 * t["concepts_with_owner_example"] // max(t["concepts_with_mechanic"], 1)
    out.append(
        f"{t['concepts_with_owner_example']}/{t['concepts_with_mechanic']} concepts with a mechanic have an "
        f"executed example in their owner file ({percent}%); {t['terminology_concepts']} terminology "
        "concepts need none"
    )
    out.append(
        f"{t['sections']} rule sections: {t['sections_with_functions']} cited by code, "
        f"{t['sections_with_examples']} exercised by examples, {t['sections_with_tests']} named by tests; "
        f"{t['examples']} examples"
        + ("" if report.ran else " (not run: --no-run)")
        + f", {t['examples_failing']} failing"
    )
    out.append(f"{t['bad_citations']} citations of missing rules, {t['drift_findings']} step drift findings")
    return "\n".join(out)
