package main

import (
	"fmt"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// constructWords names the statements of control flow a workflow may use,
// in the order the table lists them.
var constructWords = []string{"for", "if", "repeat", "while", "until", "try", "explore"}

// constructsOf lists the control-flow constructs a workflow uses, each
// once, in constructWords' order ("-" for a straight line): the
// statements of every block, and an explore<"…"> dependency as "explore".
func constructsOf(f *ast.File) string {
	seen := map[string]bool{}
	for _, b := range f.Bodies() {
		noteConstructs(b, seen)
	}
	var out []string
	for _, w := range constructWords {
		if seen[w] {
			out = append(out, w)
		}
	}
	if len(out) == 0 {
		return "-"
	}
	return strings.Join(out, ",")
}

// noteConstructs notes the construct of each statement of b and of the
// blocks nested in it.
func noteConstructs(b *ast.Block, seen map[string]bool) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.ForStmt:
			seen["for"] = true
		case *ast.IfStmt:
			seen["if"] = true
		case *ast.RepeatStmt:
			seen["repeat"] = true
		case *ast.WhileStmt:
			seen[s.Keyword()] = true
		case *ast.TryStmt:
			seen["try"] = true
		case *ast.ExploreStmt:
			seen["explore"] = true
		}
		for _, e := range ast.Exprs(s) {
			ast.Inspect(e, func(e ast.Expr) bool {
				if d, ok := e.(*ast.Dependency); ok && d.Sub.Name == "explore" {
					seen["explore"] = true
				}
				return true
			})
		}
		for _, inner := range ast.Bodies(s) {
			noteConstructs(inner, seen)
		}
	}
}

// failureReasons sums up why the workflow's unsolved runs failed, most
// frequent first ("silent 3, no match 2"): "" when every run solved the
// task.
func failureReasons(v variantEval, c stepCounts) string {
	if v.w.err != "" {
		return "compile"
	}
	n := map[string]int{}
	for _, o := range v.runs {
		if !o.ok() {
			n[failureReason(o, c)]++
		}
	}
	var keys []string
	for k := range n {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(a, b int) bool {
		if n[keys[a]] != n[keys[b]] {
			return n[keys[a]] > n[keys[b]]
		}
		return keys[a] < keys[b]
	})
	var out []string
	for _, k := range keys {
		out = append(out, fmt.Sprintf("%s %d", k, n[k]))
	}
	return strings.Join(out, ", ")
}

// failureReason is one word or two for why an unsolved run failed: it
// reported ok with a wrong result (silent), stopped at a model step with
// no model, found no element for a description (no match), found several
// (ambiguous), failed an assertion, ran a loop to its bound, met an
// element covered by another, ran out of time, ended with no reward, or
// another step error.
func failureReason(o outcome, c stepCounts) string {
	msg := strings.ToLower(o.message)
	switch {
	case o.silentlyWrong():
		return "silent"
	case o.stepsOK:
		return "no reward"
	case o.log.failed != "" && c.kindOf(o.log.failed) == byModel:
		return "no model"
	case strings.Contains(msg, "no element matches"):
		return "no match"
	case strings.Contains(msg, "iterations and its condition"):
		return "loop bound"
	case strings.HasSuffix(o.step, " assert"):
		return "assert"
	case strings.Contains(msg, "match about equally") || strings.Contains(msg, "ambiguous"):
		return "ambiguous"
	case strings.Contains(msg, "is covered by"):
		return "covered"
	case strings.Contains(msg, "timed out") || strings.Contains(msg, "deadline"):
		return "timeout"
	}
	return "error"
}
