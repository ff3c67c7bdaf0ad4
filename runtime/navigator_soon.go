package runtime

import (
	"time"

	"github.com/cogflow/cogflow/runtime/driver"
)

// relativesSoon lists the rows or items of the element ref, looking again
// every waitPoll within appearGrace while there are none: a suggestion
// list that the previous step's typing fills after a short timer (jQuery
// UI's autocomplete waits 300 ms) is empty at the first look, as a target
// that is not there yet is (appear.go). A list that stays empty is empty,
// this much later; a list with items is read at once.
func (n navigator) relativesSoon(ref string, rows bool) ([]*driver.Element, error) {
	deadline := time.Now().Add(appearGrace)
	for {
		tree, err := n.in.observe(n.ctx)
		if err != nil {
			return nil, err
		}
		found := relativesOrChildren(tree, ref, rows)
		if len(found) > 0 || !time.Now().Before(deadline) {
			return found, nil
		}
		select {
		case <-n.ctx.Done():
			return nil, ErrInterrupted
		case <-time.After(waitPoll):
		}
		n.in.tree = nil // observe the screen anew
	}
}

// childItems lists the list items that are direct children of the list
// ref, in document order: a list of one item (a suggestion list with one
// match) carries no list marks, which a driver gives only to repeated
// items.
func childItems(t *driver.Tree, ref string) []*driver.Element {
	at := -1
	for k, e := range t.Elements {
		if e.Ref == ref {
			at = k
			break
		}
	}
	var out []*driver.Element
	for _, e := range t.Elements {
		if at >= 0 && e.Parent == at && e.Role == "listitem" {
			out = append(out, e)
		}
	}
	return out
}

// relativesOrChildren is relatives, or for a list none marks as items,
// its child list items.
func relativesOrChildren(t *driver.Tree, ref string, rows bool) []*driver.Element {
	found := relatives(t, ref, rows)
	if len(found) == 0 && !rows {
		found = childItems(t, ref)
	}
	return found
}
