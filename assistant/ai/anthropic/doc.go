// Package anthropic is a small streaming client for the Anthropic Messages
// API: streamed text, tool_use blocks, tool_result turns and usage.
package anthropic
