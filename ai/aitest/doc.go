// Package aitest runs fake OpenAI and Anthropic servers for tests. Each
// server plays a script of [Reply] values, one per request, sends them as
// the real APIs stream them (server-sent events, arguments split across
// chunks, parallel tool calls, usage), and records every request so tests
// can assert on what the client sent.
//
// Point the assistant at one with QSH_AI_BASE_URL=[Server.URL]; the URL is
// on loopback, so a qsh binary started by a test can reach it too.
package aitest
