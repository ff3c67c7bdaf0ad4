package syntax

import "github.com/cogflow/cogflow/lang/diag"

// tryHint adds a suggestion for an explore's budget written without its
// comma, which the grammar reports as an unexpected "budget" (a try or
// explore out of place is misplaced.go's). tok is the unexpected token's
// index.
func (p *parser) tryHint(d *diag.Diagnostic, i int) {
	if p.val(p.tokens[i]) == "budget" && i+1 < len(p.tokens) && p.val(p.tokens[i+1]) == ":" {
		d.Suggestion = `an explore's budget follows its goal after a comma: explore "GOAL", budget: 30 { … }`
	}
}
