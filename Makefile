# make run   : set up, build the graph from corpus/, serve it on http://127.0.0.1:5000
# make test  : set up (Python and Debian packages), run the test suite
# make check : lint, then the quick tier: every test but those of server processes, the browser, the benchmarks and the heavy ones
# make bench : set up, run the benchmarks, write benchmarks/RESULTS.md
VENV ?= .venv
PY := $(VENV)/bin/python
KG := $(VENV)/bin/kg
HOST ?= 127.0.0.1
PORT ?= 5000

.PHONY: setup system-deps run build lint check test bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: setup.cfg pyproject.toml
	python3 -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip uninstall -q -y kg 2>/dev/null || true  # the distribution's former name
	$(PY) -m pip install -q -e '.[test,bench]'
	touch $@

system-deps:
	bash scripts/install-system-deps.sh

build: setup
	$(KG) build

run: setup
	$(KG) build
	$(KG) serve --host $(HOST) --port $(PORT)

lint: setup
	$(VENV)/bin/ruff check .

test: setup system-deps lint
	$(PY) -m pytest -n 2 -m "not slow"

QUICK ?= not slow and not servers and not browser and not bench and not heavy
# PYTHONDONTWRITEBYTECODE emptied: pytest keeps the test modules it rewrites (and Python the modules
# it compiles) only where bytecode may be written; without them every worker and every `kg` or
# pytest subprocess compiles them again (collection 21.6 s against 10.8 s, measured at load 8)
check: setup lint
	PYTHONDONTWRITEBYTECODE= $(PY) -m pytest -n 2 --dist loadfile --no-loadscope-reorder -q -m "$(QUICK)"

SIZES ?= 100,1000,10000,100000
bench: setup system-deps
	$(PY) benchmarks/run.py --sizes $(SIZES)

clean:
	rm -rf data build *.egg-info .pytest_cache
