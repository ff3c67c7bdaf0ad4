package compiler

import (
	"strings"
	"testing"

	"github.com/cogflow/cogflow/runtime/trace"
)

// The synthetic UIA demonstration testdata/uia_menu.trace.json: File >
// Save As... (e1, e2; a WPF-style menu whose items appear under the item
// opened), typing into the document (e3, e4), View > Zoom > Zoom In (e5…e7)
// and a click back in the document (e8). Each click's snapshot was taken
// as the button went down, so it shows what the click before it opened.
const menuTrace = "testdata/uia_menu.trace.json"

const (
	fileSaveAs = `op2 = menu_path(["File", "Save As..."])`
	viewZoomIn = `op6 = menu_path(["View", "Zoom", "Zoom In"])`
)

// snapEl finds an element of a snapshot by ref.
func snapEl(t *testing.T, tr *trace.Trace, snap, ref string) *trace.Element {
	t.Helper()
	s := tr.Snapshots[snap]
	for i := range s.Elements {
		if s.Elements[i].Ref == ref {
			return &s.Elements[i]
		}
	}
	t.Fatalf("no %s in snapshot %s", ref, snap)
	return nil
}

// addEl appends an element to a snapshot under parent (a ref).
func addEl(t *testing.T, tr *trace.Trace, snap, parent string, e trace.Element) {
	t.Helper()
	s := tr.Snapshots[snap]
	e.Parent = -1
	for i := range s.Elements {
		if s.Elements[i].Ref == parent {
			e.Parent = i
		}
	}
	if e.Parent < 0 {
		t.Fatalf("no %s in snapshot %s", parent, snap)
	}
	s.Elements = append(s.Elements, e)
	tr.Snapshots[snap] = s
}

func menuEl(ref, name string) trace.Element {
	return trace.Element{Ref: ref, Attributes: trace.Attributes{Role: "menuitem", Name: name, Text: name, Visible: true, Enabled: true,
		Bounds: trace.Rect{X: 200, Y: 20, W: 100, H: 20}}}
}

// TestMenuPathRewrite checks which runs of menu clicks become menu_path:
// only those the snapshots prove, in UIA traces, unless --no-api-first.
func TestMenuPathRewrite(t *testing.T) {
	tests := []struct {
		name   string
		mutate func(t *testing.T, tr *trace.Trace)
		opts   Options
		want   []string // lines the workflow has
		absent []string // lines it must not have
	}{
		{name: "both paths", want: []string{fileSaveAs, viewZoomIn, `op7 = click(document_box)`},
			absent: []string{"click(menuitem"}},
		{name: "no-api-first", opts: Options{NoAPIFirst: true},
			want:   []string{`op1 = click(menuitem(name: "File"))`, `op2 = click(menuitem(name: "Save As..."))`, `op6 = click(menuitem(name: "Zoom In"))`},
			absent: []string{"menu_path"}},
		{name: "literal", opts: Options{Literal: true}, absent: []string{"menu_path"}},
		{name: "not uia", mutate: func(t *testing.T, tr *trace.Trace) { tr.Driver = trace.DriverAndroid }, absent: []string{"menu_path"}},
		{name: "next item not under the one clicked", mutate: func(t *testing.T, tr *trace.Trace) {
			snapEl(t, tr, "s2", "m.saveas").Parent = 0 // Save As... beside the menu bar, not in File's menu
		}, want: []string{`op1 = click(menuitem(name: "File"))`, `op2 = click(menuitem(name: "Save As..."))`, viewZoomIn}},
		{name: "next item in a submenu of the one clicked", mutate: func(t *testing.T, tr *trace.Trace) {
			s := tr.Snapshots["s2"]
			snapEl(t, tr, "s2", "m.saveas").Parent = indexOf(s, "m.new") // File > New > Save As...
		}, want: []string{`op1 = click(menuitem(name: "File"))`, `op2 = click(menuitem(name: "Save As..."))`, viewZoomIn}},
		{name: "click on the item's text block", mutate: func(t *testing.T, tr *trace.Trace) {
			// ElementFromPoint gives the deepest element: the WPF item's text.
			addEl(t, tr, "s1", "m.file", trace.Element{Ref: "m.file.text", Attributes: trace.Attributes{Role: "text", Name: "_File", Text: "_File", Visible: true}})
			s := tr.Snapshots["s1"]
			tr.Events[0].Target = trace.TargetOf(&s, indexOf(s, "m.file.text"))
		}, want: []string{fileSaveAs, viewZoomIn}},
		{name: "menu already open", mutate: func(t *testing.T, tr *trace.Trace) {
			addEl(t, tr, "s1", "m.file", menuEl("m.saveas", "Save As..."))
		}, want: []string{`op2 = click(menuitem(name: "Save As..."))`, viewZoomIn}},
		{name: "win32 popup named after the item", mutate: func(t *testing.T, tr *trace.Trace) {
			// The submenu is a Menu named "File" beside the menu bar, as
			// Win32 shows one.
			s := tr.Snapshots["s2"]
			s.Elements = append(s.Elements, trace.Element{Ref: "popup", Attributes: trace.Attributes{Role: "menu", Name: "File", Visible: true}, Parent: 0})
			tr.Snapshots["s2"] = s
			snapEl(t, tr, "s2", "m.saveas").Parent = len(s.Elements) - 1
			snapEl(t, tr, "s2", "m.new").Parent = len(s.Elements) - 1
		}, want: []string{fileSaveAs, viewZoomIn}},
		{name: "ctrl click", mutate: func(t *testing.T, tr *trace.Trace) {
			tr.Events[1].Key = &trace.Key{Ctrl: true}
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "no snapshot", mutate: func(t *testing.T, tr *trace.Trace) {
			tr.Events[5].Snapshot = ""
		}, want: []string{fileSaveAs, `op5 = click(menuitem(name: "Zoom"))`}, absent: []string{viewZoomIn}},
		{name: "last item opened a submenu", mutate: func(t *testing.T, tr *trace.Trace) {
			addEl(t, tr, "s8", "m.view", menuEl("m.zoom", "Zoom"))
			addEl(t, tr, "s8", "m.zoom", menuEl("m.zoomin", "Zoom In"))
			addEl(t, tr, "s8", "m.zoomin", menuEl("m.zoom200", "200%"))
		}, want: []string{fileSaveAs, `op4 = click(menuitem(name: "View"))`, `op6 = click(menuitem(name: "Zoom In"))`}, absent: []string{viewZoomIn}},
		{name: "first item inside another item", mutate: func(t *testing.T, tr *trace.Trace) {
			snapEl(t, tr, "s5", "m.view").Parent = 2 // View under File
		}, want: []string{fileSaveAs, `op4 = click(menuitem(name: "View"))`}, absent: []string{viewZoomIn}},
		{name: "back-button click", mutate: func(t *testing.T, tr *trace.Trace) {
			tr.Events[1].Button = trace.ButtonBack // recorded as a click, but not the left button's
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "right click", mutate: func(t *testing.T, tr *trace.Trace) {
			tr.Events[1].Kind, tr.Events[1].Button = trace.KindRightClick, trace.ButtonRight
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "double click", mutate: func(t *testing.T, tr *trace.Trace) {
			tr.Events[1].Kind = trace.KindDblClick
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "item without a name", mutate: func(t *testing.T, tr *trace.Trace) {
			e := snapEl(t, tr, "s2", "m.saveas")
			e.Name, e.Text, e.ID = "", "", "saveAs"
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "content too deep under the item", mutate: func(t *testing.T, tr *trace.Trace) {
			// Four levels of content under File: not the item's own.
			parent := "m.file"
			for _, ref := range []string{"c1", "c2", "c3", "c4"} {
				addEl(t, tr, "s1", parent, trace.Element{Ref: ref, Attributes: trace.Attributes{Role: "element", Name: "x" + ref, Visible: true}})
				parent = ref
			}
			s := tr.Snapshots["s1"]
			tr.Events[0].Target = trace.TargetOf(&s, indexOf(s, "c4"))
		}, want: []string{viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "hidden item of the same name before the click", mutate: func(t *testing.T, tr *trace.Trace) {
			// A collapsed WPF menu keeps its items, off screen: not open.
			hidden := menuEl("m.saveas", "Save As...")
			hidden.Visible = false
			addEl(t, tr, "s1", "m.file", hidden)
		}, want: []string{fileSaveAs, viewZoomIn}},
		{name: "win32 popup named after another item", mutate: func(t *testing.T, tr *trace.Trace) {
			s := tr.Snapshots["s2"]
			s.Elements = append(s.Elements, trace.Element{Ref: "popup", Attributes: trace.Attributes{Role: "menu", Name: "Edit", Visible: true}, Parent: 0})
			tr.Snapshots["s2"] = s
			snapEl(t, tr, "s2", "m.saveas").Parent = len(s.Elements) - 1
		}, want: []string{`op1 = click(menuitem(name: "File"))`, `op2 = click(menuitem(name: "Save As..."))`, viewZoomIn}},
		{name: "another outermost item of the name", mutate: func(t *testing.T, tr *trace.Trace) {
			// A toolbar's "file" item: menu_path would find two.
			addEl(t, tr, "s1", "w", menuEl("tb.file", "_file"))
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "another submenu item of the name", mutate: func(t *testing.T, tr *trace.Trace) {
			addEl(t, tr, "s2", "m.file", menuEl("m.saveas2", "Save  as..."))
		}, want: []string{`op1 = click(menuitem(name: "File"))`, viewZoomIn}, absent: []string{fileSaveAs}},
		{name: "an item of the name in another menu", mutate: func(t *testing.T, tr *trace.Trace) {
			addEl(t, tr, "s2", "m.view", menuEl("m.view.saveas", "Save As..."))
		}, want: []string{fileSaveAs, viewZoomIn}},
		{name: "demonstration ends with the choice", mutate: func(t *testing.T, tr *trace.Trace) {
			tr.Events = tr.Events[:7] // no click after Zoom In
		}, want: []string{fileSaveAs, viewZoomIn}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tr, err := trace.Load(menuTrace)
			if err != nil {
				t.Fatal(err)
			}
			if tt.mutate != nil {
				tt.mutate(t, tr)
			}
			opts := tt.opts
			opts.Trace = menuTrace
			res, err := Compile(tr, opts)
			if err != nil {
				t.Fatalf("%v\n%s", err, res.Source)
			}
			src := string(res.Source)
			for _, w := range tt.want {
				if !strings.Contains(src, w) {
					t.Errorf("no %q in\n%s", w, src)
				}
			}
			for _, a := range tt.absent {
				if strings.Contains(src, a) {
					t.Errorf("%q in\n%s", a, src)
				}
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %v", res.Warnings)
			}
		})
	}
}

// TestMenuPathCitation checks the replacing step's comments: the path
// and every original event, on the step and in its trailing citation.
func TestMenuPathCitation(t *testing.T) {
	tr, err := trace.Load(menuTrace)
	if err != nil {
		t.Fatal(err)
	}
	res, err := Compile(tr, Options{Trace: menuTrace})
	if err != nil {
		t.Fatal(err)
	}
	want := `  # API-first: menu_path opens View > Zoom > Zoom In by the items' patterns, where the demonstration clicked them (e5, e6, e7).
  op6 = menu_path(["View", "Zoom", "Zoom In"])  # e5, e6, e7
`
	if !strings.Contains(string(res.Source), want) {
		t.Errorf("want\n%s\nin\n%s", want, res.Source)
	}
}

// TestMenuPathAnchors: a menu item clicked in two paths is an anchor of
// the UI steps; once both paths are calls, the anchor goes with them.
func TestMenuPathAnchors(t *testing.T) {
	tr, err := trace.Load(menuTrace)
	if err != nil {
		t.Fatal(err)
	}
	// e5 and e6 become File > Save As... again (e5 in s5, which shows
	// what s1 shows; e6 in a copy of s2), and e7 goes.
	tr.Events[4].Target = trace.TargetOf(ptr(tr.Snapshots["s5"]), indexOf(tr.Snapshots["s5"], "m.file"))
	tr.Snapshots["s6"] = tr.Snapshots["s2"]
	tr.Events[5].Target = trace.TargetOf(ptr(tr.Snapshots["s6"]), indexOf(tr.Snapshots["s6"], "m.saveas"))
	tr.Events = append(tr.Events[:6], tr.Events[7:]...)
	ui, err := Compile(tr, Options{Trace: menuTrace, NoAPIFirst: true})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(ui.Source), "anchor file         = menuitem(") {
		t.Fatalf("the UI steps have no anchor for File:\n%s", ui.Source)
	}
	res, err := Compile(tr, Options{Trace: menuTrace})
	if err != nil {
		t.Fatal(err)
	}
	src := string(res.Source)
	if strings.Count(src, `menu_path(["File", "Save As..."])`) != 2 || strings.Contains(src, "anchor file") || strings.Contains(src, "menuitem(") {
		t.Errorf("want two menu paths and no menu item anchor:\n%s", src)
	}
}

func ptr(s trace.Snapshot) *trace.Snapshot { return &s }

func indexOf(s trace.Snapshot, ref string) int {
	for i := range s.Elements {
		if s.Elements[i].Ref == ref {
			return i
		}
	}
	return -1
}
