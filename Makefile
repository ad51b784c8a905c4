# Tea Tally. The two commands a newcomer needs: `make sim` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: venv sim test bench flash lint clean golden

# The venv, then Binaryen (npm, pinned by its lock file) and the host
# MicroPython VM made collector-correct with it (teatally_host.vmbuild;
# cached outside the repo).
$(STAMP): requirements-dev.txt pyproject.toml host_tools/binaryen/package-lock.json
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade "pip>=24"
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	@# (setuptools notes every editable install as "lenient": kept in a log, shown if it fails)
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e . > $(VENV)/install.log 2>&1 \
		|| (cat $(VENV)/install.log; false)
	npm ci --prefix host_tools/binaryen --no-audit --no-fund --loglevel=error
	$(BIN)/python -m teatally_host.vmbuild
	touch $(STAMP)

venv: $(STAMP)

sim: $(STAMP)
	$(BIN)/teatally sim $(SIMARGS)

test: $(STAMP)
	$(BIN)/python -m pytest $(TESTARGS)

# results to build/bench/; `make bench BENCHARGS=--update` rewrites bench/results.json and bench/README.md
bench: $(STAMP)
	$(BIN)/teatally bench $(BENCHARGS)

flash: $(STAMP)
	$(BIN)/teatally flash $(FLASHARGS)

golden: $(STAMP)
	$(BIN)/python -m pytest tests -k golden --update-golden

lint: $(STAMP)
	$(BIN)/ruff check .

clean:
	rm -rf $(VENV) build .pytest_cache .hypothesis
