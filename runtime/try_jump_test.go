package runtime_test

import (
	"context"
	"testing"

	"github.com/cogflow/cogflow/runtime"
)

// TestTryFallbackJumps: break and continue in a try's fallback end or
// go on with the enclosing loop, as they do anywhere in its body.
func TestTryFallbackJumps(t *testing.T) {
	for _, c := range []struct {
		jump, clicks string
	}{
		{"break", "Less,Done"},
		{"continue", "Less,Less,Less,Done"},
	} {
		t.Run(c.jump, func(t *testing.T) {
			file, task, info := load(t, `task t {
  driver browser
  repeat 3 {
    try {
      op1 = click(button(name: "Publish"))
    } fallback {
      op2 = click(button(name: "Less"))
      `+c.jump+`
    }
    op3 = click(button(name: "More"))
  }
  op4 = click(button(name: "Done"))
}`)
			f := controlPage("Less", "More", "Done")
			if _, err := runtime.New(file, task, info, f, runtime.Options{}).Run(context.Background()); err != nil {
				t.Fatal(err)
			}
			if got := clicked(f); got != c.clicks {
				t.Errorf("clicked %q, want %q", got, c.clicks)
			}
		})
	}
}
