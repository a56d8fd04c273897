# fairmines: every build, test and tool, from a fresh machine.
# `make verify` is the main job; `make test` builds everything and runs every suite in every language.

SHELL := bash

# The worked example of ALGORITHM.md; override with `make verify ARGS="--server-seed … --client-seed … …"`.
ARGS ?= --server-seed b6c230a9b1ee0fece242600e3354f5b161258600401b469e9dc4f20cd862ca7a \
        --client-seed d0d5e06d22cf693715b29ba893e253b3729af239a43a2a5cc6802150d7441817 \
        --nonce 1 --mines 3 \
        --commitment f5eca593da3fd535d80f1dd3cc314370f5ce423df9be402af81dc5f01959cf42 \
        --positions 7,10,19

.PHONY: verify serve test-server test-server-api test test-rust test-vectors test-c test-node wasm test-wasm test-uniffi test-python test-miri test-cross test-readme test-web web bench bench-dist check-versions check-workflows dist test-dist check-reproducible test-dist-reproducible test-dist-then-miri history-memory fuzz mutation-check install-c vectors search-rejections

verify:
	cargo run --locked --release --quiet -p fairmines-cli -- verify $(ARGS)

# make test compiles the Python sdist once: test-dist installs the released one and runs the package's suites on it.
test: export FAIRMINES_SKIP_SDIST := 1
test: test-rust test-vectors test-python test-node test-server test-server-api test-wasm test-c test-uniffi test-cross test-web dist test-dist-reproducible test-readme check-versions check-workflows
	@echo "make test: every suite passed"

test-rust:
	bash scripts/test-rust.sh

test-vectors:
	bash scripts/check-generated.sh vectors

test-python:
	bash scripts/test-python.sh

test-c:
	bash scripts/test-c.sh

test-node:
	bash scripts/test-node.sh

# fairmines-server (server/): the operator's game service on PostgreSQL, started with no setup (its own
# embedded PostgreSQL in server/.fairmines-server/): every route, restarts, crashes (SIGKILL of the service and
# of PostgreSQL), hostile input, the export through verify-history. Needs the Node addon (test-node builds it).
test-server:
	cd server && npm ci --no-audit --no-fund --loglevel=error && npm test

# The service's API contract: server/openapi.json regenerated from the routes' schemas (drift check), then
# Schemathesis (pinned, in target/schemathesis-venv) fuzzes the live service from it: no 5xx, every answer as documented.
test-server-api:
	bash scripts/test-server-api.sh

# The service on a local port with its own PostgreSQL; DATABASE_URL, FAIRMINES_API_KEY etc.: server/README.md.
serve:
	@compgen -G 'node/fairmines.*.node' >/dev/null || (cd node && npm ci --no-audit --no-fund && npm run build --silent)
	cd server && npm ci --no-audit --no-fund --loglevel=error && node bin/fairmines-server.js

test-uniffi:
	bash scripts/test-uniffi.sh

# The npm package fairmines-wasm (wasm/): the core for wasm32-unknown-unknown and its JavaScript glue.
wasm:
	bash wasm/build.sh

# The WebAssembly package in Node: vectors, errors, histories against the CLI, README blocks, drift check.
test-wasm:
	bash scripts/test-wasm.sh

# Rounds played through the Node package, verified by the Python package and the C library.
test-cross:
	bash scripts/test-cross.sh

# The verifier page (web/) into web/dist/: the fairmines-wasm package (make wasm), then web/build.mjs.
web: wasm
	node web/build.mjs

# The page in Chromium (installed when missing): served, and as the single file from file://.
test-web:
	bash scripts/test-web.sh

# Every code block of README.md and docs/install.md, run as written, with the output it shows compared; the
# names of docs/vocabulary.md looked up in every language.
test-readme:
	bash scripts/test-readme.sh

# Every version number equals Cargo.toml's (CLI, Python, npm packages, C header, POM, CHANGELOG.md);
# scripts/versions.py set X.Y.Z sets them all.
check-versions:
	python3 scripts/versions.py check

# The GitHub Actions workflows pass actionlint (installed from the Go module proxy into target/tools).
check-workflows:
	bash scripts/check-workflows.sh

# The release artifacts into dist/ with dist/SHA256SUMS: the static musl command lines (x86_64, aarch64), the C
# archives (glibc 2.17 and musl, each for x86_64 and aarch64), the npm packages (root; linux-x64 and linux-arm64, gnu for glibc 2.17 and musl), the Python wheels and sdist, the
# JAR with its POM in a Maven repository folder (dist/maven), the Ruby gem (both with the glibc 2.17 library), the
# WASM npm package (make wasm, packed), the service's npm package fairmines-server and the verifier page (make web,
# web/dist as a tar.gz).
dist:
	bash scripts/dist.sh

# What `make dist` wrote, used as a user would: unpacked or installed elsewhere without Rust, the shared vectors
# through each package (the JAR from a Maven project, the gem after gem install --local), each archive's README
# run as written, the WASM package in Node and the verifier page in Chromium, fairmines-server installed by
# server/README.md's release block and its image (server/Containerfile, with podman on a debootstrapped base cached
# in target/container) driven against PostgreSQL, on an older glibc (a Debian 11 root folder, cached in
# target/debian11-root), and the arm64 files under QEMU (in an arm64 Debian root, target/arm64-root).
test-dist:
	bash scripts/test-dist.sh $(ARGS)

# `make dist` again from a second checkout at another path (target/repro/fairmines):
# every artifact must be byte-identical to dist/'s (the two SHA256SUMS equal).
check-reproducible:
	bash scripts/check-reproducible.sh

# test-dist, then test-miri, beside check-reproducible (make test's step; each one's output printed whole when it
# ends): test-dist's steps and Miri mostly keep one core busy (QEMU, installs, suites; Miri interprets on one
# thread), and check-reproducible's build, niced, takes what they leave; it runs longest, so Miri fits in its tail.
# None writes what another reads: test-dist reads dist/, Miri builds in target/miri, the second build writes
# target/'s other build folders and target/repro.
test-dist-reproducible:
	$(MAKE) --no-print-directory -j2 --output-sync=target test-dist-then-miri check-reproducible

test-dist-then-miri:
	$(MAKE) --no-print-directory test-dist
	$(MAKE) --no-print-directory test-miri

# The core's unit and game tests under Miri (nightly; installed when missing).
test-miri:
	bash scripts/miri.sh

# Every benchmark (criterion in the core, then Python, Node and C against their references); writes docs/benchmarks.md.
bench:
	bash scripts/bench.sh

# The Python, Node and C benchmarks of the dist/ packages (glibc 2.17) against the native builds, interleaved;
# writes docs/benchmarks-dist.md (the release builds should be within 5%). Runs `make dist` first when dist/ is missing or stale.
bench-dist:
	bash scripts/bench-dist.sh

# Verifies a generated 1,000,000-row history and prints its peak RSS (constant memory).
history-memory:
	bash scripts/history-memory.sh

# Every fuzz target for SECONDS each (nightly + cargo-fuzz, installed when missing); `make fuzz SECONDS=600`.
SECONDS ?= 60
fuzz:
	bash scripts/fuzz.sh $(SECONDS)

# cargo-mutants on the core (.cargo/mutants.toml): every mutant must make a test fail. Hours on 2 cores;
# `make mutation-check MUTANTS="--shard 1/8"` or `MUTANTS="--file placement.rs"` runs a part.
mutation-check:
	bash scripts/mutants.sh $(MUTANTS)

# Installs the C header, libraries (with their SONAME links), pkg-config files (fairmines, fairmines-static),
# CMake package, valgrind suppressions and licences: `make install-c PREFIX=/usr/local` (see scripts/install-c.sh).
PREFIX ?= /usr/local
install-c:
	bash scripts/install-c.sh "$(PREFIX)"

# Rewrites vectors/vectors.json from the reference JavaScript.
vectors:
	cd vectors && npm ci --no-audit --no-fund --silent && node generate.js

# Searches for rounds with rejected draws (minutes on 2 cores) and rewrites vectors/rejections.json.
search-rejections:
	cargo run --locked --release -p rejection-search > vectors/rejections.json.new
	mv vectors/rejections.json.new vectors/rejections.json
