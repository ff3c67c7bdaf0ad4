package model

import (
	"context"
	"errors"
	"strings"
	"testing"
)

// TestHugeAnswerNotEchoed: an invalid answer of a megabyte goes back to
// the model in the repair request cut to maxEcho bytes with a marker, and
// the error quotes a short excerpt only.
func TestHugeAnswerNotEchoed(t *testing.T) {
	cands := results(eightResults...)
	huge := "The answer is " + strings.Repeat("é", 1<<19) // 1 MB, 2-byte characters
	f := script(huge, huge)
	_, err := NewLLM(f, Options{}).Answer(context.Background(), elementReq("Kilimanjaro", cands))
	if !errors.Is(err, ErrInvalidAnswer) {
		t.Fatalf("err = %v, want an invalid answer", err)
	}
	if len(err.Error()) > 600 {
		t.Errorf("the error has %d bytes; it must quote the answer short", len(err.Error()))
	}
	if f.calls() != 2 {
		t.Fatalf("%d calls, want 2", f.calls())
	}
	echoed := f.reqs[1].Messages[2].Content
	if len(echoed) > maxEcho+100 || !strings.HasPrefix(echoed, "The answer is é") ||
		!strings.HasSuffix(echoed, "… [cut by cogflow: the answer had 1048590 bytes]") || !strings.Contains(echoed, "é…") {
		t.Errorf("the repair request repeats %d bytes: %.80q…%q", len(echoed), echoed, echoed[max(0, len(echoed)-60):])
	}
	total := 0
	for _, m := range f.reqs[1].Messages {
		total += len(m.Content)
	}
	if total > 64<<10 {
		t.Errorf("the repair request has %d bytes", total)
	}
}
