package compiler

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// An Android trace starts with a launch of the recorded app, and its key
// names become the language's: BACK is back(), HOME is key("Home").
func TestCompileAndroidTrace(t *testing.T) {
	tr := trace.New(trace.DriverAndroid)
	tr.Start.App = "com.example.contacts/.MainActivity"
	tr.Snapshots = map[string]trace.Snapshot{"s1": {Elements: []trace.Element{
		{Ref: "n0", Attributes: trace.Attributes{Class: "android.widget.FrameLayout", Path: "FrameLayout"}, Parent: -1},
		{Ref: "n1", Attributes: trace.Attributes{Role: "button", Name: "Add contact", ID: "fab_add", Path: "FrameLayout/ImageButton"}, Parent: 0},
		{Ref: "n2", Attributes: trace.Attributes{Role: "region", ID: "pager", Class: "androidx.viewpager.widget.ViewPager", Path: "FrameLayout/ViewPager"}, Parent: 0},
	}}}
	key := func(name string) *trace.Key { return &trace.Key{Key: name, Code: "KEYCODE_" + name} }
	tr.Events = []trace.Event{
		{ID: "e1", Time: 10, Kind: trace.KindClick, Target: &trace.Target{Ref: "n1"}, Snapshot: "s1"},
		{ID: "e2", Time: 20, Kind: trace.KindKeyDown, Key: key("BACK")},
		{ID: "e3", Time: 30, Kind: trace.KindKeyDown, Key: key("HOME")},
		{ID: "e4", Time: 40, Kind: trace.KindKeyDown, Key: key("APP_SWITCH")},
		// The recorder's virtual scroll position: y for vertical swipes, x
		// for horizontal ones (x grows as the finger goes left).
		{ID: "e5", Time: 50, Kind: trace.KindScroll, Y: 500},
		{ID: "e6", Time: 60, Kind: trace.KindScroll, Y: 900},
		{ID: "e7", Time: 70, Kind: trace.KindScroll, X: 540, Y: 900, Target: &trace.Target{Ref: "n2"}, Snapshot: "s1"},
		{ID: "e8", Time: 80, Kind: trace.KindScroll, X: 0, Y: 900, Target: &trace.Target{Ref: "n2"}, Snapshot: "s1"},
		{ID: "e9", Time: 90, Kind: trace.KindScroll, Y: 400},
	}
	if err := tr.Validate(); err != nil {
		t.Fatal(err)
	}
	res, err := Compile(tr, Options{})
	if err != nil {
		t.Fatalf("%v\n%s", err, res.Source)
	}
	src := string(res.Source)
	for _, want := range []string{
		"driver android",
		`op1 = launch("com.example.contacts/.MainActivity")`,
		`op2 = click(button(name: "Add contact", id: "fab_add"))`,
		"op3 = back()",
		`op4 = key("Home")`,
		`op5 = key("AppSwitch")`,
		`op6 = scroll(direction: "down")`,
		"# e5, e6\n",                         // one scroll for both
		`anchor pager = region(id: "pager")`, // swiped twice: an anchor
		`op7 = swipe("left", target: pager)`,
		`op8 = swipe("right", target: pager)`,
		`op9 = scroll(direction: "up")`,
	} {
		if !strings.Contains(src, want) {
			t.Errorf("no %s in:\n%s", want, src)
		}
	}

	// Without a start app there is nothing to launch; a browser trace is
	// left alone.
	tr.Start.App = ""
	res, err = Compile(tr, Options{})
	if err != nil || strings.Contains(string(res.Source), "launch(") {
		t.Errorf("launch without a start app (%v):\n%s", err, res.Source)
	}
	ops := androidOps(&trace.Trace{Driver: trace.DriverBrowser, Start: trace.Start{App: "x"}}, []operation{{Action: "key", Text: "BACK"}})
	if len(ops) != 1 || ops[0].Action != "key" {
		t.Errorf("a browser trace's ops changed: %+v", ops)
	}
}
