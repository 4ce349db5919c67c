#!/usr/bin/env bash
# compose.cluster.yaml's postgres-init job: one login and one database per service on the cluster's PostgreSQL, each
# database owned by its service's login (no service reads another's tables, docs/architecture.md). Made when missing;
# passwords are set again from the environment on every run, so a changed .env takes effect at the next `up`.
set -euo pipefail

for app in gateway numbers_billing calls_media lostfound webhook_dispatcher; do
  variable="${app^^}_DB_PASSWORD"
  password="${!variable:?${variable} is not set}"
  psql -v ON_ERROR_STOP=1 -q -v app="$app" -v password="$password" <<'SQL'
SELECT format('CREATE ROLE %I LOGIN', :'app') WHERE NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = :'app') \gexec
ALTER ROLE :"app" WITH LOGIN PASSWORD :'password';
SELECT format('CREATE DATABASE %I OWNER %I', :'app', :'app')
  WHERE NOT EXISTS (SELECT 1 FROM pg_database WHERE datname = :'app') \gexec
REVOKE ALL ON DATABASE :"app" FROM PUBLIC;
SQL
  echo "postgres-init: ${app} ready"
done
