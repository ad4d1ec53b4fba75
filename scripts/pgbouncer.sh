#!/usr/bin/env bash
# Starts Debian's PgBouncer in transaction pooling mode in front of the PostgreSQL server on
# ${PGBOUNCER_TARGET_HOST:-127.0.0.1}:${PGBOUNCER_TARGET_PORT:-5432}, on a free loopback port,
# with its configuration in a new temporary directory. Every database name is passed through
# (`*`), as user postgres. Prints `<port> <directory>`; stop it with `scripts/pgbouncer.sh stop <directory>`.
#
# The server's statement_timeout cannot be a startup parameter through PgBouncer: it is
# ignored there, and set on each server connection by PgBouncer (connect_query) instead.
set -euo pipefail
if [ "${1:-}" = stop ]; then
  dir=${2:?directory}
  [ -f "$dir/pgbouncer.pid" ] && kill "$(cat "$dir/pgbouncer.pid")" 2>/dev/null || true
  rm -rf "$dir"
  exit 0
fi
bin=$(command -v pgbouncer || echo /usr/sbin/pgbouncer)
[ -x "$bin" ] || { echo "pgbouncer is not installed" >&2; exit 1; }
dir=$(mktemp -d "${TMPDIR:-/tmp}/pgbouncer.XXXXXX")
port=$(node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
cat >"$dir/pgbouncer.ini" <<INI
[databases]
* = host=${PGBOUNCER_TARGET_HOST:-127.0.0.1} port=${PGBOUNCER_TARGET_PORT:-5432} user=postgres connect_query='set statement_timeout = ${STATEMENT_TIMEOUT_MS:-15000}'

[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $port
unix_socket_dir =
auth_type = any
pool_mode = transaction
max_client_conn = 2000
default_pool_size = 20
max_db_connections = 40
ignore_startup_parameters = statement_timeout, extra_float_digits
server_reset_query =
pidfile = $dir/pgbouncer.pid
logfile = $dir/pgbouncer.log
INI
# PgBouncer refuses to run as root: it runs as the postgres user then.
if [ "$(id -u)" = 0 ]; then
  chown -R postgres "$dir"
  chmod 755 "$dir"
  "$bin" -d -u postgres "$dir/pgbouncer.ini"
else
  "$bin" -d "$dir/pgbouncer.ini"
fi
for _ in $(seq 50); do
  if (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; then
    echo "$port $dir"
    exit 0
  fi
  sleep 0.1
done
echo "pgbouncer did not start:" >&2
cat "$dir/pgbouncer.log" >&2 || true
exit 1
