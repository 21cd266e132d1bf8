#!/bin/sh
# Add Genebank's MCP server to Claude Code (add `--scope project` to share it through .mcp.json).
claude mcp add genebank \
  --env GENEBANK_URL=http://127.0.0.1:8000 \
  --env GENEBANK_KEY=gb_… \
  --env GENEBANK_CONSUMER_MODEL=claude-sonnet-4-5 \
  -- genebank mcp
