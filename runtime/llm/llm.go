// Package llm is cogflow's narrow view of a language model: one chat
// completion at a time, with the tokens it cost. The OpenAI-compatible
// client (any endpoint: OpenAI, Ollama, vLLM, llama.cpp server) implements
// it through go-openai; tests use llmtest's scripted server behind the same
// client.
package llm

import (
	"context"
	"time"
)

// Message is one chat message.
type Message struct {
	Role    string // "system", "user" or "assistant"
	Content string
}

// Request is one chat completion.
type Request struct {
	Model       string
	Messages    []Message
	Temperature float32
	MaxTokens   int // 0: the endpoint's default
}

// Response is a completion and what it cost.
type Response struct {
	Text      string
	Model     string
	TokensIn  int
	TokensOut int
	Latency   time.Duration
	// Attempts counts the requests made, retries included.
	Attempts int
}

// Client completes chats.
type Client interface {
	Complete(ctx context.Context, r Request) (*Response, error)
}
