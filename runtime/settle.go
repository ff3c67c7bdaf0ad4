package runtime

import (
	"context"
	"fmt"
	"strings"

	"github.com/zclconf/go-cty/cty"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/runtime/journal"
)

// ReadBackOps are the actions whose effect a resumed run can read back
// after doing them again, so a step of theirs left in doubt is settled by
// "check" rather than by asking: typing sets a field's value (doing it
// twice leaves the same value), open loads a URL.
var ReadBackOps = journal.ReadBackOps

// settles reports whether s, at the current loop position, is the step in
// doubt being settled with the policy.
func (in *Interp) settles(s *ast.Step, policy string) bool {
	st := in.opts.Settle
	if st == nil || st.Policy != policy || st.Line != in.lineOf(s) || len(st.Loops) != len(in.loops) {
		return false
	}
	for i, l := range st.Loops {
		if l.Var != in.loops[i].Var || l.Index != in.loops[i].Index {
			return false
		}
	}
	return true
}

// settleSkip reports whether s is a step in doubt outside any loop that
// the resume was told to skip. (Inside a loop, the whole item is skipped
// through Done.)
func (in *Interp) settleSkip(s *ast.Step) bool {
	return len(in.loops) == 0 && in.settles(s, "skip")
}

// readBack checks, after a step in doubt was done again, that its effect
// is there: the field holds the text typed, the page is at the URL opened.
func (in *Interp) readBack(ctx context.Context, op action.Name, args map[string]cty.Value) error {
	in.tree = nil
	switch op {
	case action.Type:
		target, text := args["target"], args["text"]
		e, err := asElem(target)
		if err != nil || text.IsNull() || text.Type() != cty.String {
			return nil
		}
		live, err := in.anchorElement(ctx, e)
		if err != nil {
			return fmt.Errorf("reading back the step in doubt: %w", err)
		}
		if live.Value != text.AsString() {
			return fmt.Errorf("reading back the step in doubt: the field does not hold the text typed")
		}
	case action.Open:
		url := args["url"]
		if url.IsNull() || url.Type() != cty.String {
			return nil
		}
		tree, err := in.observe(ctx)
		if err != nil {
			return fmt.Errorf("reading back the step in doubt: %w", err)
		}
		if !strings.HasPrefix(tree.URL, strings.TrimRight(url.AsString(), "/")) {
			return fmt.Errorf("reading back the step in doubt: the page is at %s, not %s", tree.URL, url.AsString())
		}
	}
	return nil
}
