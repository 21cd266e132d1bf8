"""Genebank's client-side packages: `genebank.client` (HTTP client, command line, MCP server)."""
