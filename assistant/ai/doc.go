// Package ai is the assistant: provider wire clients, the agent loop, the
// conversation and the context built from the session record.
//
// qsh-assistant (assistant/ai/remote) parses a [Config] from the environment, makes one [Agent] per
// session with [New], and answers each `?` line with [Agent.Ask]. The
// clients in assistant/ai/openai and assistant/ai/anthropic are plain net/http; PROVIDERS.md
// says why and what that saves at start-up.
package ai
