// Package mcp offers the tools of Model Context Protocol servers as qsh
// tools ([tools.Tool]), named mcp_<server>_<tool>.
//
// The servers are configured in the JSON other MCP clients use:
//
//	{"mcpServers": {
//	  "github": {"command": "npx", "args": ["-y", "@modelcontextprotocol/server-github"],
//	             "env": {"GITHUB_PERSONAL_ACCESS_TOKEN": "${GITHUB_TOKEN}"}},
//	  "docs":   {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ${DOCS_TOKEN}"}}
//	}}
//
// Nothing happens when a [Manager] is made: the configuration is read and
// the servers start on the first call to [Manager.Tools] (through
// [Set.Prepare], once per turn), in parallel and each with a start-up
// timeout. A server that fails costs its own tools and one warning line;
// the next turn tries it again. [Manager.Close] stops them all.
package mcp
