// Package mcp offers the tools of Model Context Protocol servers as qsh
// tools ([tools.Tool]), named mcp_<server>_<tool>.
//
// Nothing happens when a [Manager] is made: the configuration is read and
// the servers start on the first call to [Manager.Tools], in parallel and
// each with a start-up timeout. A server that fails costs its own tools and
// one warning line; the next call tries it again.
package mcp
