package browser

import (
	"context"
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// rawElement is an element as the walker sends it (short keys, empty
// fields left out).
type rawElement struct {
	R  string    `json:"r"`
	Ro string    `json:"ro"`
	N  string    `json:"n"`
	T  string    `json:"t"`
	I  string    `json:"i"`
	C  string    `json:"c"`
	V  string    `json:"v"`
	Ph string    `json:"ph"`
	L  string    `json:"l"`
	H  string    `json:"h"`
	D  string    `json:"d"`
	P  string    `json:"p"`
	B  []float64 `json:"b"`
	F  int       `json:"f"`
	Pa int       `json:"pa"`
	Li []any     `json:"li"`
	Ce []any     `json:"ce"`
}

// crossFrame is a cross-origin iframe the walker could not enter: its ref
// and where its content starts in the viewport.
type crossFrame struct {
	R string  `json:"r"`
	X float64 `json:"x"`
	Y float64 `json:"y"`
}

type walkResult struct {
	URL   string       `json:"url"`
	Title string       `json:"title"`
	Els   []rawElement `json:"els"`
	XO    []crossFrame `json:"xo"`
	Mark  int          `json:"mark"`
}

const (
	flagVisible = 1 << iota
	flagEnabled
	flagEditable
	flagChecked
	flagFocus
	flagSecret
)

func str(v any) string {
	s, _ := v.(string)
	return s
}

func num(v any) int {
	f, _ := v.(float64)
	return int(f)
}

// prefixRef names a ref of a cross-origin realm.
func prefixRef(realm, ref string) string {
	if realm == "" || ref == "" {
		return ref
	}
	return realm + "/" + ref
}

// element converts a walker element of a realm whose content starts at
// (dx, dy) and whose parents start at index base.
func (r *rawElement) element(realm string, dx, dy float64, base int, parent int, pathPrefix string) *driver.Element {
	e := &driver.Element{
		Ref: prefixRef(realm, r.R), Role: r.Ro, Name: r.N, Text: r.T, ID: r.I, Class: r.C, Value: r.V,
		Placeholder: r.Ph, Label: r.L, Href: r.H, Description: r.D, Path: pathPrefix + r.P,
		Visible: r.F&flagVisible != 0, Enabled: r.F&flagEnabled != 0, Editable: r.F&flagEditable != 0,
		Checked: r.F&flagChecked != 0, Focus: r.F&flagFocus != 0, Secret: r.F&flagSecret != 0,
		Parent: parent,
	}
	if r.Pa >= 0 {
		e.Parent = base + r.Pa
	}
	if len(r.B) == 4 {
		e.Bounds = driver.Rect{X: r.B[0] + dx, Y: r.B[1] + dy, W: r.B[2], H: r.B[3]}
	}
	if len(r.Li) == 3 {
		e.List = &driver.ListInfo{Container: prefixRef(realm, str(r.Li[0])), Index: num(r.Li[1]), Size: num(r.Li[2])}
	}
	if len(r.Ce) == 5 {
		e.Cell = &driver.CellInfo{Table: prefixRef(realm, str(r.Ce[0])), Row: num(r.Ce[1]), Column: num(r.Ce[2]),
			ColumnHeader: str(r.Ce[3]), RowHeader: str(r.Ce[4])}
	}
	return e
}

// Observe walks the current tab: one evaluation for the page and its
// same-origin frames, one more per cross-origin frame.
func (d *Driver) Observe(ctx context.Context) (*driver.Tree, error) {
	return onTab(ctx, d, "observe", 0, func(ctx context.Context, t *tab) (*driver.Tree, error) {
		tree := &driver.Tree{Taken: time.Now()}
		url, title, err := d.collect(ctx, t, "", op{"op": "observe"}, 0, 0, -1, "", &tree.Elements, 0)
		if err != nil {
			return nil, err
		}
		tree.URL, tree.Title = url, title
		return tree, nil
	})
}

// Find returns the elements matching at least one attribute of q (all
// interactive elements when q gives none): one evaluation on the page.
func (d *Driver) Find(ctx context.Context, q driver.Query) ([]*driver.Element, error) {
	return onTab(ctx, d, "find", 0, func(ctx context.Context, t *tab) ([]*driver.Element, error) { return d.find(ctx, t, q) })
}

// find is Find's work on tab t, with the driver locked and ctx bounded.
func (d *Driver) find(ctx context.Context, t *tab, q driver.Query) ([]*driver.Element, error) {
	if q.Hard() {
		return d.findSelected(ctx, t, q)
	}
	realm, within := splitRef(q.Within)
	o := op{"op": "find", "ro": q.Role, "n": q.Name, "t": q.Text, "i": q.ID, "c": q.Class, "ph": q.Placeholder,
		"l": q.Label, "h": q.Href, "w": within}
	var out []*driver.Element
	depth := 0
	if q.Within != "" {
		depth = maxFrameDepth // search only the realm of Within
	}
	if _, _, err := d.collect(ctx, t, realm, o, 0, 0, -1, "", &out, depth); err != nil {
		return nil, err
	}
	return out, nil
}

const maxFrameDepth = 3

// collect runs a walk (observe or find) in a realm and appends its elements
// to out, then walks the realm's cross-origin frames. Errors in those
// frames leave them out rather than failing the walk.
func (d *Driver) collect(ctx context.Context, t *tab, realm string, o op, dx, dy float64, parent int,
	pathPrefix string, out *[]*driver.Element, depth int) (string, string, error) {
	var res walkResult
	if err := t.run(ctx, realm, []op{o}, &res); err != nil {
		return "", "", err
	}
	base := len(*out)
	for i := range res.Els {
		*out = append(*out, res.Els[i].element(realm, dx, dy, base, parent, pathPrefix))
	}
	if depth >= maxFrameDepth {
		return res.URL, res.Title, nil
	}
	for _, xf := range res.XO {
		child := prefixRef(realm, xf.R)
		at, prefix := parent, pathPrefix
		for i := base; i < len(*out); i++ {
			if (*out)[i].Ref == child {
				at, prefix = i, (*out)[i].Path+"/#document/"
				break
			}
		}
		_, _, _ = d.collect(ctx, t, child, o, dx+xf.X, dy+xf.Y, at, prefix, out, depth+1)
	}
	return res.URL, res.Title, nil
}
