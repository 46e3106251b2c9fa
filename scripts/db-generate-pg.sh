#!/usr/bin/env bash
# `npm run db:generate:pg [-- --name NAME]`: PostgreSQL migrations from the mirror of the one schema
# (storage/pg-schema.ts). The migrations name no schema, so they apply to the connection's
# search_path (PORTOLAN_DB's ?schema=).
set -euo pipefail
cd "$(dirname "$0")/.."
./node_modules/.bin/drizzle-kit generate --config drizzle-pg.config.ts "$@"
sed -i 's/"public"\.//g' storage/migrations-pg/*.sql
