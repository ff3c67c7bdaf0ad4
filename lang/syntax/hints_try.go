package syntax

import "github.com/cogflow/cogflow/lang/diag"

// tryHint adds a suggestion for the slips around try and explore that the
// grammar's "expected …" does not explain: a fallback that follows no try
// (the grammar reads the keyword as a step's name), an explore without its
// goal, a budget without its comma. tok is the unexpected token's index.
func (p *parser) tryHint(d *diag.Diagnostic, i int) {
	word := func(j int) string {
		if j < 0 || j >= len(p.tokens) {
			return ""
		}
		return p.val(p.tokens[j])
	}
	switch {
	case word(i) == "{" && word(i-1) == "fallback" && p.startsStatement(i-1):
		d.Suggestion = "fallback follows only the } of a try's body, as in try { … } fallback { … }"
	case word(i) == "{" && word(i-1) == "explore" && p.startsStatement(i-1):
		d.Suggestion = `explore needs its goal, in quotes, before the block: explore "the Import contacts screen" { … }`
	case word(i) == "budget" && word(i+1) == ":":
		d.Suggestion = `an explore's budget follows its goal after a comma: explore "GOAL", budget: 30 { … }`
	}
}
