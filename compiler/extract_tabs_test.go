package compiler

import (
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

func TestWindowName(t *testing.T) {
	x := &extractor{ops: []operation{{Action: "type", Text: "Mount Kenya"}, {Action: "type", Text: "ab"}}}
	for _, tt := range []struct {
		title, url, want string
	}{
		{"Notes", "http://127.0.0.1:8088/notes", "Notes"},
		{"Mount Kenya – Wiki", "http://127.0.0.1:8088/wiki/Mount_Kenya", "127.0.0.1:8088/wiki/"},
		{"Mount Kenya – Wiki", "http://127.0.0.1:8088/wiki/Mount%20Kenya?x=1", "127.0.0.1:8088/wiki/"},
		{"Search: mount kenya", "http://127.0.0.1:8088/search?q=Mount+Kenya", "127.0.0.1:8088/search"},
		{"", "http://127.0.0.1:8088/wiki/Mount-Kenya#top", "127.0.0.1:8088/wiki/"},
		{"About ab", "http://h/ab", "About ab"},                       // "ab" is too short to be data
		{"Mount Kenya", "http://mount-kenya.example/", "Mount Kenya"}, // nothing stable left in the URL
		{"Kenya travel", "not a url", "Kenya travel"},
	} {
		if got := x.windowName(&trace.Window{Title: tt.title, URL: tt.url}); got != tt.want {
			t.Errorf("windowName(%q, %q) = %q, want %q", tt.title, tt.url, got, tt.want)
		}
	}
}
