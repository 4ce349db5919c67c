#!/bin/bash
# The official postgres image's entrypoint, as far as compose files use it: on an empty PGDATA, initdb with
# POSTGRES_USER (default postgres) and POSTGRES_PASSWORD, POSTGRES_DB (default the user) created, scripts in
# /docker-entrypoint-initdb.d run, then `postgres` runs as the postgres user, listening on every address
# (on PGPORT when set, as PostgreSQL itself reads it).
set -euo pipefail

if [ "${1:0:1}" = '-' ]; then set -- postgres "$@"; fi

if [ "$1" = 'postgres' ] && [ "$(id -u)" = '0' ]; then
  mkdir -p "$PGDATA"
  chown postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
  exec setpriv --reuid=postgres --regid=postgres --init-groups "$BASH_SOURCE" "$@"
fi

if [ "$1" = 'postgres' ] && [ ! -s "$PGDATA/PG_VERSION" ]; then
  : "${POSTGRES_USER:=postgres}"
  : "${POSTGRES_DB:=$POSTGRES_USER}"
  auth="${POSTGRES_HOST_AUTH_METHOD:-scram-sha-256}"
  if [ -z "${POSTGRES_PASSWORD:-}" ] && [ "$auth" != 'trust' ]; then
    echo 'Error: POSTGRES_PASSWORD is not set (or set POSTGRES_HOST_AUTH_METHOD=trust to allow any connection)' >&2
    exit 1
  fi
  pwfile="$(mktemp)"
  printf '%s' "${POSTGRES_PASSWORD:-}" >"$pwfile"
  # shellcheck disable=SC2086 # POSTGRES_INITDB_ARGS is a list of arguments, as in the official image
  initdb --username="$POSTGRES_USER" --pwfile="$pwfile" ${POSTGRES_INITDB_ARGS:-} -D "$PGDATA"
  rm -f "$pwfile"
  printf '\nhost all all all %s\n' "$auth" >>"$PGDATA/pg_hba.conf"
  # A server only this script reaches (no TCP), to create the database and run the init scripts.
  pg_ctl -D "$PGDATA" -o "-c listen_addresses='' -p ${PGPORT:-5432}" -w start
  export PGUSER="$POSTGRES_USER" PGPASSWORD="${POSTGRES_PASSWORD:-}" PGHOST=/var/run/postgresql
  if [ "$POSTGRES_DB" != 'postgres' ]; then
    psql -v ON_ERROR_STOP=1 --dbname postgres --set db="$POSTGRES_DB" <<<'CREATE DATABASE :"db";'
  fi
  for f in /docker-entrypoint-initdb.d/*; do
    case "$f" in
      *.sh) echo "running $f"; if [ -x "$f" ]; then "$f"; else . "$f"; fi ;;
      *.sql) echo "running $f"; psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" -f "$f" ;;
      *.sql.gz) echo "running $f"; gunzip -c "$f" | psql -v ON_ERROR_STOP=1 --dbname "$POSTGRES_DB" ;;
      *) ;;
    esac
  done
  unset PGPASSWORD
  pg_ctl -D "$PGDATA" -m fast -w stop
  echo 'PostgreSQL init process complete; ready for start up.'
fi

if [ "$1" = 'postgres' ]; then
  shift
  exec postgres -c listen_addresses='*' "$@"
fi
exec "$@"
