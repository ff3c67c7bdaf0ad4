package goal

import (
	"encoding/json"
	"net/url"
	"reflect"
	"strings"

	"github.com/cogflow/cogflow/runtime/trace"
)

// Hidden replaces a masked text inside a longer one.
const Hidden = "[hidden]"

// minPartial is the shortest cut-off piece of a masked text that is still
// hidden at the end of a capped text ("Click on the but…").
const minPartial = 12

// MaskSpec says what of a trace a goal must not be inferred from: the
// instruction a demonstration saw on the screen.
type MaskSpec struct {
	// IDs are element ids (DOM id, resource-id, AutomationId) whose
	// elements, and everything inside them, lose their texts; their own
	// text is then hidden wherever else it appears.
	IDs []string
	// Texts are hidden wherever they appear: element texts, targets,
	// events' texts and values, window and trace titles.
	Texts []string
}

// Mask returns a copy of tr with what m names hidden, and how many texts
// it hid. The copy is what Infer and Judge may see; tr is unchanged.
func Mask(tr *trace.Trace, m MaskSpec) (*trace.Trace, int, error) {
	data, err := json.Marshal(tr)
	if err != nil {
		return nil, 0, err
	}
	var out trace.Trace
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, 0, err
	}
	ids := map[string]bool{}
	for _, id := range m.IDs {
		if id = strings.TrimPrefix(strings.TrimSpace(id), "#"); id != "" {
			ids[id] = true // an empty id would name every element without one
		}
	}
	var needles []string
	for _, t := range m.Texts {
		if t = strings.Join(strings.Fields(t), " "); t != "" {
			needles = append(needles, t)
		}
	}
	n := 0
	inside := map[string]map[string]bool{} // snapshot id → refs hidden
	for id, s := range out.Snapshots {
		in := make([]bool, len(s.Elements))
		refs := map[string]bool{}
		for i := range s.Elements {
			e := &s.Elements[i]
			p := e.Parent
			in[i] = ids[e.ID] || p >= 0 && p < i && in[p]
			if !in[i] {
				continue
			}
			if ids[e.ID] {
				needles = append(needles, ownTexts(e.Attributes)...)
			}
			n += blank(&e.Attributes)
			if e.Ref != "" {
				refs[e.Ref] = true
			}
		}
		inside[id] = refs
		out.Snapshots[id] = s
	}
	for i := range out.Events {
		e := &out.Events[i]
		t := e.Target
		if t == nil || !(ids[t.ID] || inside[e.Snapshot][t.Ref] || selectsID(t, ids)) {
			continue
		}
		if ids[t.ID] || selectsID(t, ids) {
			// The element itself: a trace without snapshots (an import)
			// carries its texts only here.
			needles = append(needles, ownTexts(t.Attributes)...)
		}
		n += blank(&t.Attributes)
		if t.Context != nil {
			t.Context = nil
			n++
		}
		if e.Text != "" || e.Value != "" {
			e.Text, e.Value = "", ""
			n++
		}
	}
	n += scrub(reflect.ValueOf(&out).Elem(), dedupe(needles))
	return &out, n, nil
}

// selectsID reports whether a target's selectors name one of ids.
func selectsID(t *trace.Target, ids map[string]bool) bool {
	for id := range ids {
		for _, sel := range append([]string{t.CSS}, t.Selectors...) {
			if selectorNames(sel, id) {
				return true
			}
		}
	}
	return false
}

// selectorNames reports whether a CSS selector has #id as a whole id
// (#query, not #query-box).
func selectorNames(sel, id string) bool {
	for rest := sel; ; {
		i := strings.Index(rest, "#"+id)
		if i < 0 {
			return false
		}
		rest = rest[i+1+len(id):]
		if rest == "" || !strings.ContainsAny(rest[:1], "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-") {
			return true
		}
	}
}

// blank empties an element's texts; it returns 1 if there were any.
func blank(a *trace.Attributes) int {
	had := a.Name != "" || a.Text != "" || a.Value != "" || a.Label != "" || a.Description != "" || a.Placeholder != ""
	a.Name, a.Text, a.Value, a.Label, a.Description, a.Placeholder = "", "", "", "", "", ""
	if had {
		return 1
	}
	return 0
}

// structural are the string fields that name or locate rather than say:
// scrubbing them could only break the trace.
var structural = map[string]bool{"ID": true, "Ref": true, "Snapshot": true, "Cause": true, "Kind": true,
	"Role": true, "Path": true, "Container": true, "Table": true, "Class": true, "Format": true,
	"Driver": true, "Source": true, "Button": true, "Code": true}

// scrub hides the needles in every non-structural string reachable from
// v, longest needle first; it returns how many strings changed.
func scrub(v reflect.Value, needles []string) int {
	if len(needles) == 0 {
		return 0
	}
	n := 0
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			n += scrub(v.Elem(), needles)
		}
	case reflect.Struct:
		for i := 0; i < v.NumField(); i++ {
			f := v.Type().Field(i)
			if !f.IsExported() || f.Type.Kind() == reflect.String && structural[f.Name] {
				continue
			}
			n += scrub(v.Field(i), needles)
		}
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			n += scrub(v.Index(i), needles)
		}
	case reflect.Map:
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			e.Set(v.MapIndex(k))
			if c := scrub(e, needles); c > 0 {
				v.SetMapIndex(k, e)
				n += c
			}
		}
	case reflect.String:
		if s := hide(v.String(), needles); s != v.String() {
			v.SetString(s)
			n++
		}
	}
	return n
}

// hide replaces each needle in s (case and white space ignored), and a
// cut-off start of one at the end of s; in a URL, also the needle escaped
// in its query or path ("Click+on+the…", "Click%20on%20the…"): the URL is
// then shown unescaped, with the needle hidden.
func hide(s string, needles []string) string {
	for _, nd := range needles {
		s = hideOne(s, nd)
		if !strings.ContainsAny(s, "%+") {
			continue
		}
		d, err := url.QueryUnescape(s)
		if err != nil {
			d, err = url.PathUnescape(s)
		}
		if err == nil && d != s {
			if h := hideOne(d, nd); h != d {
				s = h
			}
		}
	}
	return s
}

// hideOne hides one needle in s, and a cut-off start of it at the end.
func hideOne(s, nd string) string {
	s = replaceFold(s, nd)
	body := strings.TrimRight(s, "…. ")
	lb, ln := strings.ToLower(body), strings.ToLower(nd)
	if len(lb) != len(body) || len(ln) != len(nd) {
		return s // lower-casing changed the byte length: no cut-off match
	}
	for k := len(nd) - 1; k >= minPartial; k-- {
		if strings.HasSuffix(lb, ln[:k]) {
			return body[:len(body)-k] + Hidden
		}
	}
	return s
}

// ownTexts are a masked element's own texts, to hide wherever else they
// appear: its text, and its accessible name, label or description when
// the text is elsewhere (an aria-label, a UIA Name). A capped text loses
// its "…" so that the whole text elsewhere matches it; texts shorter than
// minPartial are left (a "Submit" inside the instruction is a control's
// label too).
func ownTexts(a trace.Attributes) []string {
	var out []string
	for _, t := range []string{a.Text, a.Name, a.Label, a.Description, a.Placeholder} {
		t = strings.TrimSpace(strings.TrimRight(strings.Join(strings.Fields(t), " "), "…"))
		if len(t) >= minPartial {
			out = append(out, t)
		}
	}
	return out
}

// replaceFold replaces every occurrence of needle in s, ignoring case and
// runs of white space, with Hidden.
func replaceFold(s, needle string) string {
	if s == "" || needle == "" {
		return s
	}
	flat := strings.Join(strings.Fields(s), " ")
	lower, ln := strings.ToLower(flat), strings.ToLower(needle)
	if len(lower) != len(flat) || len(ln) != len(needle) {
		// Lower-casing changed the byte length: match the case as given.
		lower, ln = flat, needle
	}
	if !strings.Contains(lower, ln) {
		return s
	}
	var b strings.Builder
	for {
		i := strings.Index(lower, ln)
		if i < 0 {
			b.WriteString(flat)
			return b.String()
		}
		b.WriteString(flat[:i])
		b.WriteString(Hidden)
		flat, lower = flat[i+len(ln):], lower[i+len(ln):]
	}
}

// dedupe drops repeated needles and orders them longest first, so that a
// longer text is hidden before a piece of it.
func dedupe(ss []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range ss {
		if !seen[strings.ToLower(s)] {
			seen[strings.ToLower(s)] = true
			out = append(out, s)
		}
	}
	for i := 1; i < len(out); i++ {
		for j := i; j > 0 && len(out[j]) > len(out[j-1]); j-- {
			out[j], out[j-1] = out[j-1], out[j]
		}
	}
	return out
}
