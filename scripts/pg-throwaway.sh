#!/usr/bin/env bash
# A throw-away PostgreSQL cluster for tests: a temp directory, a free loopback port, trust auth,
# durability off (it is deleted afterwards anyway).
#
#   scripts/pg-throwaway.sh start [DIR]   starts a cluster in DIR (default: a new temp dir); the LAST line
#                                          of stdout is the server URL, the line before it `dir=<DIR>`
#   scripts/pg-throwaway.sh stop DIR      stops the cluster in DIR and deletes DIR
#
# initdb refuses to run as root: as root the cluster runs as user `postgres` (or `nobody`).
set -euo pipefail

die() { echo "pg-throwaway: $*" >&2; exit 1; }

run_as_owner() {
  if [ "$(id -u)" = "0" ]; then
    runuser -u "$PG_OWNER" -- "$@"
  else
    "$@"
  fi
}

port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

pick_owner() {
  PG_OWNER=""
  if [ "$(id -u)" = "0" ]; then
    for u in postgres nobody; do
      if id "$u" >/dev/null 2>&1; then PG_OWNER="$u"; break; fi
    done
    [ -n "$PG_OWNER" ] || die "running as root and neither user postgres nor nobody exists"
  fi
}

cmd_start() {
  command -v initdb >/dev/null || die "initdb is not on PATH (PostgreSQL server binaries missing)"
  command -v pg_ctl >/dev/null || die "pg_ctl is not on PATH"
  pick_owner
  local dir="${1:-}"
  if [ -z "$dir" ]; then dir="$(mktemp -d "${TMPDIR:-/tmp}/pg-throwaway.XXXXXX")"; else mkdir -p "$dir"; fi
  chmod 755 "$dir"
  mkdir -p "$dir/sock"
  [ -n "$PG_OWNER" ] && chown -R "$PG_OWNER" "$dir"
  # The data directory must be reachable by the owner: a root-only parent (mktemp's 0700) would not be.
  run_as_owner initdb -D "$dir/data" --auth=trust -U postgres -E UTF8 --no-locale >"$dir/initdb.log" 2>&1 ||
    { cat "$dir/initdb.log" >&2; die "initdb failed"; }

  local port attempt
  for attempt in 1 2 3 4 5 6 7 8; do
    port=$(( 20000 + (RANDOM * 32768 + RANDOM) % 40000 ))
    port_free "$port" || continue
    if run_as_owner pg_ctl -D "$dir/data" -l "$dir/server.log" -w -t 60 \
      -o "-c listen_addresses=127.0.0.1 -p $port -k $dir/sock -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=200" \
      start >/dev/null 2>&1; then
      echo "$port" >"$dir/port"
      echo "dir=$dir"
      echo "postgresql://postgres@127.0.0.1:$port/postgres"
      return 0
    fi
  done
  cat "$dir/server.log" >&2 2>/dev/null || true
  die "could not start PostgreSQL (see above)"
}

cmd_stop() {
  local dir="${1:-}"
  [ -n "$dir" ] || die "usage: $0 stop DIR"
  [ -d "$dir" ] || return 0
  pick_owner
  if [ -f "$dir/data/postmaster.pid" ]; then
    run_as_owner pg_ctl -D "$dir/data" -m immediate -w -t 30 stop >/dev/null 2>&1 || true
  fi
  rm -rf "$dir"
}

case "${1:-}" in
  start) shift; cmd_start "$@" ;;
  stop) shift; cmd_stop "$@" ;;
  *) die "usage: $0 start [DIR] | stop DIR" ;;
esac
