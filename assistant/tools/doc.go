// Package tools holds what the assistant may call — filesystem,
// execute_command, web_search — with the registry, the confirmation policy
// and the audit log.
package tools
