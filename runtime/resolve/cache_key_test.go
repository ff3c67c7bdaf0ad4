package resolve

import (
	"context"
	"testing"

	"github.com/cogflow/cogflow/lang/types"
	"github.com/cogflow/cogflow/runtime"
)

// TestCacheKeyCoversScreen: a dependency that reads the screen is a new
// question on a new screen, and the same question on the same screen; a
// dependency that works on its inputs alone does not depend on the screen.
// (examples/wiki_glossary.cog's paragraph, read with no inputs, was served
// the first article's answer on every later article.)
func TestCacheKeyCoversScreen(t *testing.T) {
	const kenya = "Mount Kenya\nMount Kenya is an extinct stratovolcano in central Kenya."
	const serengeti = "Serengeti\nThe Serengeti is a vast ecosystem of grassland in northern Tanzania."
	noInputs := func(screen string) *runtime.Request {
		r := textReq("", "extract_information", "the first paragraph of the article", types.TextT, "")
		r.Inputs, r.ScreenText = nil, screen
		return r
	}
	onInputs := func(screen string) *runtime.Request {
		r := textReq("", "summarize", "in one sentence", types.TextT, "a paragraph")
		r.ScreenText = screen
		return r
	}
	recall := func(screen string) *runtime.Request {
		r := textReq("information_recall", "extract_information", "the height", types.TextT, "Mount Kenya")
		r.ScreenText = screen
		return r
	}
	tests := []struct {
		name       string
		req        func(screen string) *runtime.Request
		wantCached bool // on the second screen, after the first was answered
	}{
		{"no inputs: reads the screen", noInputs, false},
		{"recall with inputs: reads the screen", recall, false},
		{"works on its inputs: the screen does not matter", onInputs, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f := script("first answer", "second answer")
			r := NewLLM(f, Options{Cache: NewCache(t.TempDir())})
			ctx := context.Background()
			if a, err := r.Resolve(ctx, tt.req(kenya)); err != nil || a.Text != "first answer" {
				t.Fatalf("first screen: %+v, %v", a, err)
			}
			a, err := r.Resolve(ctx, tt.req(serengeti))
			if err != nil {
				t.Fatal(err)
			}
			if a.Cached != tt.wantCached {
				t.Errorf("second screen: cached %v, want %v (answer %q)", a.Cached, tt.wantCached, a.Text)
			}
			// The first screen again is the first question again.
			a, err = r.Resolve(ctx, tt.req(kenya))
			if err != nil || !a.Cached || a.Text != "first answer" {
				t.Errorf("first screen again: %+v, %v; want the first answer from the cache", a, err)
			}
		})
	}
}
