package llm_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/runtime/llm"
	"github.com/cogflow/cogflow/runtime/llm/llmtest"
)

// TestResponseSizeCap: an answer over the cap fails the request at once,
// without a retry and without being read whole; one under it is read.
func TestResponseSizeCap(t *testing.T) {
	for _, tc := range []struct {
		name  string
		text  string
		limit int64
		ok    bool
	}{
		{"small answer", "Kilimanjaro.", 4096, true},
		{"over a small cap", strings.Repeat("a", 5000), 4096, false},
		{"8 MB over the default cap", strings.Repeat("a", 8<<20), 0, false},
		{"just under the default cap", strings.Repeat("a", llm.DefaultMaxResponseBytes-1000), 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := llmtest.New(t, llmtest.Rule{Name: "any", Reply: llmtest.Text(tc.text)}).RequireKey(testKey)
			c := newClient(t, srv.URL(), &waits{}, func(cfg *llm.Config) { cfg.MaxResponseBytes = tc.limit })
			res, err := c.Complete(context.Background(), request("Which mountain?"))
			if tc.ok {
				if err != nil || res.Text != tc.text {
					t.Fatalf("err %v", err)
				}
				return
			}
			if !errors.Is(err, llm.ErrResponseTooLarge) || !strings.Contains(err.Error(), "bytes, so it was not read") {
				t.Fatalf("err = %v, want ErrResponseTooLarge", err)
			}
			if len(err.Error()) > 300 {
				t.Errorf("the error is %d bytes long: it must not carry the answer", len(err.Error()))
			}
			if n := srv.Count(); n != 1 {
				t.Errorf("%d requests, want 1 (not retried)", n)
			}
		})
	}
}

// TestEndlessResponse: a body that never ends is cut at the cap, so the
// client's memory stays bounded.
func TestEndlessResponse(t *testing.T) {
	for _, status := range []int{http.StatusOK, http.StatusInternalServerError} {
		ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(status)
			w.Write([]byte(`{"choices":[{"message":{"role":"assistant","content":"`))
			chunk := []byte(strings.Repeat("a", 64<<10))
			for r.Context().Err() == nil {
				if _, err := w.Write(chunk); err != nil {
					return
				}
			}
		}))
		c := newClient(t, ts.URL+"/v1", &waits{}, func(cfg *llm.Config) { cfg.MaxResponseBytes = 1 << 16 })
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		_, err := c.Complete(ctx, request("Which mountain?"))
		cancel()
		ts.Close()
		if !errors.Is(err, llm.ErrResponseTooLarge) {
			t.Errorf("status %d: err = %v, want ErrResponseTooLarge", status, err)
		}
	}
}
