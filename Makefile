# `make run` serves the app on the embedded SQLite default; `make test` runs every test of the project.
SHELL := /bin/bash
.DEFAULT_GOAL := run
PG_ADMIN_URL ?= postgres://postgres@127.0.0.1:5432/postgres
# The OpenStreetMap extract loaded into the offline directory on the first `make run` (when it exists).
OSM_EXTRACT ?= core/data/osm/Helsinki.osm.pbf
CHROMIUM_PATH ?= /usr/bin/chromium
# smtp-sink and dovecot live in /usr/sbin, which a user's PATH may not have.
export PATH := $(PATH):/usr/sbin:/sbin

.PHONY: run build web deps system test test-rust test-web test-e2e lint compose-check monitoring-check openapi bench lighthouse clean

node_modules/.package-lock.json: package.json package-lock.json web/package.json console/package.json
	npm ci --no-audit --no-fund

deps: node_modules/.package-lock.json

web: deps
	npm run build -w web

## The app on http://127.0.0.1:8080 with its database at ./data/outreach.db.
run: web data/.directory-imported
	cargo run --bin outreach -- serve

# First run: load the offline business directory so local searches find businesses without any API key.
data/.directory-imported:
	@if [ -f "$(OSM_EXTRACT)" ]; then cargo run --bin outreach -- import osm "$(OSM_EXTRACT)" && mkdir -p data && touch $@; \
	else echo "No OpenStreetMap extract at $(OSM_EXTRACT): run 'outreach import osm FILE.osm.pbf' to load one."; fi

## target/release/outreach with the web app embedded: one file.
build: web
	cargo build --release --bin outreach

## Every test: the system parts first (installed as root with apt, else named), lints, Rust on SQLite and
## PostgreSQL, Vitest, browser, the compose file and the monitoring configuration.
test: system lint test-web test-rust test-e2e compose-check monitoring-check

# Chromium, Postfix's smtp-sink, Dovecot, docker-compose and a PostgreSQL server on loopback.
system:
	@bash scripts/test-system.sh

lint: deps
	cargo fmt --all --check
	cargo clippy --workspace --all-targets -- -D warnings
	python3 scripts/import-cycles.py
	python3 scripts/file-lengths.py
	npm run typecheck
	npx eslint client web console

# TEST_DATABASE_URL is set when PostgreSQL answers locally, so every database test runs on both backends.
test-rust: web
	@if pg_isready -q -h 127.0.0.1 -p 5432 2>/dev/null || (exec 3<>/dev/tcp/127.0.0.1/5432) 2>/dev/null; then \
		export TEST_DATABASE_URL="$${TEST_DATABASE_URL:-$(PG_ADMIN_URL)}"; echo "Rust tests on SQLite and PostgreSQL"; \
	else echo "Rust tests on SQLite only (no PostgreSQL on 127.0.0.1:5432)"; fi; \
	if cargo nextest --version >/dev/null 2>&1; then cargo nextest run --workspace --no-fail-fast; \
	else cargo test --workspace --no-fail-fast; fi

test-web: deps
	npm test

test-e2e: web
	@test -x "$(CHROMIUM_PATH)" || { echo "Chromium not found at $(CHROMIUM_PATH): apt-get install chromium"; exit 1; }
	# The binary as the Rust tests build it (they run it too): after test-rust this compiles nothing, where
	# `cargo build --bin` would compile it and its dependencies again without the dev-dependencies' features.
	cargo test --no-run --quiet -p outreach
	CHROMIUM_PATH=$(CHROMIUM_PATH) npm run e2e

# The compose file must parse with every profile (no container engine is needed for this).
compose-check:
	@if docker compose version >/dev/null 2>&1; then compose="docker compose"; \
	elif command -v docker-compose >/dev/null 2>&1; then compose=docker-compose; \
	else echo "docker compose not installed: apt-get install docker-compose"; exit 1; fi; \
	$$compose config -q && $$compose --profile postgres --profile monitoring config -q && echo "docker-compose.yml parses"

# Prometheus's scrape config and alert rules are valid, the alerts fire on the series that should raise them
# (grafana/alerts.test.yml), and the dashboards are what scripts/dashboards.py writes.
monitoring-check:
	promtool check config grafana/prometheus.yml
	cd grafana && promtool test rules alerts.test.yml
	python3 scripts/dashboards.py && git diff --exit-code -- grafana/dashboards

## The API description (client/src/api/openapi.json) and the TypeScript types generated from it, after a change
## to a server type; the tests fail until both are current.
openapi: deps
	UPDATE_OPENAPI=1 cargo test -p outreach-api --test api contract::the_committed_description_is_current
	node client/scripts/api-types.mjs

## Every benchmark (docs/benchmarks.md), on SQLite and on PostgreSQL where both apply, BENCH_RUNS times each (issue
## 32 asks for two runs; each run takes its ceiling again), then one table of figures against issue 32's goals, a
## figure's runs in one row. Takes about two hours (seeding S7's 10,000,000 messages alone took 21 minutes on
## PostgreSQL, so that benchmark seeds once and measures its endpoints BENCH_RUNS times); the output is kept in
## target/bench.log.
BENCH_RUNS ?= 2
bench: web
	@bash scripts/test-system.sh --bench
	@mkdir -p target && : > target/bench.log
	set -o pipefail; pg="$${BENCH_DATABASE_URL:-$(PG_ADMIN_URL)}"; \
	for run in $$(seq $(BENCH_RUNS)); do \
	  echo "make bench: run $$run of $(BENCH_RUNS), load average $$(cut -d' ' -f1-3 /proc/loadavg) (a quiet machine is near 0)" \
	    | tee -a target/bench.log; \
	  for url in "" "$$pg"; do \
	    for bench in worker:smtp_send api:tracking worker:follow_ups; do \
	      BENCH_DATABASE_URL="$$url" cargo bench -p outreach-$${bench%%:*} --bench $${bench#*:} 2>&1 \
	        | tee -a target/bench.log || exit 1; \
	    done; \
	    BENCH_DATABASE_URL="$$url" BENCH_MESSAGES=100000 cargo bench -p outreach-worker --bench smtp_send 2>&1 \
	      | tee -a target/bench.log || exit 1; \
	  done; \
	  for bench in worker:queue_drain api:inbox; do \
	    BENCH_DATABASE_URL="$$pg" cargo bench -p outreach-$${bench%%:*} --bench $${bench#*:} 2>&1 \
	      | tee -a target/bench.log || exit 1; \
	  done; \
	  cargo bench -p outreach-worker --bench enrichment 2>&1 | tee -a target/bench.log || exit 1; \
	done; \
	BENCH_DATABASE_URL="$$pg" BENCH_MESSAGES=10000000 BENCH_CAMPAIGNS=1000 BENCH_USERS=100 BENCH_RUNS=$(BENCH_RUNS) \
	  cargo bench -p outreach-api --bench analytics 2>&1 | tee -a target/bench.log
	@scripts/bench-table.sh target/bench.log

## Lighthouse scores of the landing page (desktop preset) in Chromium.
lighthouse: web
	cargo build --bin outreach
	CHROMIUM_PATH=$(CHROMIUM_PATH) node web/scripts/lighthouse.mjs

clean:
	cargo clean
	rm -rf node_modules web/dist
