package runtime

import (
	"fmt"
	"io"
	"sort"
	"strconv"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
)

// Plan writes what a run would do, without a driver (--dry-run): the
// inputs with the values they would take, then every step in order with
// what it needs from outside — a person's yes, a person's or a model's
// judgement. Secret inputs show as [secret].
func Plan(w io.Writer, task *ast.Task, inputs map[string]string) {
	fmt.Fprintf(w, "task %s", task.Name.Name)
	if task.Goal != nil {
		fmt.Fprintf(w, ": %s", task.Goal.Value)
	}
	fmt.Fprintln(w)
	for _, s := range task.Body.Stmts {
		switch s := s.(type) {
		case *ast.DriverDecl:
			fmt.Fprintf(w, "  driver %s\n", s.Name.Name)
		case *ast.InputDecl:
			fmt.Fprintf(w, "  input %s = %s\n", s.Name.Name, inputShown(s, inputs))
		}
	}
	n := 0
	planBlock(w, task.Body, "  ", &n)
}

func inputShown(s *ast.InputDecl, inputs map[string]string) string {
	if isSecret(typeOf(s.Type)) {
		if _, ok := inputs[s.Name.Name]; ok {
			return "[secret]"
		}
		return "[secret, not given]"
	}
	if v, ok := inputs[s.Name.Name]; ok {
		return fmt.Sprintf("%q (given)", v)
	}
	if s.Default != nil {
		return printer.ExprString(s.Default) + " (default)"
	}
	return "(not given)"
}

func planBlock(w io.Writer, b *ast.Block, indent string, n *int) {
	for _, s := range b.Stmts {
		switch s := s.(type) {
		case *ast.Step:
			*n++
			var needs []string
			if s.Confirm {
				needs = append(needs, "asks for confirmation")
			}
			needs = append(needs, dependencyNeeds(s.Value)...)
			line := fmt.Sprintf("%s%3d. line %-4d %s", indent, *n, s.Range.Start.Line, stepSource(s))
			if len(needs) > 0 {
				line += "   [" + strings.Join(needs, "; ") + "]"
			}
			fmt.Fprintln(w, line)
		case *ast.ForStmt:
			fmt.Fprintf(w, "%s     line %-4d for %s in %s (for each item found at run time):\n", indent, s.Range.Start.Line, s.Var.Name, printer.ExprString(s.Iter))
			planBlock(w, s.Body, indent+"    ", n)
		case *ast.RepeatStmt:
			fmt.Fprintf(w, "%s     line %-4d repeat %s times:\n", indent, s.Range.Start.Line, printer.ExprString(s.Count))
			planBlock(w, s.Body, indent+"    ", n)
		case *ast.WhileStmt:
			fmt.Fprintf(w, "%s     line %-4d %s (judged at run time before each iteration, at most %s times):\n", indent, s.Range.Start.Line, printer.WhileHead(s), whileMax(s))
			planBlock(w, s.Body, indent+"    ", n)
		case *ast.TryStmt:
			fmt.Fprintf(w, "%s     line %-4d try (if a step here fails, the rest is skipped and the fallback runs):\n", indent, s.Range.Start.Line)
			planBlock(w, s.Body, indent+"    ", n)
			fmt.Fprintf(w, "%s     line %-4d fallback (runs only when a step of the try failed):\n", indent, s.Fallback.Range.Start.Line)
			planBlock(w, s.Fallback, indent+"    ", n)
		case *ast.ExploreStmt:
			fmt.Fprintf(w, "%s     line %-4d %s (a step whose target is not on the screen explores the app for it, at most %s exploration steps):\n",
				indent, s.Range.Start.Line, printer.ExploreHead(s), exploreBudget(s))
			planBlock(w, s.Body, indent+"    ", n)
		case *ast.IfStmt:
			head := "if"
			for c := s; c != nil; c = c.ElseIf {
				fmt.Fprintf(w, "%s     line %-4d %s %s (judged at run time):\n", indent, c.Range.Start.Line, head, printer.ExprString(c.Cond))
				planBlock(w, c.Then, indent+"    ", n)
				if c.Else != nil {
					fmt.Fprintf(w, "%s     line %-4d else:\n", indent, c.Else.Range.Start.Line)
					planBlock(w, c.Else, indent+"    ", n)
				}
				head = "else if"
			}
		}
	}
}

// whileMax is a while's bound as written, or the default.
func whileMax(s *ast.WhileStmt) string {
	if e := s.Option("max"); e != nil {
		return printer.ExprString(e)
	}
	return strconv.Itoa(check.DefaultLoopMax)
}

// exploreBudget is an explore block's budget as written, or the default.
func exploreBudget(s *ast.ExploreStmt) string {
	if e := s.Option("budget"); e != nil {
		return printer.ExprString(e)
	}
	return strconv.Itoa(check.DefaultExploreBudget)
}

// dependencyNeeds names the judgement calls a step makes.
func dependencyNeeds(e ast.Expr) []string {
	seen := map[string]bool{}
	ast.Inspect(e, func(x ast.Expr) bool {
		if d, ok := x.(*ast.Dependency); ok {
			seen[fmt.Sprintf("%s<%q>", d.Sub.Name, d.Description.Value)] = true
		}
		return true
	})
	var out []string
	for k := range seen {
		out = append(out, "judgement: "+k)
	}
	sort.Strings(out)
	return out
}
