package temporalrun

import (
	"testing"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/journal"
	"github.com/cogflow/cogflow/runtime/redact"
)

func TestInDoubtRule(t *testing.T) {
	item := func(i int) []journal.LoopPos { return []journal.LoopPos{{Var: "row", Index: i, Key: "k"}} }
	click := func(step string, loop []journal.LoopPos, outcome string) Mark {
		return Mark{Step: step, Line: 9, Op: "click", Loop: loop, Outcome: outcome}
	}
	tests := []struct {
		name string
		p    Progress
		want string // the step in doubt, "" for none
	}{
		{"nothing started", Progress{Run: "r"}, ""},
		{"only browser steps (counted, not listed)", Progress{Run: "r", Steps: 3}, ""},
		{"a click acting when the worker died", Progress{Run: "r", Effects: []Mark{click("op4", nil, "")}}, "op4"},
		{"a click that finished outside loops", Progress{Run: "r", Effects: []Mark{click("op4", nil, "ok")}}, "op4"},
		{"the last of two", Progress{Run: "r", Effects: []Mark{click("op2", nil, "ok"), click("op4", nil, "")}}, "op4"},
		{"a click in a finished item", Progress{Run: "r", Effects: []Mark{click("op4", item(0), "ok")}, Done: [][]journal.LoopPos{item(0)}}, ""},
		{"a click in the unfinished item", Progress{Run: "r", Effects: []Mark{click("op4", item(0), "ok"), click("op4", item(1), "")},
			Done: [][]journal.LoopPos{item(0)}}, "op4"},
		{"an inner loop inside a finished outer item", Progress{Run: "r",
			Effects: []Mark{click("op7", append(item(0), journal.LoopPos{Var: "cell", Index: 2}), "ok")},
			Done:    [][]journal.LoopPos{item(0)}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m, ok := tt.p.InDoubt()
			got := ""
			if ok {
				got = m.Step
			}
			if got != tt.want {
				t.Errorf("InDoubt = %q, want %q", got, tt.want)
			}
			if ok && tt.want == "op4" && len(tt.p.Effects) == 2 && m.Outcome != "" {
				t.Errorf("InDoubt returned the finished mark, want the last")
			}
		})
	}
}

func TestEffectful(t *testing.T) {
	for op, want := range map[string]bool{"click": true, "key": true, "drag": true, "type": false, "open": false, "wait": false} {
		if got := effectful(op); got != want {
			t.Errorf("effectful(%s) = %v, want %v", op, got, want)
		}
	}
}

// A cancel stops a row at once, unless a step with an effect beyond the
// browser started in its loop item: then when that item ends.
func TestCancelWaitsForTheItemInDoubt(t *testing.T) {
	item0 := []runtime.LoopPos{{Var: "row", Index: 0, Key: "a"}}
	tests := []struct {
		name     string
		intents  []runtime.StepReport
		stopsNow bool
	}{
		{"nothing acted", nil, true},
		{"only typing", []runtime.StepReport{{Step: "op2", Op: "type", Loops: item0}}, true},
		{"a click in the item", []runtime.StepReport{{Step: "op4", Op: "click", Loops: item0}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h := newHeartbeat(nil, nil, redact.New(), Progress{})
			for _, s := range tt.intents {
				if effectful(s.Op) { // Intent would send it; here the mark alone
					h.p.Effects = append(h.p.Effects, Mark{Step: s.Step, Op: s.Op, Loop: h.loops(s.Loops)})
				}
			}
			h.cancel()
			if got := closed(h.stop); got != tt.stopsNow {
				t.Fatalf("stopped at once: %v, want %v", got, tt.stopsNow)
			}
			h.IterationDone(item0)
			if !closed(h.stop) {
				t.Fatal("not stopped when the item ended")
			}
			if h.lostErr() != nil {
				t.Fatalf("a cancel is not a lost attempt: %v", h.lostErr())
			}
		})
	}
}

func closed(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
