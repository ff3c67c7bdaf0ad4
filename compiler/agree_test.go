package compiler

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"golang.org/x/tools/txtar"

	"github.com/cogflow/cogflow/runtime"
	"github.com/cogflow/cogflow/runtime/driver"
	"github.com/cogflow/cogflow/runtime/trace"
)

// runtimePicks anchors a compiled description on the recorded snapshot as
// a running workflow does (runtime.Choose, within: taking the descendants
// of the element its own description picks) and returns the chosen
// element's index in the snapshot, -1 for an anchoring error.
func runtimePicks(t *testing.T, s *trace.Snapshot, d *targetDesc) int {
	t.Helper()
	tree := driver.TreeOf(*s)
	cands := tree.Elements
	if d.Within != nil {
		w := runtimePicks(t, s, d.Within)
		if w < 0 {
			return -1
		}
		cands = nil
		for i := range s.Elements {
			if i != w && under(s, i, w) {
				cands = append(cands, tree.Elements[i])
			}
		}
	}
	l := &runtime.Locator{Role: d.Ctor, Attrs: map[string]string{}, Index: -1}
	for _, a := range d.Attrs {
		if a.Name == "role" {
			l.Role = a.Value
			continue
		}
		l.Attrs[a.Name] = a.Value
	}
	el, err := runtime.Choose(l, cands)
	if err != nil {
		return -1
	}
	for i, e := range tree.Elements {
		if e == el {
			return i
		}
	}
	return -1
}

// snapshotOf builds a snapshot from elements given as "ref role name
// [text]" lines under one root.
func snapshotOf(lines ...string) *trace.Snapshot {
	s := &trace.Snapshot{Elements: []trace.Element{{Ref: "root", Parent: -1, Attributes: trace.Attributes{Role: "region", Path: "main", Visible: true}}}}
	for i, l := range lines {
		f := strings.Split(l, "|")
		e := trace.Element{Ref: f[0], Parent: 0, Attributes: trace.Attributes{Role: f[1], Name: f[2], Visible: true,
			Path: "main/x[" + string(rune('1'+i)) + "]"}}
		if len(f) > 3 {
			e.Text = f[3]
		}
		if len(f) > 4 {
			e.ID = f[4]
		}
		if len(f) > 5 && f[5] == "hidden" {
			e.Visible = false
		}
		s.Elements = append(s.Elements, e)
	}
	return s
}

// TestDescriptionAgreesWithAnchoring: for each snapshot and target, the
// description the compiler writes is Unique exactly when the runtime's
// anchoring picks the target with it, and it always does for a Unique one.
func TestDescriptionAgreesWithAnchoring(t *testing.T) {
	tests := []struct {
		name   string
		snap   *trace.Snapshot
		target string // ref of the demonstrated element
		want   string // the description written
	}{
		{"a unique name", snapshotOf("a|button|Save", "b|button|Cancel"), "a", `button(name: "Save")`},
		{"names differing in case only: the case written picks one", snapshotOf("a|button|previous", "b|button|Previous"), "a", `button(name: "previous")`},
		{"names differing in spacing only: the spacing written picks one", snapshotOf("a|button|Save  draft", "b|button|save draft"), "b", `button(name: "save draft")`},
		{"names differing in case, none as written", snapshotOf("a|button|previous", "b|button|PREVIOUS", "c|button|Previous"), "a", `button(name: "previous")`},
		{"an id tells them apart", snapshotOf("a|button|OK||ok1", "b|button|ok||ok2"), "b", `button(name: "ok", id: "ok2")`},
		{"an exact text beats a containing one", snapshotOf("a|link||Delete", "b|link||Delete all"), "a", `link(text: "Delete")`},
		{"the same name, one hidden", snapshotOf("a|button|Next", "b|button|Next|||hidden"), "a", `button(path: "main/x[1]")`},
		{"another role with the name", snapshotOf("a|button|Search", "b|textbox|Search"), "a", `button(name: "Search")`},
		{"a close glyph beside a close word: the exact name wins", snapshotOf("a|button|×", "b|button|Close"), "a", `button(name: "×")`},
	}
	tr := trace.New(trace.DriverBrowser)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr.Snapshots = map[string]trace.Snapshot{"s1": *tt.snap}
			s := tr.Snapshots["s1"]
			idx := -1
			for i := range s.Elements {
				if s.Elements[i].Ref == tt.target {
					idx = i
				}
			}
			d := describe(tr, &trace.Target{Ref: tt.target}, "s1")
			if got := d.String(); got != tt.want {
				t.Errorf("described as %s, want %s", got, tt.want)
			}
			got := runtimePicks(t, &s, d)
			if d.Unique && got != idx {
				t.Errorf("%s is Unique but anchoring picks %d, not %d", d, got, idx)
			}
			if !d.Unique && got == idx && chosen(&s, d.Ctor, d.Attrs, -1) == idx && count(&s, d.Ctor, d.Attrs, -1) == 1 {
				t.Errorf("%s is not Unique, yet both measures pick it", d)
			}
		})
	}
}

// TestRecordedDescriptionsAnchor: over every recorded target of the
// compiler's test traces, a description the compiler calls Unique is
// anchored by the runtime, on the recorded snapshot, to the demonstrated
// element.
func TestRecordedDescriptionsAnchor(t *testing.T) {
	var traces []*trace.Trace
	goldens, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, p := range goldens {
		ar, err := txtar.ParseFile(p)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range ar.Files {
			if f.Name == goldenTrace {
				if tr, err := trace.Read(bytes.NewReader(f.Data)); err == nil {
					traces = append(traces, tr)
				}
			}
		}
	}
	plain, _ := filepath.Glob("testdata/*.trace.json")
	for _, p := range plain {
		data, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if tr, err := trace.Read(bytes.NewReader(data)); err == nil {
			traces = append(traces, tr)
		}
	}
	unique, agree := 0, 0
	for _, tr := range traces {
		for _, e := range tr.Events {
			if e.Target == nil || e.Snapshot == "" || e.Target.Ref == "" {
				continue
			}
			_, s, idx := findInSnapshot(tr, e.Target, e.Snapshot)
			if s == nil || idx < 0 {
				continue
			}
			d := describe(tr, e.Target, e.Snapshot)
			if !d.Unique {
				continue
			}
			unique++
			if got := runtimePicks(t, s, d); got != idx {
				t.Errorf("%s %s: %s is Unique, but anchoring picks element %d, not %d", tr.Title, e.ID, d, got, idx)
				continue
			}
			agree++
		}
	}
	if unique < 50 {
		t.Errorf("only %d Unique descriptions among the test traces; the check needs more", unique)
	}
	t.Logf("%d of %d Unique descriptions anchor to the demonstrated element", agree, unique)
}
