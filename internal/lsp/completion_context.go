package lsp

import (
	"regexp"
	"strings"
)

// The place of the cursor, read from the text around it rather than from
// the tree: the line being typed rarely parses (`op3 = click(butt`), and
// its statement is then missing from the partial tree. A statement is one
// line (the printer writes it so, and a string cannot span lines), so the
// text from the line's start to the cursor says what may come next; the
// brace depth before the line says whether the line is in a block.

// place is what kind of thing the cursor is in.
type place int

const (
	placeNone        place = iota // a comment, or a string that is no description
	placeTopLevel                 // the start of a line outside every block: task, skill
	placeStatement                // the start of a line in a block: keywords, snippets
	placeAfterBrace               // `} |`: else, fallback
	placeDriver                   // `driver |`
	placeType                     // `input x: |`, a skill parameter's type
	placeStepValue                // `op3 = |`: actions and skills
	placeAnchorValue              // `anchor a = |`: element constructors
	placeExpr                     // anywhere an expression goes
	placeArgName                  // the start of an argument: a name: or an expression
	placeMember                   // `x.|`
	placeDescription              // inside the quotes of `sub<"…">`
	placeAfterLess                // `sub<|`: a description comes next
	placeLoopOption               // `while cond, |`, `explore "goal", |`
)

// cursorContext is the cursor's place and what it needs to complete.
type cursorContext struct {
	place place
	// word is the part of a name typed before the cursor, from wordStart.
	word      string
	wordStart int
	// callee is the innermost open call's name ("" for a method or none);
	// attrsGiven are the names already given in that call.
	callee     string
	attrsGiven map[string]bool
	// argName is the name of the named argument the cursor is the value
	// of (within: …), "" for a positional one.
	argName string
	// receiver is the name before the dot (placeMember) or before `<`
	// (placeAfterLess, placeDescription).
	receiver string
	// stringStart is the offset just after the opening quote of the
	// description the cursor is in (placeDescription).
	stringStart int
}

type openBracket struct {
	ch     byte
	callee string
	given  map[string]bool
	// argStart is where the current argument begins, after ( or ,.
	argStart int
}

var (
	driverLine = regexp.MustCompile(`^\s*driver\s+$`)
	typeLine   = regexp.MustCompile(`^\s*(input\s+\w+\s*:|skill\s+\w+\s*\(.*:)\s*(list\s*<\s*)?$`)
	stepLine   = regexp.MustCompile(`^\s*(confirm\s+)?\w+\s*=\s*$`)
	anchorLine = regexp.MustCompile(`^\s*anchor\s+\w+\s*=\s*$`)
	namedArg   = regexp.MustCompile(`^\s*(\w+)\s*:\s*$`)
	loopOption = regexp.MustCompile(`^\s*(while|until|explore)\b.*,\s*$`)
)

// lineScan is what the text before the cursor on its line leaves open.
type lineScan struct {
	stack               []openBracket
	inString, inComment bool
	stringDep           string // the subcategory before `<"` of the open string
	stringStart         int    // just after the open string's quote
}

// scanLine reads pre (the line up to the cursor): the brackets still
// open, with the callee of each call and the argument names given, and
// whether the cursor is in a string or a comment.
func scanLine(pre string) lineScan {
	var sc lineScan
	for i := 0; i < len(pre) && !sc.inComment; i++ {
		ch := pre[i]
		if sc.inString {
			switch ch {
			case '\\':
				i++
			case '"':
				sc.inString = false
			}
			continue
		}
		switch ch {
		case '#':
			sc.inComment = true
		case '"':
			sc.inString, sc.stringStart, sc.stringDep = true, i+1, ""
			if i > 0 && pre[i-1] == '<' {
				sc.stringDep = identBefore(pre, i-1)
			}
		case '(', '[':
			b := openBracket{ch: ch, argStart: i + 1, given: map[string]bool{}}
			if ch == '(' {
				b.callee = identBefore(pre, i)
			}
			sc.stack = append(sc.stack, b)
		case ')', ']':
			if len(sc.stack) > 0 {
				sc.stack = sc.stack[:len(sc.stack)-1]
			}
		case ',':
			if len(sc.stack) > 0 {
				sc.stack[len(sc.stack)-1].argStart = i + 1
			}
		case ':':
			if len(sc.stack) > 0 {
				top := &sc.stack[len(sc.stack)-1]
				if m := namedArg.FindStringSubmatch(pre[top.argStart:i] + ":"); m != nil {
					top.given[m[1]] = true
				}
			}
		}
	}
	return sc
}

// contextAt reads the cursor's context at byte offset off of text.
func contextAt(text []byte, off int) cursorContext {
	// The line as the editor shows it: a lone "\r" ends one too.
	lineStart := strings.LastIndexAny(string(text[:off]), "\r\n") + 1
	pre := string(text[lineStart:off])
	ctx := cursorContext{}
	sc := scanLine(pre)
	switch {
	case sc.inComment:
		return ctx
	case sc.inString && sc.stringDep == "":
		return ctx
	case sc.inString:
		ctx.place, ctx.receiver, ctx.stringStart = placeDescription, sc.stringDep, lineStart+sc.stringStart
		return ctx
	}
	stack := sc.stack
	ws := len(pre)
	for ws > 0 && isIdentByte(pre[ws-1]) {
		ws--
	}
	ctx.word, ctx.wordStart = pre[ws:], lineStart+ws
	before := pre[:ws]
	trimmed := strings.TrimRight(before, " \t")
	switch {
	case strings.HasSuffix(before, "."):
		ctx.place, ctx.receiver = placeMember, identBefore(before, len(before)-1)
		return ctx
	case strings.HasSuffix(before, "<") && identBefore(before, len(before)-1) != "":
		// `sub<`, or a comparison `n<`: the items tell them apart.
		ctx.place, ctx.receiver = placeAfterLess, identBefore(before, len(before)-1)
		return ctx
	}
	if len(stack) > 0 {
		top := stack[len(stack)-1]
		ctx.callee, ctx.attrsGiven = top.callee, top.given
		arg := before[top.argStart:]
		switch {
		case top.ch == '(' && strings.TrimSpace(arg) == "":
			ctx.place = placeArgName
		case top.ch == '(' && namedArg.MatchString(arg):
			ctx.place, ctx.argName = placeExpr, namedArg.FindStringSubmatch(arg)[1]
		default:
			ctx.place = placeExpr
		}
		return ctx
	}
	switch {
	case strings.TrimSpace(before) == "":
		ctx.place = placeStatement
		if braceDepth(text[:lineStart]) == 0 {
			ctx.place = placeTopLevel
		}
	case strings.HasSuffix(trimmed, "}") && strings.TrimSpace(trimmed) == "}":
		ctx.place = placeAfterBrace
	case loopOption.MatchString(before):
		ctx.place, ctx.receiver = placeLoopOption, loopOption.FindStringSubmatch(before)[1]
	case driverLine.MatchString(before):
		ctx.place = placeDriver
	case typeLine.MatchString(before):
		ctx.place = placeType
	case anchorLine.MatchString(before):
		ctx.place = placeAnchorValue
	case stepLine.MatchString(before):
		ctx.place = placeStepValue
	default:
		ctx.place = placeExpr
	}
	return ctx
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// identBefore returns the name that ends right before s[i] ("" if none).
func identBefore(s string, i int) string {
	j := i
	for j > 0 && isIdentByte(s[j-1]) {
		j--
	}
	return s[j:i]
}

// braceDepth counts the blocks open at the end of text, skipping strings
// and comments.
func braceDepth(text []byte) int {
	depth := 0
	inString, inComment := false, false
	for i := 0; i < len(text); i++ {
		ch := text[i]
		switch {
		case ch == '\n':
			inString, inComment = false, false
		case inComment:
		case inString:
			if ch == '\\' {
				i++
			} else if ch == '"' {
				inString = false
			}
		case ch == '#':
			inComment = true
		case ch == '"':
			inString = true
		case ch == '{':
			depth++
		case ch == '}':
			depth = max(0, depth-1)
		}
	}
	return depth
}
