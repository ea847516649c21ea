#!/usr/bin/env bash
# A private PostgreSQL server for the TPC-C baseline (issue 5), from Debian's package
# (apt-get install postgresql). TpccBenchmark and the tests run this script (a copy of it from
# the class path); it works by hand too:
#
#   postgres-server.sh start DATA_DIR PORT [name=value ...]   initdb into DATA_DIR (new or empty),
#                                                             then start on 127.0.0.1:PORT with the
#                                                             given server settings; waits until ready
#   postgres-server.sh stop DATA_DIR                          fast shutdown; waits until stopped
#   postgres-server.sh bindir                                 prints the server binaries' directory
#
# The server trusts local connections (user tpcc, no password) and listens on loopback only; its
# Unix socket lives in DATA_DIR. initdb refuses to run as root, so as root the data directory is
# given to the 'postgres' user and the server runs as that user (runuser). Exit 0 on success; 3 if
# PostgreSQL is not installed; anything else is a failure, with the server's log on stderr.
set -euo pipefail

bindir() {
    local d
    for d in $(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V -r); do
        if [ -x "$d/initdb" ] && [ -x "$d/pg_ctl" ]; then
            echo "$d"
            return 0
        fi
    done
    if command -v initdb >/dev/null 2>&1 && command -v pg_ctl >/dev/null 2>&1; then
        dirname "$(command -v initdb)"
        return 0
    fi
    return 1
}

as_owner() {
    if [ "$(id -u)" -eq 0 ]; then
        runuser -u postgres -- "$@"
    else
        "$@"
    fi
}

bin="$(bindir)" || { echo "postgres-server.sh: PostgreSQL is not installed (apt-get install postgresql)" >&2; exit 3; }

case "${1:-}" in
    bindir)
        echo "$bin"
        ;;
    start)
        [ $# -ge 3 ] || { echo "usage: $0 start DATA_DIR PORT [name=value ...]" >&2; exit 2; }
        data="$2"; port="$3"; shift 3
        case "$data" in /*) ;; *) echo "postgres-server.sh: DATA_DIR must be absolute, got $data" >&2; exit 2 ;; esac
        mkdir -p "$data"
        if [ -n "$(ls -A "$data")" ]; then
            echo "postgres-server.sh: $data is not empty; give a new directory" >&2
            exit 2
        fi
        if [ "$(id -u)" -eq 0 ]; then
            chown postgres: "$data"
            chmod 700 "$data"
        fi
        as_owner "$bin/initdb" -D "$data" -U tpcc -A trust -E UTF8 --locale=C.UTF-8 --no-sync > "$data.initdb.log" 2>&1 \
            || { cat "$data.initdb.log" >&2; exit 1; }
        options="-c port=$port -c listen_addresses=127.0.0.1 -c unix_socket_directories=$data"
        for setting in "$@"; do
            options="$options -c $setting"
        done
        if ! as_owner "$bin/pg_ctl" -D "$data" -l "$data/server.log" -w -t 60 -o "$options" start > /dev/null; then
            cat "$data/server.log" >&2 || true
            exit 1
        fi
        ;;
    stop)
        [ $# -eq 2 ] || { echo "usage: $0 stop DATA_DIR" >&2; exit 2; }
        as_owner "$bin/pg_ctl" -D "$2" -m fast -w -t 60 stop > /dev/null
        ;;
    *)
        echo "usage: $0 start DATA_DIR PORT [name=value ...] | stop DATA_DIR | bindir" >&2
        exit 2
        ;;
esac
