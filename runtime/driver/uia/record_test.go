package uia

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cogflow/cogflow/compiler"
	"github.com/cogflow/cogflow/runtime/trace"
)

// TestRecord feeds hook events over the Monster window to the recorder
// and checks the trace: kinds, targets, the double click, typing folded
// into input events with the field's final value, the stop chord; then
// that the trace validates and compiles into a uia workflow.
func TestRecord(t *testing.T) {
	root := monsterRoot(t)
	f := newFake(root)
	edit := root.Children[1] // MonsterEdit's TextBox, focused in the snapshot
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	events := make(chan hookEvent, 32)
	for _, ev := range []hookEvent{
		{Mouse: true, Button: "left", X: 1216, Y: 390, Time: at(100)},  // the "<" button
		{Mouse: true, Button: "left", X: 1217, Y: 391, Time: at(300)},  // … again: a double click
		{Mouse: true, Button: "left", X: 1950, Y: 500, Time: at(1000)}, // list item Birds
		{Mouse: true, Button: "left", X: 300, Y: 790, Time: at(2000)},  // the text box
		{VK: vkShift, Shift: true, Time: at(2100)},                     // a modifier alone: nothing
		{VK: 'K', Char: "K", Shift: true, Time: at(2200)},
		{VK: 'I', Char: "i", Time: at(2300)},
		{VK: vkBack, Time: at(2400)},
		{VK: 'A', Char: "a", Time: at(2500)},
		{VK: vkReturn, Char: "\r", Time: at(2600)},
		{VK: 'X', Char: "X", Ctrl: true, Shift: true, Time: at(2700)},   // the stop chord
		{Mouse: true, Button: "right", X: 1216, Y: 390, Time: at(2800)}, // after the stop
	} {
		events <- ev
	}
	close(events)
	// What the application made of the keys, read when the typing ends.
	edit.Value = "Ka"
	tr, err := record(context.Background(), f, events, RecordOptions{App: "Monster.exe"}, t0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, e := range tr.Events {
		s := string(e.Kind)
		if e.Target != nil {
			s += " " + e.Target.Role + ":" + firstOf(e.Target.Name, e.Target.Class)
		}
		if e.Key != nil {
			s += " key=" + e.Key.Key
		}
		if e.Text != "" {
			s += " text=" + e.Text
		}
		if e.Value != "" {
			s += " value=" + e.Value
		}
		got = append(got, s)
	}
	want := []string{
		"dblclick button:<",
		"click listitem:Birds",
		"click textbox:TextBox",
		"keydown textbox:TextBox key=K text=K",
		"input textbox:TextBox text=K",
		"keydown textbox:TextBox key=i text=i",
		"input textbox:TextBox text=i",
		"keydown textbox:TextBox key=Backspace",
		"keydown textbox:TextBox key=a text=a",
		"input textbox:TextBox text=a",
		"input textbox:TextBox value=Ka",
		"keydown textbox:TextBox key=Enter",
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("events\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if tr.Driver != "uia" || tr.Start.App != "Monster.exe" || tr.Events[0].Snapshot == "" || tr.Events[1].Target.Context == nil || tr.Events[1].Target.Context.List == nil {
		t.Errorf("trace head or context: %+v %+v", tr.Start, tr.Events[1].Target.Context)
	}
	if tr.Events[1].Time != 1000 {
		t.Errorf("time of the list click %d, want 1000", tr.Events[1].Time)
	}

	data, err := trace.Marshal(tr)
	if err != nil {
		t.Fatal(err)
	}
	back, err := trace.Parse(data)
	if err != nil {
		t.Fatalf("the recorded trace does not validate: %v", err)
	}
	res, err := compiler.Compile(back, compiler.Options{Filename: "uia.trace.json"})
	if err != nil {
		t.Fatalf("compile: %v\n%s", err, res.Source)
	}
	src := string(res.Source)
	// Compiled without a model, the click on a list item is the item the
	// demonstration chose (with a warning), not a TODO choice.
	for _, w := range []string{"driver uia", "double_click(button(", `click(listitem(name: "Birds"))`, "type(textbox, ", `"Ka"`, "enter(textbox)"} {
		if !strings.Contains(src, w) {
			t.Errorf("compiled workflow lacks %q:\n%s", w, src)
		}
	}
}

// TestRecordErrors checks the stop chord's validation and that an event
// UIA cannot place is left out with a warning.
func TestRecordErrors(t *testing.T) {
	f := newFake(monsterRoot(t))
	if _, err := record(context.Background(), f, nil, RecordOptions{StopChord: "X"}, time.Now()); err == nil {
		t.Error("a stop chord without modifier is accepted")
	}
	if _, err := record(context.Background(), f, nil, RecordOptions{StopChord: "Hyper+X"}, time.Now()); err == nil {
		t.Error("a bad stop chord is accepted")
	}
	events := make(chan hookEvent, 2)
	events <- hookEvent{Mouse: true, Button: "left", X: -5, Y: -5, Time: time.Now()}
	close(events)
	var warned []error
	tr, err := record(context.Background(), f, events, RecordOptions{StopChord: "none", Warn: func(err error) { warned = append(warned, err) }}, time.Now())
	if err != nil || len(tr.Events) != 0 || len(warned) != 1 || !strings.Contains(warned[0].Error(), "element at -5,-5") {
		t.Errorf("events %v, warnings %v, %v", tr.Events, warned, err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if tr, err := record(ctx, f, make(chan hookEvent), RecordOptions{}, time.Now()); err != nil || tr == nil {
		t.Errorf("a cancelled recording: %v %v", tr, err)
	}
}

// TestRecordClicks checks what makes two presses a double click: the same
// button and place within 500 ms, and nothing between them.
func TestRecordClicks(t *testing.T) {
	t0 := time.Now()
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	press := func(ms, x int, button string) hookEvent {
		return hookEvent{Mouse: true, Button: button, X: x, Y: 390, Time: at(ms)}
	}
	tests := []struct {
		name   string
		events []hookEvent
		want   string
	}{
		{"double", []hookEvent{press(0, 1216, "left"), press(400, 1218, "left")}, "dblclick"},
		{"too slow", []hookEvent{press(0, 1216, "left"), press(600, 1216, "left")}, "click click"},
		{"moved", []hookEvent{press(0, 1216, "left"), press(100, 1240, "left")}, "click click"},
		{"right", []hookEvent{press(0, 1216, "right"), press(100, 1216, "right")}, "rightclick rightclick"},
		{"key between", []hookEvent{press(0, 1216, "left"), {VK: vkEscape, Time: at(50)}, press(100, 1216, "left")}, "click keydown click"},
		{"triple", []hookEvent{press(0, 1216, "left"), press(100, 1216, "left"), press(200, 1216, "left")}, "dblclick click"},
	}
	for _, tt := range tests {
		events := make(chan hookEvent, len(tt.events))
		for _, ev := range tt.events {
			events <- ev
		}
		close(events)
		tr, err := record(context.Background(), newFake(monsterRoot(t)), events, RecordOptions{}, t0)
		if err != nil {
			t.Fatal(err)
		}
		var kinds []string
		for _, e := range tr.Events {
			kinds = append(kinds, string(e.Kind))
		}
		if got := strings.Join(kinds, " "); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
	}
}
