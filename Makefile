# The two commands: `make run` (setup, build, curate the example corpus) and `make test`.
BUILD ?= build
JOBS ?= $(shell nproc)
MAKEFLAGS += --no-print-directory

.PHONY: setup configure winnow build run test bench-build bench clean

setup:
	@scripts/setup

# CMake's full output goes to $(BUILD)/configure.log; what it found (compiler, linker, ccache,
# CUDA, MPI, Python, the fuzzers, DuckDB, ONNX Runtime) is printed, and everything on failure.
configure: setup
	@mkdir -p $(BUILD)
	@cmake -S . -B $(BUILD) -DCMAKE_BUILD_TYPE=RelWithDebInfo >$(BUILD)/configure.log 2>&1 \
	  || { cat $(BUILD)/configure.log; exit 1; }
	@sed -n 's/^-- winnow: /configure: /p' $(BUILD)/configure.log
	@! grep -q '^CMake Warning' $(BUILD)/configure.log \
	  || echo "configure: CMake warned (see $(BUILD)/configure.log)"

# The winnow binary alone: all `make run` needs (the tests and benchmarks are not built).
winnow: configure
	@cmake --build $(BUILD) -j $(JOBS) --target winnow

# The default build: the binary, every test and the tools the tests run (no benchmarks).
build: configure
	@cmake --build $(BUILD) -j $(JOBS)

run: winnow
	@scripts/make_example_corpus $(BUILD)/example/corpus
	@$(BUILD)/winnow run examples/example.yaml --input $(BUILD)/example/corpus \
	  --output $(BUILD)/example/out --overwrite

test: build
	@cd $(BUILD) && ctest --output-on-failure -j $(JOBS)

# The benchmark programs (bench/benchmarks.cmake), outside the default build.
bench-build: configure
	@cmake --build $(BUILD) -j $(JOBS) --target benchmarks

bench: bench-build
	@bench/passthrough.sh $(BUILD)
	@bench/cpu_budget.sh $(BUILD)
	@$(BUILD)/autoscale_bench --dir $(BUILD)/bench/autoscale
	@bench/filter_chain.sh $(BUILD)
	@$(BUILD)/bench/language_id_bench
	@$(BUILD)/bench/token_count_bench $(BUILD)/bench/filters/docs.txt
	@bench/hf_tokenizer.sh $(BUILD)
	@bench/pii_redact.sh $(BUILD)
	@bench/megatron_tokens.sh $(BUILD)
	@bench/decontaminate.sh $(BUILD)
	@bench/warc_extract.sh $(BUILD)
	@bench/warc_dedup.sh $(BUILD)
	@$(BUILD)/bench/parquet_bench $(BUILD)/winnow $(BUILD)/bench/parquet
	@$(BUILD)/bench/semantic_dedup_bench --n 200000 --d 384 --k 200 --iters 10
	@[ ! -d $(BUILD)/python/winnow ] || bench/python_overhead $(BUILD)

clean:
	rm -rf $(BUILD)
