// Package aitest runs fake OpenAI, Anthropic and Ollama servers for tests.
// Each server plays a script of [Reply] values, one per request, sends them
// as the real APIs stream them (server-sent events, arguments split across
// chunks, parallel tool calls, usage), and records every request so tests
// can assert on what the client sent. The Ollama fake ([NewOllama]) plays
// what a real Ollama server showed: its 400 for a model without tools, tool
// calls whole in one chunk, a window that cuts long prompts, /api/show and
// /api/ps; any server can stream for ever ([Reply.Forever]) or end a
// stream early ([Reply.EndAfter], [Reply.CutAfter]).
//
// Point the assistant at one with QSH_AI_BASE_URL=[Server.URL]; the URL is
// on loopback, so a qsh binary started by a test can reach it too.
package aitest
