package main

import (
	"slices"
	"testing"
)

func TestWithKeys(t *testing.T) {
	t.Parallel()
	own := []string{"PATH=/bin", "OPENAI_API_KEY=sk-own", "ANTHROPIC_API_KEY=sk-ant", "QSH_AI_MODEL=start"}
	session := []string{"PATH=/usr/bin", "QSH_AI_MODEL=rc", "ANTHROPIC_API_KEY=sk-rc"}
	want := []string{"PATH=/usr/bin", "QSH_AI_MODEL=rc", "ANTHROPIC_API_KEY=sk-rc", "OPENAI_API_KEY=sk-own"}
	if got := withKeys(session, own); !slices.Equal(got, want) {
		t.Errorf("withKeys = %q, want %q", got, want)
	}
	if got := withKeys(nil, own); !slices.Equal(got, own) {
		t.Errorf("without a session: %q", got)
	}
}
