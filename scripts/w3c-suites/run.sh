#!/usr/bin/env bash
# Runs the W3C test suites against a local instance of this service, as issuer (VC API issue) and as
# verifier (VC API credential and presentation verify). See docs/w3c-suites.md.
#
#   scripts/w3c-suites/run.sh prepare      clone (when missing) and install the suites, once
#   scripts/w3c-suites/run.sh run [SUITE]  start a throw-away instance and run the suites (default: all)
#
# Environment:
#   W3C_SUITES_DIR   where the suites' copies live, OUTSIDE this repository
#                    (default: ${XDG_CACHE_HOME:-$HOME/.cache}/w3c-suites)
#   W3C_GIT_BASE     where `prepare` clones a missing repository from (default: https://github.com);
#                    a directory of local clones or mirrors works too (<base>/<owner>/<name>)
#   W3C_RESULTS_DIR  where each run's reports go (default: $W3C_SUITES_DIR/results/<UTC time>)
#   W3C_KEEP=1       keep the throw-away instance's directory (database, logs) after the run
#   W3C_ADAPTED=0    skip the EdDSA suite's second, adapted pass (adapt-eddsa.mjs)
#
# The suites' GitHub dependencies (w3c/vc-test-suite-implementations,
# w3c-ccg/data-integrity-test-suite-assertion) are installed from local copies packed with `npm pack`;
# their npm dependencies come from the registry. Nothing of the suites enters this repository.
set -euo pipefail

REPO_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
HERE="$REPO_ROOT/scripts/w3c-suites"
SUITES_DIR="${W3C_SUITES_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/w3c-suites}"
GIT_BASE="${W3C_GIT_BASE:-https://github.com}"

SUITES=(vc-data-model-2.0-test-suite vc-di-eddsa-test-suite vc-bitstring-status-list-test-suite)
# owner/name of every repository prepare needs: the three suites and their GitHub dependencies.
REPOSITORIES=(
  w3c/vc-data-model-2.0-test-suite
  w3c/vc-di-eddsa-test-suite
  w3c/vc-bitstring-status-list-test-suite
  w3c/vc-test-suite-implementations
  w3c-ccg/data-integrity-test-suite-assertion
)
PACKED=(vc-test-suite-implementations data-integrity-test-suite-assertion)
ORG_SLUG="w3c-suites"

die() { echo "w3c-suites: $*" >&2; exit 1; }
say() { echo "w3c-suites: $*" >&2; }

case "$SUITES_DIR/" in
  "$REPO_ROOT"/*) die "W3C_SUITES_DIR ($SUITES_DIR) is inside this repository; choose a directory outside it" ;;
esac

free_port() { node -e 'const s=require("net").createServer();s.listen(0,"127.0.0.1",()=>{console.log(s.address().port);s.close()})'; }

cmd_prepare() {
  mkdir -p "$SUITES_DIR/packs"
  for repository in "${REPOSITORIES[@]}"; do
    local name="${repository#*/}"
    if [ ! -d "$SUITES_DIR/$name/.git" ]; then
      say "cloning $GIT_BASE/$repository into $SUITES_DIR/$name"
      git clone --quiet "$GIT_BASE/$repository" "$SUITES_DIR/$name"
    fi
  done
  for name in "${PACKED[@]}"; do
    say "packing the local copy of $name"
    # --ignore-scripts: a pack must not run the package's own build or prepare steps
    (cd "$SUITES_DIR/$name" && npm pack --silent --ignore-scripts --pack-destination "$SUITES_DIR/packs" >/dev/null)
  done
  for suite in "${SUITES[@]}"; do
    say "installing $suite"
    (
      cd "$SUITES_DIR/$suite"
      for name in "${PACKED[@]}"; do
        if [ "$(npm pkg get "dependencies.$name")" != "{}" ]; then
          local tarball
          tarball="$(ls "$SUITES_DIR/packs/$name"-*.tgz | head -n 1)"
          npm pkg set "dependencies.$name=file:$tarball"
        fi
      done
      # The runner needs mocha; one suite lists it under devDependencies only.
      if [ "$(npm pkg get dependencies.mocha)" = "{}" ]; then
        npm pkg set "dependencies.mocha=$(npm pkg get devDependencies.mocha | tr -d '"')"
      fi
      npm install --silent --no-audit --no-fund --ignore-scripts --omit=dev
    )
  done
  say "prepared in $SUITES_DIR"
}

# --- run ------------------------------------------------------------------------------------------

cleanup() {
  local status=$?
  for suite in "${SUITES[@]}"; do rm -f "$SUITES_DIR/$suite/localConfig.cjs"; done
  # Each background process was started in its own process group (setsid): stop the whole group.
  for pid in ${PROXY_PID:-} ${SERVER_PID:-}; do kill -TERM -- "-$pid" 2>/dev/null || true; done
  sleep 1
  for pid in ${PROXY_PID:-} ${SERVER_PID:-}; do kill -KILL -- "-$pid" 2>/dev/null || true; done
  # The throw-away directory goes; its logs (server, proxy, CLI) stay with the run's results.
  if [ -n "${WORK:-}" ] && [ -n "${RESULTS:-}" ]; then cp "$WORK"/*.log "$WORK"/data/build.log "$RESULTS/" 2>/dev/null || true; fi
  if [ -n "${WORK:-}" ] && [ "${W3C_KEEP:-0}" != "1" ]; then rm -rf "$WORK"; fi
  [ -n "${WORK:-}" ] && [ "${W3C_KEEP:-0}" = "1" ] && say "kept $WORK"
  exit $status
}

wait_for() {
  local url="$1" seconds="$2" what="$3"
  for _ in $(seq 1 "$seconds"); do
    if curl -fsS -o /dev/null --cacert "$WORK/cert.pem" "$url" 2>/dev/null; then return 0; fi
    if ! kill -0 "$SERVER_PID" 2>/dev/null; then die "$what stopped; see $RESULTS/server.log"; fi
    sleep 1
  done
  die "$what did not answer at $url within $seconds s; see $RESULTS/server.log"
}

cmd_run() {
  local selected=("$@")
  [ ${#selected[@]} -gt 0 ] || selected=("${SUITES[@]}")
  for suite in "${selected[@]}"; do
    [ -d "$SUITES_DIR/$suite/node_modules" ] || die "$suite is not prepared in $SUITES_DIR; run: $0 prepare"
  done
  command -v openssl >/dev/null || die "openssl is not on PATH"

  WORK="$(mktemp -d "${TMPDIR:-/tmp}/w3c-suites-run.XXXXXX")"
  trap cleanup EXIT INT TERM
  RESULTS="${W3C_RESULTS_DIR:-$SUITES_DIR/results/$(date -u +%Y%m%dT%H%M%SZ)}"
  local results="$RESULTS"
  mkdir -p "$results" "$WORK/data"

  local http_port https_port
  http_port="$(free_port)"
  https_port="$(free_port)"
  while [ "$https_port" = "$http_port" ]; do https_port="$(free_port)"; done
  local public_url="https://localhost:$https_port"

  say "self-signed certificate for localhost and 127.0.0.1"
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=localhost" \
    -addext "subjectAltName=DNS:localhost,IP:127.0.0.1" \
    -keyout "$WORK/key.pem" -out "$WORK/cert.pem" 2>/dev/null

  # One throw-away SQLite database and data directory; the server and the CLI share them.
  export DATABASE_URL="file:$WORK/data/suites.db" DATA_DIR="$WORK/data" PUBLIC_URL="$public_url"
  export PORT="$http_port" HOST="127.0.0.1" NODE_ENV=production NEXT_TELEMETRY_DISABLED=1 LOG_LEVEL=warn

  say "organization and API token through the CLI"
  (cd "$REPO_ROOT" && npm run --silent cli -- org create "$ORG_SLUG" --plan premium --name "W3C suites" >"$WORK/cli.log" 2>&1) ||
    die "could not create the organization; see $RESULTS/cli.log"
  local token
  token="$(cd "$REPO_ROOT" && npm run --silent cli -- token create "$ORG_SLUG" --name "W3C suites" 2>>"$WORK/cli.log" | tail -n 1)"
  [ -n "$token" ] || die "could not create an API token; see $RESULTS/cli.log"

  say "starting the instance on 127.0.0.1:$http_port (it builds first when the build is stale: minutes)"
  (cd "$REPO_ROOT" && exec setsid npm start >"$WORK/server.log" 2>&1) &
  SERVER_PID=$!
  setsid node "$HERE/tls-proxy.mjs" "$https_port" "http://127.0.0.1:$http_port" "$WORK/key.pem" "$WORK/cert.pem" \
    >"$WORK/proxy.log" 2>&1 &
  PROXY_PID=$!
  wait_for "$public_url/livez" 1200 "the instance"

  local did
  did="$(curl -fsS --cacert "$WORK/cert.pem" "$public_url/organizations/$ORG_SLUG/did.json" |
    node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>console.log(JSON.parse(s).id))')" ||
    die "could not read the organization's DID document; see $RESULTS/server.log"
  say "issuer $did at $public_url"

  local ran=()
  for suite in "${selected[@]}"; do
    local dir="$SUITES_DIR/$suite"
    ran+=("$suite")
    git -C "$dir" rev-parse HEAD >"$results/$suite.commit"
    node "$HERE/local-config.mjs" "$dir" "$public_url" "$did" "$token" >/dev/null
    # A dry run lists every test the suite declares for this configuration, so tests that never ran
    # (their setup hook failed) are counted as failed rather than silently left out.
    (cd "$dir" && npx mocha tests --dry-run --preserve-symlinks \
      --reporter json --reporter-option "output=$results/$suite.declared.json" >/dev/null 2>&1) || true
    say "running $suite"
    # The suites' own HTTPS clients skip certificate checks; their plain fetches and every other
    # client trust the run's certificate through NODE_EXTRA_CA_CERTS.
    (cd "$dir" && NODE_EXTRA_CA_CERTS="$WORK/cert.pem" npx mocha tests --timeout 15000 --preserve-symlinks \
      --reporter json --reporter-option "output=$results/$suite.json" >"$results/$suite.log" 2>&1) || true
    if [ "$suite" = vc-di-eddsa-test-suite ] && [ "${W3C_ADAPTED:-1}" = "1" ]; then
      # The same suite once more with its two assumptions adapted (VC 2.0 to issuers, did:web keys
      # resolved): see adapt-eddsa.mjs. Reported as its own row, never mixed into the suite's.
      local adapted="$suite+vc2"
      if ! node "$HERE/adapt-eddsa.mjs" "$dir"; then
        say "skipping the adapted pass: the suite's tests no longer match what adapt-eddsa.mjs adapts"
        rm -f "$dir/localConfig.cjs"
        continue
      fi
      cp "$results/$suite.commit" "$results/$adapted.commit"
      (cd "$dir" && npx mocha tests-vc2 --dry-run --preserve-symlinks \
        --reporter json --reporter-option "output=$results/$adapted.declared.json" >/dev/null 2>&1) || true
      say "running $suite adapted (VC 2.0 to issuers, did:web keys resolved)"
      (cd "$dir" && NODE_EXTRA_CA_CERTS="$WORK/cert.pem" npx mocha tests-vc2 --timeout 15000 --preserve-symlinks \
        --reporter json --reporter-option "output=$results/$adapted.json" >"$results/$adapted.log" 2>&1) || true
      rm -rf "$dir/tests-vc2"
      ran+=("$adapted")
    fi
    rm -f "$dir/localConfig.cjs"
  done
  node "$HERE/summarize.mjs" "$results" "${ran[@]}"
}

command="${1:-run}"
[ $# -gt 0 ] && shift
case "$command" in
  prepare) cmd_prepare ;;
  run) cmd_run "$@" ;;
  *) die "unknown command $command (prepare | run [suite...])" ;;
esac
