#!/bin/bash
# Run once by the postgres image on an empty primary: let the replica stream over the network with
# the same password-checked user (scram-sha-256).
set -euo pipefail
echo "host replication genebank all scram-sha-256" >> "$PGDATA/pg_hba.conf"
