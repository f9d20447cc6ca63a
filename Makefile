# Two entry points (see README.md): `make site` is the main job, `make test` the whole test suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
export NO_MKDOCS_2_WARNING := 1

.PHONY: site serve test lint clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

# Check the rules, build the site, say where it is.
site: $(STAMP)
	$(BIN)/rulespy check .
	$(BIN)/mkdocs build --strict
	@echo "The site is built in $(CURDIR)/site/index.html; 'make serve' serves it on http://127.0.0.1:8000/"

serve: site
	$(BIN)/mkdocs serve --dev-addr 127.0.0.1:8000

lint: $(STAMP)
	$(BIN)/ruff check rulespy tests bench hooks
	$(BIN)/mypy

# The whole test suite: linters, type checker, unit tests, every worked example, the browser test,
# the checker, rule coverage and the strict site build.
test: lint
	$(BIN)/pytest
	$(BIN)/rulespy check .
	$(BIN)/rulespy coverage .
	$(BIN)/mkdocs build --strict --site-dir $(CURDIR)/site

clean:
	rm -rf site $(VENV)
