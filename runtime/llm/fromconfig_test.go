package llm_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/config"
	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

func TestFromConfig(t *testing.T) {
	srv := llmtest.New(t, llmtest.Rule{Name: "ping", Match: llmtest.LastUserContains("ping"), Reply: llmtest.Text("pong")})
	srv.RequireKey("sk-local") // the key reaches the endpoint
	for _, tt := range []struct {
		name    string
		llm     config.LLM
		client  bool
		wantErr string
	}{
		{"openai without a key: no model", config.LLM{BaseURL: config.DefaultBaseURL}, false, ""},
		{"local endpoint", config.LLM{BaseURL: srv.URL(), APIKey: "sk-local", Timeout: 5 * time.Second, MaxRetries: 1}, true, ""},
		{"bad endpoint", config.LLM{BaseURL: "ftp://example.com/v1", APIKey: "sk-x"}, false, "not an http(s) URL"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c, err := llm.FromConfig(&config.Config{LLM: tt.llm})
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("error %v, want %q", err, tt.wantErr)
				}
				return
			}
			if err != nil || (c != nil) != tt.client {
				t.Fatalf("client %v, error %v", c, err)
			}
			if c == nil {
				return
			}
			resp, err := c.Complete(context.Background(), llm.Request{Model: "m", Messages: []llm.Message{{Role: "user", Content: "ping"}}})
			if err != nil || resp.Text != "pong" {
				t.Fatalf("answer %+v, error %v", resp, err)
			}
		})
	}
}
