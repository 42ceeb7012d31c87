// Package openai is a small streaming client for the OpenAI Chat Completions
// API and the servers that copy it (Ollama's /v1, LM Studio, vLLM, llama.cpp,
// OpenRouter, Groq). It speaks only what the assistant needs: streamed text,
// tool calls and usage.
package openai
