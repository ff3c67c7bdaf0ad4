package main

import (
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
)

// constructWords names the statements of control flow a workflow may use,
// in the order the table lists them.
var constructWords = []string{"for", "if", "repeat", "while", "until", "try", "explore"}

// constructsOf lists the control-flow constructs a workflow uses, each
// once, in constructWords' order ("-" for a straight line). It walks every
// block by reflection, so that statements added to the language later
// (try, explore) are found by their type's name without this harness
// naming their fields.
func constructsOf(f *ast.File) string {
	seen := map[string]bool{}
	for _, b := range f.Bodies() {
		walkConstructs(reflect.ValueOf(b), seen, 0)
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

// walkConstructs notes the construct of each statement under v: a type
// named XStmt is construct "x" (a WhileStmt with Until set is "until"),
// and an explore<"…"> dependency is "explore". depth bounds the walk.
func walkConstructs(v reflect.Value, seen map[string]bool, depth int) {
	if depth > 200 || !v.IsValid() {
		return
	}
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return
		}
		if d, ok := v.Interface().(*ast.Dependency); ok && d.Sub.Name == "explore" {
			seen["explore"] = true
		}
		walkConstructs(v.Elem(), seen, depth+1)
	case reflect.Slice:
		for i := 0; i < v.Len(); i++ {
			walkConstructs(v.Index(i), seen, depth+1)
		}
	case reflect.Struct:
		name := strings.ToLower(strings.TrimSuffix(v.Type().Name(), "Stmt"))
		if strings.HasSuffix(v.Type().Name(), "Stmt") && v.Type().Name() != "JumpStmt" {
			if u := v.FieldByName("Until"); name == "while" && u.IsValid() && u.Kind() == reflect.Bool && u.Bool() {
				name = "until"
			}
			seen[name] = true
		}
		for i := 0; i < v.NumField(); i++ {
			if v.Type().Field(i).IsExported() {
				walkConstructs(v.Field(i), seen, depth+1)
			}
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
