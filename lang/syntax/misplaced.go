package syntax

import (
	"fmt"
	"strings"

	"github.com/cogflow/cogflow/lang/diag"
)

// Syntax errors that look like a control construct written in the wrong
// place or the wrong way: the grammar's "unexpected X, expected Y" says
// what it found, these say what is allowed there. Each gives a summary
// (the message), a note naming the statements allowed at that point, and
// a suggestion when one fix is likely.

// inBlock names what may stand in a task's or skill's body.
const inBlock = `allowed in a task or skill: a step name = action(…), input, anchor, driver, ` +
	`for x in LIST { … }, if COND { … } else { … }, repeat N { … }, while COND { … }, until COND { … }, ` +
	`try { … } fallback { … }, explore "goal" { … }, and break or continue inside a loop`

// atTop names what may stand at the top of a file.
const atTop = `allowed at the top of a file: task NAME { … } and skill NAME(params) { … }; every statement goes inside one`

// statementWords are the words that begin a statement other than a step.
var statementWords = map[string]bool{
	"if": true, "else": true, "repeat": true, "while": true, "until": true, "for": true,
	"break": true, "continue": true, "try": true, "fallback": true, "explore": true,
	"input": true, "anchor": true, "driver": true, "confirm": true,
}

// misplaced rewrites d, the error at token i, when the statement it is in
// is a control construct out of place; it reports whether it did.
func (p *parser) misplaced(d *diag.Diagnostic, i int) bool {
	s := p.statementStart(i)
	if s < 0 {
		return false
	}
	first, cur := p.val(p.tokens[s]), p.val(p.tokens[i])
	next := func(k int) string {
		if k < len(p.tokens) {
			return p.val(p.tokens[k])
		}
		return ""
	}
	say := func(msg, note, suggestion string) bool {
		d.Message = msg
		d.Notes = append(d.Notes, note)
		d.Suggestion = suggestion
		return true
	}
	switch {
	case p.top:
		return p.atTopLevel(d, s, say)
	case i == s && strings.HasSuffix(d.Message, `, expected "}"`):
		// Not a statement, where one begins.
		d.Message = strings.TrimSuffix(d.Message, `"}"`) + `a statement or "}"`
		d.Notes = append(d.Notes, inBlock)
		return true
	case first == "fallback":
		return say("fallback without a try: fallback follows the } of a try's body", inBlock,
			"write try { … } fallback { … }: the fallback runs when a step of the try fails")
	case first == "try" && i > s+1 && p.val(p.tokens[i-1]) == "}" && cur != "fallback":
		d.Range = p.tokRange(p.tokens[s])
		return say("this try has no fallback", inBlock,
			"write try { … } fallback { … }: the fallback runs when a step of the try fails")
	case first == "try" && i == s+1:
		return say("try is followed by a block", inBlock, "write try { … } fallback { … }")
	case first == "explore" && i == s+1:
		return say("explore needs a goal, in quotes", inBlock,
			`write explore "the goal in words" { … }, e.g. explore "open the settings" { … }`)
	case first == "elif" || first == "elsif" || first == "elseif":
		return say(fmt.Sprintf("%s is not a keyword: the next branch of an if is else if", first), inBlock,
			fmt.Sprintf("write } else if COND { … } in place of %s", first))
	case first == "repeat" && i == s+1:
		return say("repeat needs a count", inBlock,
			"write repeat 3 { … }, or while COND { … } / until COND { … } to repeat on a condition")
	case (first == "while" || first == "until") && i == s+1 && cur == "{":
		return say(first+" needs a condition", inBlock,
			fmt.Sprintf("write %s COND { … }, e.g. %s visible(button(name: \"More\")) { … }; repeat N { … } repeats a number of times", first, first))
	case (first == "if" || first == "while" || first == "until") && (cur == "then" || cur == "do"):
		return say(fmt.Sprintf("there is no %s in cogflow: the { after the condition begins the body", cur), inBlock,
			fmt.Sprintf("write %s COND { … }", first))
	case (first == "if" || first == "while" || first == "until") && cur == "=":
		if p.tokens[i+1].Kind() == tokIdent && next(i+2) == "(" {
			return say("a condition cannot hold a step", inBlock,
				fmt.Sprintf("write the step first and test its result: %s = %s(…), then %s %s { … }", next(i-1), next(i+1), first, next(i-1)))
		}
		return say("= names a step; a condition compares with ==", inBlock, "write == to compare two values")
	case first == "for" && i == s+2 && cur != "in":
		return say("a for loop walks a list: for x in LIST { … }", inBlock,
			"to do something a number of times write repeat 3 { … }; for i in [1, 2, 3] { … } walks numbers")
	}
	return false
}

// atTopLevel rewrites an error at the top of the file whose declaration
// begins with a statement.
func (p *parser) atTopLevel(d *diag.Diagnostic, s int, say func(msg, note, suggestion string) bool) bool {
	first := p.val(p.tokens[s])
	switch {
	case first == "break" || first == "continue":
		return say(first+" is a statement: it goes inside a loop of a task or a skill", atTop,
			fmt.Sprintf("write it in the body of a for, repeat, while or until: repeat 3 { … %s }", first))
	case statementWords[first]:
		return say(fmt.Sprintf("%s is a statement: it goes inside a task or a skill", first), atTop,
			fmt.Sprintf("write task NAME { %s … }", first))
	case Keywords[first]:
		// task = …, skill(…): a declaration missing its name, not a step.
		return false
	case p.tokens[s].Kind() == tokIdent && s+1 < len(p.tokens) && p.val(p.tokens[s+1]) == "=":
		return say("a step goes inside a task or a skill", atTop,
			fmt.Sprintf("write task NAME { %s = … }", first))
	case p.tokens[s].Kind() == tokIdent && s+1 < len(p.tokens) && p.val(p.tokens[s+1]) == "(":
		return say("a step goes inside a task or a skill, and needs a name", atTop,
			fmt.Sprintf("write task NAME { op1 = %s(…) }", first))
	}
	return false
}

// statementStart is the first token of the statement (or top-level
// declaration) that token i is in: the one recovery is dropping, else the
// first token of i's line.
func (p *parser) statementStart(i int) int {
	if p.stmtStart >= 0 && p.stmtStart <= i {
		return p.stmtStart
	}
	for i > 0 && !p.startsLine(i) {
		i--
	}
	return i
}
