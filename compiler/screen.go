package compiler

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/compiler/internal/synth"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// Evidence is why the compiler wrote what it wrote for one value or
// choice: where on the screen the demonstrated value was found, which
// programs were consistent with it, and why the chosen one won or every
// one was rejected. `cogflow compile --explain` prints it.
type Evidence struct {
	Step       string   // the step: "op3"
	Value      string   // the demonstrated value (masked for a secret)
	Found      []string // where the value was found: "text(id: \"query\") in s2, in quotes"
	Consistent []string // the programs consistent with the demonstration, best first
	Chosen     string   // the expression written, or "" when none was
	Why        string   // why it was chosen, or why every candidate was rejected
}

// screenRef is the name a screen text goes by while a program over it is
// synthesized; the element's `.text` takes its place in the result.
const screenRef = "screen_text"

// maxScreenSources bounds the elements tried for one value: the innermost
// holders of its words, the instruction area first.
const maxScreenSources = 8

// screenValue looks for a typed or chosen value in what the screen showed
// before op i (the texts of its snapshot, the title, the URL) and returns
// the simplest program that reads it from there, recording its evidence.
// ok is false when no program has evidence enough (see docs/language.md,
// "Values read from the screen").
func (c *compiler) screenValue(i int, value string) (expr ast.Expr, ok bool) {
	if c.literal || strings.TrimSpace(value) == "" || i < 0 || i >= len(c.infos) {
		return nil, false
	}
	ev := Evidence{Step: c.infos[i].name, Value: value}
	expr = c.searchScreen(i, value, &ev)
	if expr != nil {
		ev.Chosen = printer.ExprString(expr)
	}
	c.evidence = append(c.evidence, ev)
	return expr, expr != nil
}

// screenList is screenValue for a list of values the demonstration acted
// on one after another ("Select A, B and C"): a list<text> expression that
// reads them from the screen, in the order the screen names them.
func (c *compiler) screenList(i int, values []string) (expr ast.Expr, ok bool) {
	if c.literal || len(values) < 2 || i < 0 || i >= len(c.infos) {
		return nil, false
	}
	ev := Evidence{Step: c.infos[i].name, Value: strings.Join(values, ", ")}
	expr = c.searchList(i, values, &ev)
	if expr != nil {
		ev.Chosen = printer.ExprString(expr)
	}
	c.evidence = append(c.evidence, ev)
	return expr, expr != nil
}

// screenSource is one element a value may be read from.
type screenSource struct {
	x       *screenIndex
	el      int
	area    string // "instruction" (above the field, outside lists and tables) or "page"
	desc    *targetDesc
	text    string
	expr    ast.Expr // desc.text
	where   string   // for the evidence
	quality int      // how the element is described: 0 by id, 1 by class, 2 by path
	// container: the id'd container of an element described by its path
	// (screen_container.go), read in its place.
	container bool
}

// searchScreen tries the snapshots op i saw, earliest first, and returns
// the best program with evidence, or nil.
func (c *compiler) searchScreen(i int, value string, ev *Evidence) ast.Expr {
	in := c.infos[i]
	for _, id := range c.snapshotsBefore(i) {
		x := c.screenIndexOf(id)
		if x == nil {
			continue
		}
		srcs := c.screenSources(x, in, value)
		if len(srcs) == 0 {
			continue
		}
		var rejected []string
		for _, src := range srcs {
			ev.Found = append(ev.Found, src.where)
			e, why := c.programFrom(src, value, x, in)
			if e != nil && why == "" && src.container && !shown(e) {
				// The container holds more than the element: only a plain
				// extraction of it stands for reading the element.
				why = fmt.Sprintf("%s: %s computes the value from the container's text; the element itself is read instead", src.where, printer.ExprString(e))
			}
			if e != nil {
				ev.Consistent = append(ev.Consistent, printer.ExprString(e))
				if why == "" {
					ev.Why = fmt.Sprintf("the simplest program consistent with the demonstration, over %s (%s area)", src.where, src.area)
					return e
				}
			}
			if why != "" {
				rejected = append(rejected, why)
			}
		}
		ev.Why = "rejected: " + strings.Join(rejected, "; ")
		return nil
	}
	if ev.Why == "" {
		ev.Why = "not found on the screen before the step"
	}
	return nil
}

// snapshotsBefore lists the snapshots that show the screen before op i
// acted, earliest first: the last one before the op's first event (the
// screen before the field held any of the value), then the op's own.
func (c *compiler) snapshotsBefore(i int) []string {
	in := c.infos[i]
	var ids []string
	add := func(id string) {
		if id == "" {
			return
		}
		for _, s := range ids {
			if s == id {
				return
			}
		}
		ids = append(ids, id)
	}
	if len(in.Events) > 0 {
		if pos, ok := c.eventPos()[in.Events[0]]; ok {
			for k := pos; k >= 0; k-- {
				if s := c.tr.Events[k].Snapshot; s != "" {
					add(s)
					break
				}
			}
		}
		pos := c.eventPos()
		for _, id := range in.Events {
			if k, ok := pos[id]; ok {
				add(c.tr.Events[k].Snapshot)
			}
		}
	}
	add(in.Snapshot)
	return ids
}

// eventPos maps event ids to their position in the trace, built once.
func (c *compiler) eventPos() map[string]int {
	if c.eventIdx == nil {
		c.eventIdx = make(map[string]int, len(c.tr.Events))
		for k := range c.tr.Events {
			c.eventIdx[c.tr.Events[k].ID] = k
		}
	}
	return c.eventIdx
}

// screenSources returns the elements of x that hold value (or all its
// words), innermost, the instruction area first, never the field typed
// into.
func (c *compiler) screenSources(x *screenIndex, in *info, value string) []screenSource {
	els, _ := x.holding(value)
	if len(els) == 0 && (clockTime.MatchString(value) || dateRE.MatchString(value)) {
		els = x.holdingMost(value, maxScreenSources)
	}
	if len(els) == 0 && numeric(value) {
		els = x.numbered(maxScreenSources * 4)
	}
	target := -1
	if in.full != nil && in.full.Ref != "" {
		for k := range x.snap.Elements {
			if x.snap.Elements[k].Ref == in.full.Ref {
				target = k
				break
			}
		}
	}
	var first, rest []screenSource
	for _, el := range els {
		if el == target || x.texts[el] == "" {
			continue
		}
		src := screenSource{x: x, el: el, area: c.areaOf(x, el, target, in.full), text: x.texts[el]}
		src.desc, src.quality = sourceDesc(c.tr, x, el)
		if src.desc == nil {
			continue
		}
		src.expr = &ast.Member{X: src.desc.Expr(), Name: ast.Ident{Name: x.member[el]}}
		src.where = fmt.Sprintf("%s in %s", src.desc.String(), x.id)
		add := []screenSource{src}
		if src.quality == 2 && src.area == "instruction" {
			// A path is the last resort: the id'd container first.
			if cs := containerSource(src, value); cs != nil {
				add = []screenSource{*cs, src}
			}
		}
		if src.area == "instruction" {
			first = append(first, add...)
		} else {
			rest = append(rest, add...)
		}
	}
	out := append(first, rest...)
	if len(out) > maxScreenSources {
		out = out[:maxScreenSources]
	}
	return out
}

// areaOf says where element el lies relative to the field: in the
// instruction area (above the field by its bounds, or before it in the
// document when there are none; outside lists and tables) or elsewhere on
// the page.
func (c *compiler) areaOf(x *screenIndex, el, target int, t *trace.Target) string {
	e := &x.snap.Elements[el]
	if e.List != nil || e.Cell != nil || e.Role == "cell" || e.Role == "row" || e.Role == "listitem" {
		return "page"
	}
	if target < 0 {
		return "page" // the field is not on this screen: another page or window
	}
	if t != nil && t.Bounds.H > 0 && e.Bounds.H > 0 {
		if e.Bounds.Y+e.Bounds.H <= t.Bounds.Y+1 {
			return "instruction"
		}
		return "page"
	}
	if el < target {
		return "instruction"
	}
	return "page"
}

// sourceDesc describes a source element by what does not change with its
// content: its id, its class within the nearest ancestor with an id, or
// its path; never by its text, which is the value read. quality says
// which (0, 1, 2); nil when no description is unique.
func sourceDesc(tr *trace.Trace, x *screenIndex, el int) (*targetDesc, int) {
	s := x.snap
	e := &s.Elements[el]
	ctor, base := ctorOf(e.Role)
	if e.ID != "" && !generatedID(e.ID) {
		attrs := append(append([]describedAttr(nil), base...), describedAttr{"id", e.ID})
		if count(s, ctor, attrs, -1) == 1 {
			return &targetDesc{Ctor: ctor, Attrs: attrs, Unique: true}, 0
		}
	}
	if e.Class != "" {
		for k, n := e.Parent, 0; k >= 0 && k < len(s.Elements) && n < len(s.Elements); k, n = s.Elements[k].Parent, n+1 {
			a := &s.Elements[k]
			if a.ID == "" || generatedID(a.ID) {
				continue
			}
			attrs := append(append([]describedAttr(nil), base...), describedAttr{"class", e.Class})
			actor, abase := ctorOf(a.Role)
			within := &targetDesc{Ctor: actor, Attrs: append(append([]describedAttr(nil), abase...), describedAttr{"id", a.ID}), Unique: true}
			if count(s, actor, within.Attrs, -1) == 1 && count(s, ctor, attrs, k) == 1 {
				return &targetDesc{Ctor: ctor, Attrs: attrs, Within: within, Unique: true}, 1
			}
			break
		}
	}
	if e.Path != "" {
		attrs := append(append([]describedAttr(nil), base...), describedAttr{"path", e.Path})
		if count(s, ctor, attrs, -1) == 1 {
			return &targetDesc{Ctor: ctor, Attrs: attrs, Unique: true}, 2
		}
	}
	return nil, 0
}

// programFrom finds the simplest program computing value from src's text
// and judges its evidence: why is "" when the program may be written, or
// says why it may not.
func (c *compiler) programFrom(src screenSource, value string, x *screenIndex, in *info) (ast.Expr, string) {
	if e := c.lookupFamily(src, value, in); e != nil {
		return nonempty(e), ""
	}
	// When the instruction names the word's position ("the last word"),
	// that is the evidence; a pattern around one occurrence of a word that
	// the text may hold more than once is not.
	if e := c.nthWordFamily(src, value); e != nil {
		return substRef(e, screenRef, src.expr), ""
	}
	// A time or a date is reformatted as one, never taken apart by string
	// programs (18:09 from "6:09 PM" is not 6 * 3 and the minutes).
	if e := timeFamily(src.text, value); e != nil {
		return substRef(e, screenRef, src.expr), ""
	}
	if e := dateFamily(src.text, value); e != nil {
		return substRef(e, screenRef, src.expr), ""
	}
	p, ok := synth.Synthesize(value, []synth.Source{{Name: screenRef, Value: src.text}}, synth.Options{})
	var e ast.Expr
	family, rejected := "", ""
	switch {
	case !ok:
	case p.Family == "split" || p.Family == "substr" || usesFunc(p.Expr, "split", "substr"):
		rejected = fmt.Sprintf("%s: %s cuts the value at a fixed place of a text that changes between instances", src.where, p)
	case weakPattern(p.Expr, src.text, value):
		rejected = fmt.Sprintf("%s: %s finds the value only by where this text puts it", src.where, p)
	case p.Penalty > 1:
		rejected = fmt.Sprintf("%s: %s is too specific to the demonstrated text", src.where, p)
	case constantOperand(p.Expr):
		rejected = fmt.Sprintf("%s: %s takes a number of the screen and a constant: any number is one of the screen's plus a constant", src.where, p)
	default:
		e, family = p.Expr, p.Family
	}
	if e == nil {
		if e = c.screenFamilies(src, value); e != nil {
			family = "screen"
		} else if e = numbersFamily(src.text, value); e != nil {
			family = "arithmetic"
		}
	}
	if e == nil && rejected != "" {
		return nil, rejected
	}
	if e == nil {
		return nil, fmt.Sprintf("%s: no program computes the value from its text", src.where)
	}
	if w := spelledValue(e, value); w != "" {
		return nil, fmt.Sprintf("%s: the program spells out %q, the value's own text", src.where, w)
	}
	whole := family == "identity" || family == "case" || family == "trim" ||
		(family == "combination" && !usesFunc(e, "regex", "regex_replace", "split", "substr"))
	if whole && src.area != "instruction" && src.quality > 0 {
		return nil, fmt.Sprintf("%s: the value is the whole text of an element outside the instruction area, described only by its place: a coincidence is likely", src.where)
	}
	if whole {
		e = nonempty(e)
	}
	return substRef(e, screenRef, src.expr), ""
}

// nonempty wraps a program that could read an empty text (a whole
// element's text, a table cell) so that it fails instead of typing
// nothing.
func nonempty(e ast.Expr) ast.Expr {
	return call("nonempty", e)
}

// spelledValue returns a word of value (three characters or more) that a
// text literal of e contains, or "": such a program types the
// demonstration's value, not what the screen shows.
func spelledValue(e ast.Expr, value string) string {
	found := ""
	words := wordsOf(value)
	ast.Inspect(e, func(n ast.Expr) bool {
		lit, ok := n.(*ast.StringLit)
		if !ok || found != "" {
			return found == ""
		}
		lw := map[string]bool{}
		for _, w := range wordsOf(lit.Value) {
			lw[w] = true
		}
		for _, w := range words {
			if len([]rune(w)) >= 3 && lw[w] {
				found = w
			}
		}
		return true
	})
	return found
}

// usesFunc reports whether e calls one of the named functions.
func usesFunc(e ast.Expr, names ...string) bool {
	found := false
	ast.Inspect(e, func(n ast.Expr) bool {
		if c, ok := n.(*ast.Call); ok {
			if r, ok := c.Fun.(*ast.Ref); ok {
				for _, name := range names {
					if r.Name == name {
						found = true
					}
				}
			}
		}
		return !found
	})
	return found
}

// numeric reports whether a value is a number as a page writes it.
func numeric(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	for _, r := range v {
		if !(r >= '0' && r <= '9' || r == '.' || r == ',' || r == '-' || r == '+') {
			return false
		}
	}
	return strings.ContainsAny(v, "0123456789")
}
