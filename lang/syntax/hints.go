package syntax

import (
	"fmt"
	"strconv"

	"github.com/cogflow/cogflow/lang/diag"
)

// hint adds a suggestion to a syntax error for the slips a person makes
// when writing a workflow by hand, where the grammar's "expected …" alone
// does not say what to write. at is the offset of the unexpected token.
func (p *parser) hint(d *diag.Diagnostic, at int) {
	i := p.tokenBefore(at + 1)
	if i < 0 || int(p.tokens[i].Offset) != at {
		return
	}
	tok := p.tokens[i]
	switch {
	case p.val(tok) == "(" && i > 0 && p.tokens[i-1].Kind() == tokIdent && p.startsStatement(i-1):
		// click(button("Search")): a step written without its name.
		d.Suggestion = fmt.Sprintf("every step needs a name: write op1 = %s(…), and refer to its result as op1", p.val(p.tokens[i-1]))
	case (p.val(tok) == "max" || p.val(tok) == "within") && i+1 < len(p.tokens) && p.val(p.tokens[i+1]) == ":":
		// while COND max: 20 { … }: an option without its comma.
		d.Suggestion = fmt.Sprintf("a while's or until's options follow its condition after a comma: while COND, %s: … { … }", p.val(tok))
	case tok.Kind() == tokIdent && i > 0 && p.tokens[i-1].Kind() == tokNumber && p.tokens[i-1].End == tok.Offset:
		// wait(2s): a unit glued to a number.
		if secs, ok := seconds(p.val(p.tokens[i-1]), p.val(tok)); ok {
			d.Suggestion = fmt.Sprintf("a duration is a number of seconds, without a unit: write %s", secs)
		}
	default:
		p.tryHint(d, i)
	}
}

// startsStatement reports whether token i begins a statement: it follows
// an opening brace or ends a line of its own.
func (p *parser) startsStatement(i int) bool {
	if i == 0 {
		return true
	}
	prev := p.tokens[i-1]
	if p.val(prev) == "{" || p.val(prev) == "}" {
		return true
	}
	for _, c := range p.text[prev.End:p.tokens[i].Offset] {
		if c == '\n' {
			return true
		}
	}
	return false
}

// seconds writes n with a time unit as the number of seconds the language
// takes: "2","s" → "2"; "500","ms" → "0.5"; "3","m" → "180".
func seconds(n, unit string) (string, bool) {
	v, err := strconv.ParseFloat(n, 64)
	if err != nil {
		return "", false
	}
	per := map[string]float64{"ms": 0.001, "s": 1, "sec": 1, "secs": 1, "seconds": 1, "m": 60, "min": 60, "mins": 60, "minutes": 60, "h": 3600}
	f, ok := per[unit]
	if !ok {
		return "", false
	}
	return strconv.FormatFloat(v*f, 'f', -1, 64), true
}
