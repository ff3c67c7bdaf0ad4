package compiler

import (
	"fmt"
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// screenBigTrace generates a demonstration of about n events over pages
// of 240 text nodes each: a fresh page every 20 events, each with an
// instruction naming a value in quotes and paragraphs of filler words; the
// person types the quoted value, then a value the page does not show,
// into two of its fields (a value no page shows, so that synthesis over
// the earlier values, which the literal compilation skips too, stays
// small next to the screen search the benchmark measures).
func screenBigTrace(n int) *trace.Trace {
	tr := trace.New(trace.DriverBrowser)
	tr.Snapshots = map[string]trace.Snapshot{}
	words := strings.Fields("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega")
	id := 0
	ev := func(e trace.Event) {
		id++
		e.ID, e.Time = fmt.Sprintf("e%d", id), int64(id)
		tr.Events = append(tr.Events, e)
	}
	ev(trace.Event{Kind: trace.KindNavigate, URL: "http://x/"})
	for p := 0; len(tr.Events) < n; p++ {
		sid := fmt.Sprintf("s%d", p+1)
		quoted := fmt.Sprintf("%s %s %d", words[p%len(words)], words[(p*7+3)%len(words)], p)
		els := []trace.Element{{Ref: "root", Parent: -1, Attributes: trace.Attributes{Role: "main", Path: "main"}},
			{Ref: "q", Parent: 0, Attributes: trace.Attributes{Role: "text", ID: "query", Path: "main/div[1]", Text: `Enter "` + quoted + `" into the first field.`, Bounds: trace.Rect{Y: 0, W: 100, H: 10}}}}
		for k := 0; k < 240; k++ {
			var para []string
			for w := 0; w < 12; w++ {
				para = append(para, words[(p*31+k*7+w*3)%len(words)])
			}
			els = append(els, trace.Element{Ref: fmt.Sprintf("t%d", k), Parent: 0, Attributes: trace.Attributes{Role: "text", Path: fmt.Sprintf("main/p[%d]", k+1), Text: strings.Join(para, " ") + fmt.Sprintf(" %d.", k), Bounds: trace.Rect{Y: float64(20 + k), W: 100, H: 1}}})
		}
		for f := 0; f < 2; f++ {
			els = append(els, trace.Element{Ref: fmt.Sprintf("f%d", f), Parent: 0, Attributes: trace.Attributes{Role: "textbox", ID: fmt.Sprintf("field%d", f), Name: fmt.Sprintf("Field %d", f), Editable: true, Path: fmt.Sprintf("main/input[%d]", f+1), Bounds: trace.Rect{Y: float64(300 + 20*f), W: 100, H: 10}}})
		}
		tr.Snapshots[sid] = trace.Snapshot{URL: "http://x/", Elements: els}
		for f, value := range []string{quoted, letters(p)} {
			tgt := &trace.Target{Ref: fmt.Sprintf("f%d", f)}
			ev(trace.Event{Kind: trace.KindClick, Target: tgt, Snapshot: sid, Button: "left"})
			typed := ""
			for _, r := range value {
				typed += string(r)
				ev(trace.Event{Kind: trace.KindKeyDown, Key: &trace.Key{Key: string(r)}})
				ev(trace.Event{Kind: trace.KindInput, Target: tgt, Snapshot: sid, Text: string(r), Value: typed})
			}
		}
	}
	tr.Events = tr.Events[:n]
	return tr
}

// letters is a word of its own for each page, that no page shows.
func letters(p int) string {
	b := []byte("qv")
	for x := p*7919 + 13; len(b) < 8; x /= 5 {
		b = append(b, byte('a'+(x*31+len(b))%26))
	}
	return string(b)
}

// TestScreenBigTrace: the benchmark's trace compiles, and its quoted
// values are read from the screen.
func TestScreenBigTrace(t *testing.T) {
	tr := screenBigTrace(400)
	res, err := Compile(tr, Options{NoCheck: true})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(res.Source), "example:"); n < 5 {
		t.Errorf("only %d values read from the screen:\n%s", n, res.Source)
	}
}

// BenchmarkCompileScreen2000 compiles a 2,000-event trace whose snapshots
// carry 240 text nodes each, literally (no screen search) and with the
// screen search, in the same run: the search may cost at most twice the
// literal compilation.
func BenchmarkCompileScreen2000(b *testing.B) {
	tr := screenBigTrace(2000)
	for _, bc := range []struct {
		name    string
		literal bool
	}{{"literal", true}, {"screen", false}} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := Compile(tr, Options{NoCheck: true, Literal: bc.literal}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
