package compiler

// Small builders of the emitted workflow's syntax tree and comments.

import (
	"fmt"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/action"
	"github.com/cogflow/cogflow/lang/ast"
)

// cite renders the event ids of a step: "e1", "e3, e4", "e3–e14 (12 events)".
func cite(ids []string) string {
	if len(ids) <= 3 {
		return strings.Join(ids, ", ")
	}
	// Runs of consecutive events, so that steps whose events interleave
	// (typing, then Enter pressed before the last input arrived) do not
	// seem to share a range.
	nums := make([]int, 0, len(ids))
	for _, id := range ids {
		n, err := strconv.Atoi(strings.TrimPrefix(id, "e"))
		if err != nil || !strings.HasPrefix(id, "e") {
			return fmt.Sprintf("%s…%s (%d events)", ids[0], ids[len(ids)-1], len(ids))
		}
		nums = append(nums, n)
	}
	sort.Ints(nums)
	var runs []string
	for i := 0; i < len(nums); {
		j := i
		for j+1 < len(nums) && nums[j+1] <= nums[j]+1 {
			j++
		}
		switch {
		case j == i:
			runs = append(runs, fmt.Sprintf("e%d", nums[i]))
		case j == i+1:
			runs = append(runs, fmt.Sprintf("e%d, e%d", nums[i], nums[j]))
		default:
			runs = append(runs, fmt.Sprintf("e%d…e%d", nums[i], nums[j]))
		}
		i = j + 1
	}
	if len(runs) > 3 {
		runs = append(runs[:2], "…")
	}
	return fmt.Sprintf("%s (%d events)", strings.Join(runs, ", "), len(ids))
}

// compiledFrom names the trace in the header comment: its base name, so
// that the file reads the same wherever the trace was compiled from (the
// diagnostics name Options.Trace as given).
func compiledFrom(opts Options) string {
	if opts.Trace != "" {
		return filepath.Base(opts.Trace)
	}
	return "a recorded demonstration"
}

func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}

func ref(name string) *ast.Ref { return &ast.Ref{Ident: ast.Ident{Name: name}} }

func str(s string) *ast.StringLit { return &ast.StringLit{Value: s} }

func num(n int) *ast.NumberLit { return &ast.NumberLit{Raw: strconv.Itoa(n)} }

func named(name string, v ast.Expr) *ast.Arg {
	return &ast.Arg{Name: &ast.Ident{Name: name}, Value: v}
}

func call(fun string, args ...ast.Expr) *ast.Call {
	c := &ast.Call{Fun: ref(fun)}
	for _, a := range args {
		c.Args = append(c.Args, &ast.Arg{Value: a})
	}
	return c
}

func cellCall(row ast.Expr, header string) ast.Expr {
	return &ast.Call{Fun: &ast.Member{X: row, Name: ast.Ident{Name: "cell"}}, Args: []*ast.Arg{{Value: str(header)}}}
}

// perform builds a call of an action.
func perform(a action.Name, args ...ast.Expr) *ast.Call { return call(string(a), args...) }
