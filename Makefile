# Genebank developer commands. `make run` and `make test` are the two the README promises.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# The CPU build of torch lies on this machine's disk; installing it first keeps pip from
# resolving a multi-GB CUDA build when sentence-transformers asks for torch.
TORCH_VERSION ?= 2.13.0
TORCH_FIND_LINKS := $(if $(wildcard /opt/wheels),--find-links /opt/wheels,)
PYTEST_ARGS ?=
# Where `make finetune` writes the fine-tuned embedding model (GENEBANK_EMBEDDING_MODEL_DIR).
FINETUNE_DIR ?= $(HOME)/.genebank/minilm-genebank
# Where `make guard-model` writes the guard-pair cross-encoder (GENEBANK_GUARD_MODEL_DIR).
GUARD_MODEL_DIR ?= $(HOME)/.genebank/guard-model

.PHONY: install run test lint format demo worker bench finetune guard-model clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet $(TORCH_FIND_LINKS) "torch==$(TORCH_VERSION)"
	$(BIN)/pip install --quiet -e ".[dev]"   # app and clients/python (genebank.client), editable
	touch $@

install: $(BIN)/.installed

run: install  ## install, then start the API on the embedded database
	$(BIN)/genebank serve

test: install  ## install, then run the whole test suite
	$(BIN)/pytest $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check app tests bench migrations clients examples
	$(BIN)/ruff format --check app tests bench migrations clients examples
	$(BIN)/mypy --strict app clients/python/genebank

format: install
	$(BIN)/ruff check --fix app tests bench migrations clients examples
	$(BIN)/ruff format app tests bench migrations clients examples

demo: install
	$(BIN)/genebank demo

worker: install  ## run an evolution worker (merges pending trajectories) until Ctrl-C
	$(BIN)/genebank worker

bench: install
	$(BIN)/python bench/fetch.py

finetune: install  ## fine-tune the embedding model on bench/data into FINETUNE_DIR (~30 CPU-minutes)
	PYTHONPATH=. $(BIN)/python bench/finetune.py --out "$(FINETUNE_DIR)"

guard-model: install  ## train the guard-pair cross-encoder into GUARD_MODEL_DIR (~30 minutes on 2 cores)
	PYTHONPATH=. $(BIN)/python bench/guard_pair_model.py --epochs 3 --threads 2 --out "$(GUARD_MODEL_DIR)"

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
