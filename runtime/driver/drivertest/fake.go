// Package drivertest is what tests share about drivers: an in-memory
// driver for testing the interpreter without a browser or a device (pages
// are element lists built in Go, actions change them the way a simple UI
// would — typing sets a field's value, clicks run the page's handlers —
// and every action is logged for assertions), and the checks every real
// driver passes (lifecycle.go).
package drivertest

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Page builds a fresh page for a URL.
type Page func() *driver.Tree

// Fake is the in-memory driver.
type Fake struct {
	mu sync.Mutex
	// Pages maps URLs to page builders; open(url) loads one.
	Pages map[string]Page
	// OnClick runs when the element with the given Ref is clicked.
	OnClick map[string]func(f *Fake, el *driver.Element)
	// Log holds every action performed, in order.
	Log []driver.Action
	// Fail makes the n-th action (1-based) fail, 0 for none.
	Fail int
	// FailErr is the error of the failing action (a driver.ErrGone to
	// play a browser that exited); nil: a plain error.
	FailErr error
	// OnAction runs before each action; tests use it to cancel a run.
	OnAction func(n int, a driver.Action)

	tree      *driver.Tree
	clipboard string
	observed  int
}

// New returns a fake showing tree.
func New(tree *driver.Tree) *Fake {
	return &Fake{tree: tree, Pages: map[string]Page{}, OnClick: map[string]func(*Fake, *driver.Element){}}
}

// Tree returns the current page (for assertions).
func (f *Fake) Tree() *driver.Tree {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tree
}

// SetTree replaces the current page, as a navigation would.
func (f *Fake) SetTree(t *driver.Tree) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tree = t
}

// Observations counts Observe calls.
func (f *Fake) Observations() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.observed
}

// Observe implements driver.Driver with a copy of the current page.
func (f *Fake) Observe(ctx context.Context) (*driver.Tree, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.observed++
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cp := &driver.Tree{URL: f.tree.URL, Title: f.tree.Title}
	for _, e := range f.tree.Elements {
		c := *e
		cp.Elements = append(cp.Elements, &c)
	}
	return cp, nil
}

func (f *Fake) find(ref string) *driver.Element {
	for _, e := range f.tree.Elements {
		if e.Ref == ref {
			return e
		}
	}
	return nil
}

// Do implements driver.Driver.
func (f *Fake) Do(ctx context.Context, a driver.Action) (driver.Result, error) {
	f.mu.Lock()
	f.Log = append(f.Log, a)
	n := len(f.Log)
	hook := f.OnAction
	f.mu.Unlock()
	if hook != nil {
		hook(n, a)
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.Fail == n && f.FailErr != nil {
		return driver.Result{}, f.FailErr
	}
	if f.Fail == n {
		return driver.Result{}, fmt.Errorf("the fake driver fails action %d as asked", n)
	}
	var target *driver.Element
	if a.Target != nil {
		if target = f.find(a.Target.Ref); target == nil {
			return driver.Result{}, fmt.Errorf("element %s is gone", a.Target.Ref)
		}
	}
	switch a.Op {
	case action.Open, action.NewTab:
		page, ok := f.Pages[a.Text]
		if !ok {
			return driver.Result{}, fmt.Errorf("no page at %s", a.Text)
		}
		f.tree = page()
		return driver.Result{Window: &driver.Window{Title: f.tree.Title, URL: f.tree.URL}}, nil
	case action.Type:
		target.Value = a.Text
		return driver.Result{Text: a.Text}, nil
	case action.Paste:
		text := a.Text
		if text == "" {
			text = f.clipboard
		}
		target.Value += text
		return driver.Result{Text: text}, nil
	case action.Copy, action.Cut, action.SelectText:
		text := a.Text
		if target != nil {
			text = target.Text
			if target.Editable {
				text = target.Value
			}
		}
		if a.Op != action.SelectText {
			f.clipboard = text
		}
		return driver.Result{Text: text}, nil
	case action.Click, action.DoubleClick:
		if h := f.OnClick[target.Ref]; h != nil {
			f.mu.Unlock()
			h(f, target)
			f.mu.Lock()
		}
	case action.SwitchWindow:
		if !strings.Contains(f.tree.Title, a.Text) {
			return driver.Result{}, fmt.Errorf("no window titled %q", a.Text)
		}
		return driver.Result{Window: &driver.Window{Title: f.tree.Title, URL: f.tree.URL}}, nil
	}
	return driver.Result{}, nil
}

// Screenshot implements driver.Driver with a tiny fixed PNG header.
func (f *Fake) Screenshot(context.Context) ([]byte, error) {
	return []byte("\x89PNG\r\n\x1a\n"), nil
}

// Capabilities implements driver.Driver.
func (f *Fake) Capabilities() driver.Capabilities {
	return driver.Capabilities{Actions: []action.Name{action.Click, action.Type, action.Copy, action.Paste, action.Open, action.NewTab, action.SwitchWindow, action.Key, action.Enter}}
}

// Close implements driver.Driver.
func (f *Fake) Close() error { return nil }

// Table builds the elements of a table with a header row: the table, then
// per data row a row element and its cells, with CellInfo filled. Refs are
// prefix-t, prefix-r0, prefix-r0c1 …
func Table(prefix, name string, headers []string, rows [][]string) []*driver.Element {
	table := &driver.Element{Ref: prefix + "-t", Role: "table", Name: name, Visible: true, Parent: -1}
	out := []*driver.Element{table}
	for r, cells := range rows {
		row := &driver.Element{Ref: fmt.Sprintf("%s-r%d", prefix, r), Role: "row", Visible: true,
			Text: strings.Join(cells, " "), Cell: &driver.CellInfo{Table: table.Ref, Row: r, Column: -1}}
		out = append(out, row)
		for c, text := range cells {
			out = append(out, &driver.Element{Ref: fmt.Sprintf("%s-r%dc%d", prefix, r, c), Role: "cell", Text: text, Visible: true,
				Editable: true, Value: text,
				Cell: &driver.CellInfo{Table: table.Ref, Row: r, Column: c, ColumnHeader: headers[c]}})
		}
	}
	return out
}

// Index fills the Parent fields: elements after a container whose Ref is a
// prefix of theirs become its children. Call it after building a page.
func Index(t *driver.Tree) *driver.Tree {
	for i, e := range t.Elements {
		e.Parent = -1
		for j := i - 1; j >= 0; j-- {
			p := t.Elements[j]
			if strings.HasPrefix(e.Ref, strings.TrimSuffix(p.Ref, "-t")+"-") && p.Ref != e.Ref {
				e.Parent = j
				break
			}
		}
	}
	return t
}
