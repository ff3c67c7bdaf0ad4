package runtime

import (
	"fmt"
	"io"
	"strings"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/check"
	"github.com/cogflow/cogflow/lang/printer"
)

// costExplore is an explore block or an explore<…> dependency. Exploring
// asks the model at most once per exploration step to rank what the screen
// offers, and, when no input describes the element an explore<…> looks
// for, once more per step to judge whether the goal is reached. Its calls
// are a bound, reported apart from the totals: a path the knowledge store
// replays, or a run without a model, asks nothing.
type costExplore struct {
	line  int
	what  string
	loop  *costLoop
	calls int
	note  string
}

func (w *costWalker) exploreBlock(s *ast.ExploreStmt, prefix string, loop *costLoop) {
	budget, ok := check.DefaultExploreBudget, true
	if e := s.Option("budget"); e != nil {
		budget, ok = costLiteral(e)
	}
	if !ok {
		return // the checker refuses a budget that is not a literal
	}
	w.explores = append(w.explores, &costExplore{line: s.Range.Start.Line, what: prefix + printer.ExploreHead(s), loop: loop, calls: budget})
}

func (w *costWalker) exploreDep(d *ast.Dependency, step string, loop *costLoop) {
	budget := check.DefaultExploreBudget
	w.explores = append(w.explores, &costExplore{line: d.Range.Start.Line, what: step + ": " + costDepText(d), loop: loop,
		calls: 2 * budget, note: fmt.Sprintf("%d when an input describes the element", budget)})
}

// reportExplores writes the bound on exploring's model calls, one part per
// explore block or dependency.
func (w *costWalker) reportExplores(out io.Writer) {
	if len(w.explores) == 0 {
		return
	}
	var parts []string
	for _, x := range w.explores {
		p := fmt.Sprintf("up to %d for %s (line %d", x.calls, x.what, x.line)
		if x.note != "" {
			p += ", " + x.note
		}
		p += ") per " + costPer(x.loop)
		parts = append(parts, p)
	}
	fmt.Fprintf(out, "Exploring, not in the totals: %s; none when the knowledge store replays the path or no model is configured\n", strings.Join(parts, "; "))
}
