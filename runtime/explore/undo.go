package explore

import (
	"context"
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/runtime/driver"
)

// Ways of undoing, as knowledge.Transition.Undo names them.
const (
	undoBack     = "back"     // the back key, or the browser's history
	undoClose    = "close"    // Escape, or a dialog's or menu's close button
	undoCollapse = "collapse" // the same element again
	undoClear    = "clear"    // empty the field typed into
)

// undoMove is one way of undoing an action.
type undoMove struct {
	name string
	op   action.Name
	el   *driver.Element
	desc string
	key  string // the key chord, for action.Key
}

// undo takes the screen of from back to the screen of the last frame of
// stack, trying the ways that fit what from's action did, each a budgeted
// back step. A way that lands on an earlier screen of the stack (back
// from a screen a popup menu opened shows the screen under the menu) is
// followed by the stack's actions again from there. When no way returns,
// exploration stops: going on from an unknown screen could act on the
// wrong thing.
func (e *explorer) undo(ctx context.Context, from *frame, stack []*frame, why string) error {
	to := stack[len(stack)-1]
	if i := lastWith(stack, from.sig); i >= 0 && from.via.op != action.Type {
		// The action led back to a screen of the stack ("Navigate up"):
		// nothing to undo; walk from there to where the search was.
		t, err := e.rewalk(ctx, stack, i, from.tree)
		if err != nil {
			return err
		}
		to.tree = t
		e.refresh(to)
		return nil
	}
	moves := e.undoMoves(from, to)
	reason := why
	var tried []string
	for _, m := range moves {
		if err := ctx.Err(); err != nil {
			return err
		}
		t, err := e.act(ctx, Back, m.op, m.el, m.desc, m.key, why)
		if err != nil {
			return err
		}
		why = "" // said once
		sig := signature(t)
		if sig != to.sig {
			if i := lastWith(stack, sig); i >= 0 {
				if t, err = e.rewalk(ctx, stack, i, t); err != nil {
					return err
				}
				sig = to.sig
			}
		}
		if sig == to.sig {
			if from.viaT >= 0 {
				e.seen[from.viaT].Undo = m.name
			}
			e.wrong = append(e.wrong, wrongBranch{branch: []string{from.via.line()}, why: reason})
			to.tree = t
			e.refresh(to)
			return nil
		}
		tried = append(tried, m.name)
		from = &frame{tree: t, key: stateKey(t), sig: sig, via: from.via, viaT: from.viaT}
	}
	return fmt.Errorf("explore: could not undo %s (tried %s); stopped rather than go on from an unknown screen; steps: %s",
		from.via.line(), strings.Join(tried, ", "), listSteps(e.steps))
}

// lastWith is the index of the highest frame of the stack whose screen
// has the signature, or -1.
func lastWith(stack []*frame, sig string) int {
	for i := len(stack) - 1; i >= 0; i-- {
		if stack[i].sig == sig {
			return i
		}
	}
	return -1
}

// rewalk repeats the actions that led from stack[i], now showing as t, to
// the stack's top, checking each screen on the way, and returns the top's
// screen.
func (e *explorer) rewalk(ctx context.Context, stack []*frame, i int, t *driver.Tree) (*driver.Tree, error) {
	var err error
	for _, f := range stack[i+1:] {
		c := f.via
		el := sameElement(t, c.desc)
		if el == nil {
			return nil, fmt.Errorf("explore: going back went past %s, and %s is no longer there to return; steps: %s",
				f.tree.Title, c.desc, listSteps(e.steps))
		}
		// A confirmation was for one action: taking it again asks again.
		if why := e.refused(ctx, el); why != "" {
			return nil, fmt.Errorf("explore: going back went past %s, and returning needs %s again: %s; steps: %s",
				f.tree.Title, c.desc, why, listSteps(e.steps))
		}
		if t, err = e.act(ctx, Forward, c.op, el, c.desc, c.param, "again: going back went further than this screen"); err != nil {
			return nil, err
		}
		if signature(t) != f.sig {
			return nil, fmt.Errorf("explore: %s again did not lead to the same screen as before; steps: %s",
				c.line(), listSteps(e.steps))
		}
	}
	return t, nil
}

// undoMoves are the ways to try, most fitting first. Android has one back
// key for screens, menus and dialogs alike. In a browser, a new URL is
// undone by history; an overlay (menu, dialog) by Escape or its close
// button; an expanded part by the same element again; history last.
func (e *explorer) undoMoves(from, to *frame) []undoMove {
	c := from.via
	if c.op == action.Type {
		op := action.Clear
		if !e.d.Capabilities().Supports(action.Clear) {
			op = action.Type // typing nothing replaces the text
		}
		if el := sameElement(from.tree, c.desc); el != nil {
			return []undoMove{{name: undoClear, op: op, el: el, desc: c.desc}}
		}
		return nil
	}
	back := undoMove{name: undoBack, op: action.Back}
	if strings.HasPrefix(from.tree.URL, "android-app:") || place(from.tree.URL) != place(to.tree.URL) {
		return []undoMove{back}
	}
	moves := []undoMove{{name: undoClose, op: action.Key, key: "Escape"}}
	if b := closeButton(from.tree, to.tree, e.o.IrreversibleWords); b != nil {
		moves = append(moves, undoMove{name: undoClose, op: action.Click, el: b, desc: describe(b)})
	}
	// Clicking an irreversible element again (a confirmed Send still on
	// the screen) would not undo it but do it twice.
	if el := sameElement(from.tree, c.desc); el != nil && Irreversible(el, e.o.IrreversibleWords...) == "" {
		moves = append(moves, undoMove{name: undoCollapse, op: action.Click, el: el, desc: c.desc})
	}
	return append(moves, back)
}

// sameElement finds the element a description means on a screen, or nil.
func sameElement(t *driver.Tree, desc string) *driver.Element {
	el, err := anchor(t, desc)
	if err != nil {
		return nil
	}
	return el
}

// closeButton is a button that closes what the action opened: on the new
// screen and not on the old one, named close, cancel, dismiss or ×, and
// not irreversible by its words ("Close account", "Cancel order").
func closeButton(now, before *driver.Tree, irreversible []string) *driver.Element {
	old := map[string]bool{}
	for _, el := range before.Elements {
		if el != nil {
			old[describe(el)] = true
		}
	}
	for _, el := range now.Elements {
		if !interactive(el) || old[describe(el)] || Irreversible(el, irreversible...) != "" {
			continue
		}
		for _, w := range words(label(el)) {
			switch w {
			case "close", "cancel", "dismiss", "×", "x":
				return el
			}
		}
	}
	return nil
}

// refresh re-finds a frame's untried candidates on its new tree: after
// an undo, element handles of the old observation may no longer resolve.
// A candidate no longer on the screen is dropped.
func (e *explorer) refresh(f *frame) {
	kept := f.cands[:f.next]
	for _, c := range f.cands[f.next:] {
		if el := sameElement(f.tree, c.desc); el != nil {
			c.el = el
			kept = append(kept, c)
		}
	}
	f.cands = kept
}
