#!/bin/bash
# A streaming standby of the `db` service: cloned with pg_basebackup on first start (-R writes the
# standby settings), then started as a hot standby. PGPASSWORD comes from the compose file.
set -euo pipefail
if [ ! -s "$PGDATA/PG_VERSION" ]; then
  until pg_basebackup -h db -U genebank -D "$PGDATA" -R -X stream -c fast; do
    echo "waiting for the primary to accept a base backup"; sleep 2
    rm -rf "${PGDATA:?}"/*
  done
  chown -R postgres:postgres "$PGDATA"
  chmod 700 "$PGDATA"
fi
exec gosu postgres postgres -c hot_standby=on
