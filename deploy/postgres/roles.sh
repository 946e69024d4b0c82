#!/bin/sh
# Run once by the postgres image when its data volume is created (docker-compose.yml).
# cuatrola_owner owns the database, its tables and their triggers: migrations run as it.
# cuatrola_app is what web, worker and beat connect as: it owns nothing, is no
# superuser, and after `manage.py grant_app_role cuatrola_app` may only read and
# write rows, so it cannot disable the ledger's triggers (docs/operations.md).
set -eu
psql -v ON_ERROR_STOP=1 --username "$POSTGRES_USER" --dbname "$POSTGRES_DB" \
  -v owner_password="$DATABASE_OWNER_PASSWORD" -v app_password="$DATABASE_APP_PASSWORD" <<'SQL'
CREATE ROLE cuatrola_owner LOGIN PASSWORD :'owner_password';
CREATE ROLE cuatrola_app LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD :'app_password';
ALTER DATABASE cuatrola OWNER TO cuatrola_owner;
ALTER SCHEMA public OWNER TO cuatrola_owner;
REVOKE CREATE ON SCHEMA public FROM PUBLIC;
SQL
