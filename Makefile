# Two entry points (see README.md): `make site` is the main job, `make test` the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

# The generator that builds the site: mkdocs (mkdocs-material, the default) or zensical.
GENERATOR ?= mkdocs
SITE_DIR ?= $(CURDIR)/site

.PHONY: site pages serve test test-fast test-thorough lint clean mutants messages messages-check

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# The staged pages both generators build from (build/pages/, build/nav.yml).
pages: $(STAMP)
	$(BIN)/rulespy render . --strict

# Check the rules, render them, build the site (--strict), print the rulebook PDF, build each released
# edition (a CHANGELOG.md release, no tag needed) into $(SITE_DIR)/vX.Y/ (rulespy.editions.site), say
# where it is. SITE_URL=https://... sets the published address (README "The site"; publish.yml sets it).
site: $(STAMP)
	$(BIN)/rulespy check . --warnings-ok
	$(BIN)/rulespy render . --strict
	$(BIN)/python -m rulespy.render.build $(GENERATOR) --site-dir $(SITE_DIR) --pdf
	$(BIN)/python -m rulespy.editions.site $(GENERATOR) --site-dir $(SITE_DIR)
	@if [ -f "$(SITE_DIR)/voidsiege-rules.pdf" ]; then book="the rulebook in $(SITE_DIR)/voidsiege-rules.pdf"; \
	else book="the rulebook PDF skipped (it needs Chromium: apt-get install chromium)"; fi; \
	echo "The site is built in $(SITE_DIR)/index.html (by $(GENERATOR); a translation in $(SITE_DIR)/ru/), $$book; 'make serve' serves it on http://127.0.0.1:8000/"

# Serve the site with live reload: a rule file, concepts.yml or a scenario that changes is re-rendered.
# Zensical by default here: it rebuilds only the changed page (about a second from edit to reload),
# where mkdocs serve rebuilds the whole site (`make serve SERVE_GENERATOR=mkdocs`).
SERVE_GENERATOR ?= zensical
serve: $(STAMP)
	$(BIN)/python -m rulespy.render.serve $(SERVE_GENERATOR)

# The engine's message catalogue (rulespy.i18n): extract every _()/n_()/N_() message with Babel (babel.cfg),
# add the rule sections, write rulespy/locale/rulespy.pot and merge it into each .po; then translate the new
# entries (empty msgstr) and run `make messages-check` (rulespy check's RS090 and tests/test_i18n.py too).
messages: $(STAMP)
	$(BIN)/python -m rulespy.book.messages

messages-check: $(STAMP)
	$(BIN)/python -m rulespy.i18n check

# ruff (0.1 s) and mypy, before pytest so that a lint error stops `make test` in seconds (beside pytest's
# two workers on two cores it would save no CPU and little wall time: bench/README.md "The test suite").
# mypy is incremental (.mypy_cache/, gitignored): about 4 s of CPU from nothing, 0.2 s once the cache is
# warm. CI checks a clean clone and keeps no cache between runs, so there it writes none
# (--cache-dir=/dev/null: 10% less CPU than writing a cache nobody reads).
MYPY_CACHE := $(if $(filter true,$(CI)),--cache-dir=/dev/null,)
lint: $(STAMP)
	$(BIN)/ruff check rulespy tests bench
	$(BIN)/mypy $(MYPY_CACHE)

# The whole test suite: linters, type checker, unit tests, every worked example, the browser tests
# (against both generators, and both languages), the checker and rule coverage. The strict render and
# the strict site build of both generators are made once inside pytest (tests/site/conftest.py, proved
# by tests/site/test_build.py), where the browser tests look at them, so they are not run again here.
# pytest runs in TEST_WORKERS pytest-xdist workers (0: in one process), each test module in one worker
# (--dist loadfile: a module's fixtures are made once), the slowest modules first (tests/conftest.py);
# the render, the rulebooks and each generator's build are made once for all workers (a lock and a
# stamp in build/, tests/site/conftest.py).
# Test copies of the repository and each edition's clone share the repository's npm installs (Pyodide,
# Workbox: hard-linked, tests/installs.py and rulespy.editions.site.share_installs) instead of npm ci
# per tree. No test passes or fails on a measured duration: pytest-timeout (pyproject.toml) is only a
# hang guard, and speed is measured in bench/ (bench/README.md "The test suite" has the figures).
TEST_WORKERS ?= 2
test: lint
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder
	$(BIN)/rulespy check . --warnings-ok
	$(BIN)/rulespy coverage .

# Everything but the site builds and the browser (tests/site, tests/editions): the engine, the checker,
# coverage, the command line, hostile inputs and every worked example, in a few minutes of CPU. One
# part alone: `.venv/bin/pytest tests/core` (or any folder, file or `file::test`), or `make test-fast
# TEST_ARGS='-k odds'`. `make test` runs all of it before a push, as CI does.
TEST_ARGS ?=
test-fast: $(STAMP)
	$(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --ignore=tests/site --ignore=tests/editions $(TEST_ARGS)

# The tests that draw examples or seeded trials, under Hypothesis's thorough profile (tests/hypothesis_profiles.py):
# random examples and the larger counts the suite ran before issue 25 (bench/README.md "The test suite").
THOROUGH := tests/scenario/test_fuzz_scenarios.py tests/properties tests/check/test_parse_shortcut.py \
	tests/odds/test_simulation.py tests/odds/test_wounds.py tests/odds/test_joint.py
test-thorough: $(STAMP)
	HYPOTHESIS_PROFILE=thorough $(BIN)/pytest -n $(TEST_WORKERS) --dist loadfile $(THOROUGH)

# Mutation testing of the engine against the rulebook (rulespy/coverage/mutation.py), not part of make test:
# mutmut changes rulespy/core, sequences, timing, commands, scenario and odds one edit at a time, and only the
# worked examples and the scenario files with expect: may notice. Incremental (results kept in mutants/, only
# changed functions and, after an example changed, the mutants it may now kill are tested again), in
# MUTANTS_JOBS children. It fails when the killed share falls below MUTANTS_FLOOR, the figure recorded in
# bench/README.md; `rulespy coverage --mutants` shows the survivors per rule section.
MUTANTS_JOBS ?= 2
MUTANTS_FLOOR ?= 96
MUTANTS_STAMP := $(VENV)/.installed-mutants
$(MUTANTS_STAMP): $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,mutants]'
	touch $(MUTANTS_STAMP)

mutants: $(MUTANTS_STAMP)
	$(BIN)/python -m rulespy.coverage.mutation --jobs $(MUTANTS_JOBS) --fail-under $(MUTANTS_FLOOR)

clean:
	rm -rf site build .cache mutants $(VENV)
