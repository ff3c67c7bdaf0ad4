package compiler

// What tells the merged workflow which way to go: conditions on what the
// screen showed, and loop counts (the merge stage, merge.go).

import (
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/printer"
	"github.com/cogflow/cogflow/runtime/trace"
)

// condition is what tells, on a new instance, whether to do run r of the
// gap [i, j): visible(its first element) when that element was on the
// screen in the demonstrations that did the run and in no other; else a
// word of the instruction those demonstrations' instructions hold and no
// other's does. Without either, visible(its first element) with a
// warning that it rests on no evidence.
func (m *merger) condition(r *gapRun, cols []*column, i, j int) ast.Expr {
	rep := r.cols[0].first()
	desc := m.itemDesc(rep)
	if desc != nil && m.onlyIn(desc, r, cols, i, j) {
		return call("visible", desc.Expr())
	}
	if e, ok := m.instructionWord(r, cols, i, j); ok {
		return e
	}
	if desc != nil {
		m.warn(rep.demo, "only %s did %s, and nothing on the screen told those instances from the others; the workflow does it when %s is visible: check that this is what tells them apart",
			demoList(r.cols[0]), rep.key, desc)
		return call("visible", desc.Expr())
	}
	m.warn(rep.demo, "only %s did %s, and nothing on the screen told those instances from the others; the workflow never does it: write the condition",
		demoList(r.cols[0]), rep.key)
	return &ast.BoolLit{Value: false}
}

// itemDesc is the description of the element an item's first step acted
// on, as its demonstration's compile described it; nil when none.
func (m *merger) itemDesc(it *mergeItem) *targetDesc {
	if it == nil || it.op < 0 {
		return nil
	}
	in := it.demo.c.infos[it.op]
	if in.desc == nil || in.Target == nil {
		return nil
	}
	return in.desc
}

// snapAt is the snapshot demonstration d showed where the gap [i, j)
// begins: before its first step in the gap, or before its next step
// after the gap when it did none there (the last snapshot at the end).
func (m *merger) snapAt(d int, cols []*column, i int) *trace.Snapshot {
	return snapOf(m.demos[d].c.tr, m.snapIDAt(d, cols, i))
}

// snapIDAt is the id of snapAt's snapshot, "" when none.
func (m *merger) snapIDAt(d int, cols []*column, i int) string {
	for _, c := range cols[i:] {
		if it := c.at[d]; it != nil && it.op >= 0 {
			return it.demo.c.infos[it.op].Snapshot
		}
	}
	return lastSnapID(m.demos[d].c.tr)
}

func (m *merger) opSnap(d *mergeDemo, op int) *trace.Snapshot {
	return snapOf(d.c.tr, d.c.infos[op].Snapshot)
}

// snapOf is the trace's snapshot id, or nil.
func snapOf(tr *trace.Trace, id string) *trace.Snapshot {
	if s, ok := tr.Snapshots[id]; ok {
		return &s
	}
	return nil
}

// lastSnap is the snapshot of the trace's last event that has one.
func lastSnap(tr *trace.Trace) *trace.Snapshot { return snapOf(tr, lastSnapID(tr)) }

// lastSnapID is the id of lastSnap's snapshot, "" when none.
func lastSnapID(tr *trace.Trace) string {
	for k := len(tr.Events) - 1; k >= 0; k-- {
		if _, ok := tr.Snapshots[tr.Events[k].Snapshot]; ok {
			return tr.Events[k].Snapshot
		}
	}
	return ""
}

// onlyIn reports whether desc picked an element where the run's
// demonstrations did its first step, and none where the others stood.
func (m *merger) onlyIn(desc *targetDesc, r *gapRun, cols []*column, i, j int) bool {
	for d := range m.demos {
		s := m.snapAt(d, cols, i)
		if it := r.cols[0].at[d]; it != nil && it.op >= 0 {
			s = m.opSnap(m.demos[d], it.op)
		}
		if s == nil {
			return false
		}
		if (visibleCount(s, desc) > 0) != (r.cols[0].at[d] != nil) {
			return false
		}
	}
	return true
}

// visibleCount is how many shown elements of s fit desc, within its
// within: (a dialog's button is in the page, hidden, when the dialog is
// not up).
func visibleCount(s *trace.Snapshot, d *targetDesc) int {
	n := 0
	for k := range s.Elements {
		e := &s.Elements[k]
		if !e.Visible || !matches(e, d.Ctor, d.Attrs) {
			continue
		}
		if d.Within == nil || liesWithin(s, k, d.Within) {
			n++
		}
	}
	return n
}

// liesWithin reports whether element k lies within an element w fits.
func liesWithin(s *trace.Snapshot, k int, w *targetDesc) bool {
	for p, n := s.Elements[k].Parent, 0; p >= 0 && p < len(s.Elements) && n <= len(s.Elements); p, n = s.Elements[p].Parent, n+1 {
		if matches(&s.Elements[p], w.Ctor, w.Attrs) && (w.Within == nil || liesWithin(s, p, w.Within)) {
			return true
		}
	}
	return false
}

// instructionWord finds a text element every demonstration showed where
// the gap begins (the instruction) and a word its text held in the run's
// demonstrations and in no other's; words the run's steps name (the
// "reply" of a Reply button) come first. It returns
// contains(lower(TEXT.text), "word").
func (m *merger) instructionWord(r *gapRun, cols []*column, i, j int) (ast.Expr, bool) {
	texts := make([]map[string]string, len(m.demos)) // per demonstration: description → text
	var order []string                               // the first run demonstration's descriptions, in screen order
	descs := map[string]*targetDesc{}
	members := map[string]string{}
	first := -1
	for d, dm := range m.demos {
		x := dm.c.screenIndexOf(m.snapIDAt(d, cols, i)) // built once per snapshot, for every gap
		if x == nil {
			return nil, false
		}
		s := x.snap
		texts[d] = map[string]string{}
		for k := range s.Elements {
			if len(strings.Fields(x.texts[k])) < 3 || len(x.texts[k]) > 500 {
				continue
			}
			desc, _ := sourceDesc(dm.c.tr, x, k)
			if desc == nil {
				continue
			}
			key := desc.String()
			texts[d][key] = x.folded[k]
			if r.cols[0].at[d] != nil && first < 0 {
				order = append(order, key)
				descs[key], members[key] = desc, x.member[k]
			}
		}
		if r.cols[0].at[d] != nil && first < 0 {
			first = d
		}
	}
	named := namedWords(r)
	best, bestKey, bestScore := "", "", -1
	for _, key := range order {
		for _, w := range wordsOf(texts[first][key]) {
			if len(w) < 3 || allDigits(w) {
				continue
			}
			if !m.tells(w, key, texts, r) {
				continue
			}
			score := 0
			if named[w] {
				score = 2
			}
			// The shortest text that tells is the instruction, not a
			// container of the whole page.
			if score > bestScore || score == bestScore && len(texts[first][key]) < len(texts[first][bestKey]) {
				best, bestKey, bestScore = w, key, score
			}
		}
	}
	if bestScore < 0 || (bestScore == 0 && strings.Count(r.set, ",") < 2) {
		return nil, false // one demonstration's word: it may be the instance's data
	}
	text := &ast.Member{X: descs[bestKey].Expr(), Name: ast.Ident{Name: members[bestKey]}}
	return call("contains", call("lower", text), str(best)), true
}

// tells reports whether w is in the text of key in every demonstration of
// the run and in no other demonstration's.
func (m *merger) tells(w, key string, texts []map[string]string, r *gapRun) bool {
	for d := range m.demos {
		t, ok := texts[d][key]
		if !ok {
			return false
		}
		in := r.cols[0].at[d] != nil
		if in && !hasWord(t, w) || !in && strings.Contains(t, w) {
			return false
		}
	}
	return true
}

func hasWord(text, w string) bool {
	for _, x := range wordsOf(text) {
		if x == w {
			return true
		}
	}
	return false
}

// loopStmt writes a column some demonstrations did more times than
// others: `repeat` a count read from the screen when each
// demonstration's count is there (the same program for all), else
// `while visible(its element)` (the element was gone after the last
// time, or a warning says the loop rests on no such evidence).
func (m *merger) loopStmt(c *column) ast.Stmt {
	rep := c.first()
	var count ast.Expr
	same := true
	for _, it := range c.at {
		if it == nil || it.op < 0 {
			continue
		}
		e, ok := it.demo.c.screenValue(it.op, strconv.Itoa(len(it.stmts)))
		if !ok || count != nil && printer.ExprString(e) != printer.ExprString(count) {
			same = false
			break
		}
		if count == nil {
			count = e
		}
	}
	body := &ast.Block{Stmts: []ast.Stmt{m.adopt(rep.demo, rep.stmts[0], c, 0)}}
	if same && count != nil {
		m.renameRefs(rep.demo, count)
		return &ast.RepeatStmt{Count: call("parse_number", count), Body: body}
	}
	desc := m.itemDesc(rep)
	if desc == nil {
		m.warn(rep.demo, "the demonstrations did %s a different number of times and nothing on the screen gave the count; the workflow does it once: write the loop", rep.key)
		return body.Stmts[0]
	}
	gone := true
	for _, it := range c.at {
		if it == nil {
			continue
		}
		after := lastSnap(it.demo.c.tr)
		if it.idx+1 < len(it.demo.items) {
			if next := it.demo.items[it.idx+1]; next.op >= 0 {
				after = m.opSnap(it.demo, next.op)
			}
		}
		if after == nil || visibleCount(after, desc) > 0 {
			gone = false
		}
	}
	if !gone {
		m.warn(rep.demo, "the demonstrations did %s a different number of times; the workflow does it while %s is visible, which the demonstrations do not show ends the loop: check it", rep.key, desc)
	}
	return &ast.WhileStmt{Cond: call("visible", desc.Expr()), Body: body}
}

// namedWords are the words of the string attributes of the run's steps
// (the "trash" of span.trash, the "reply" of a Reply button), without
// their demonstrated values: what a word of the instruction should name.
func namedWords(r *gapRun) map[string]bool {
	out := map[string]bool{}
	for _, c := range r.cols {
		it := c.first()
		for _, s := range it.stmts {
			walkStmtExprs(s, func(e ast.Expr) {
				ast.Inspect(stepCall(e), func(x ast.Expr) bool {
					if l, ok := x.(*ast.StringLit); ok {
						for _, w := range wordsOf(l.Value) {
							out[w] = true
						}
					}
					return true
				})
			})
		}
	}
	return out
}
