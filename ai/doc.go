// Package ai is the assistant: provider wire clients, the agent loop, the
// conversation and the context built from the session record.
package ai
