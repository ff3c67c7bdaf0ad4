package syntax

import (
	"cmp"
	"errors"
	"slices"
	"sort"
	"strings"

	"github.com/alecthomas/participle/v2"
	"github.com/alecthomas/participle/v2/lexer"

	"github.com/cogflow/cogflow/lang/ast"
	"github.com/cogflow/cogflow/lang/diag"
)

// Error recovery. A file the fast path gives up on is parsed a second time
// in recovery mode: the generated statement and declaration loops
// (grammargen's recoverable lists) call q.tryStmt and q.tryDecl, which
// catch the fast path's failure, report it, drop the statement or
// declaration that failed and go on at the next resynchronisation point:
//
//   - in a block: the first token after the failure that begins a line at
//     the statement's brace depth, or the } that closes the block;
//   - at the top level: the next "task" or "skill" that begins a line.
//
// A failing statement nested in a block of another (a step inside an if)
// is dropped alone: the inner block's loop catches it first. Each token is
// read a bounded number of times (the statement once by the fast path, the
// dropped part once more by the resync and once by participle for the
// message), so recovery stays linear in the file.
//
// The message of each error is participle's, run on the dropped tokens
// alone, unless the fast path got further or participle fails only at the
// end of those tokens (as for the first error of a file before recovery:
// participle is normative).

// MaxErrors bounds the syntax errors reported for one file. Past it the
// parse still drops bad statements and keeps the good ones (so the
// checker sees them), but reports only how many more there were.
const MaxErrors = 50

// Partial is the result of ParsePartial.
type Partial struct {
	// File holds every declaration and statement that parsed; the ones
	// that did not are left out. It is never nil.
	File *ast.File
	// Diags are the syntax errors, sorted by position: at most MaxErrors,
	// and one more that counts the rest.
	Diags diag.List
	// Dropped are the source ranges the tree leaves out, in file order.
	Dropped []ast.Range
	// Broken are the names that the dropped text would have declared
	// (steps, inputs, anchors, loop variables, skills, tasks): a checker
	// that reports a use of one as undefined would only repeat the syntax
	// error, so check.CheckPartial does not.
	Broken map[string]bool
	// Mentioned are the names the dropped text uses: an input used only
	// there is not "never used".
	Mentioned map[string]bool
}

// ParsePartial parses one source file and goes on after syntax errors, for
// tools that want every error at once and a tree of what parsed (the
// command line's check, a language server). Without errors its File is
// Parse's tree.
func ParsePartial(filename string, src []byte) *Partial {
	p := newParser(filename, src)
	file := p.parse(true)
	p.finish()
	if file == nil {
		file = &ast.File{Name: filename}
	}
	return &Partial{File: file, Diags: p.diags, Dropped: p.dropped, Broken: p.broken, Mentioned: p.mentioned}
}

// recoverParse is the second pass over a file the fast path gave up on, or
// whose scan found errors: it never fails, and only drops.
func (p *parser) recoverParse() *ast.File {
	p.failure = nil
	q := &quick{parser: p, recovering: true}
	var file *ast.File
	func() {
		defer func() {
			if r := recover(); r != nil {
				if _, mine := r.(errQuick); !mine {
					panic(r)
				}
				file = nil // cannot happen: the declaration loop catches every failure
			}
		}()
		file = q.parseFile()
	}()
	if file == nil {
		file = &ast.File{Name: p.filename}
	}
	return file
}

// finish sorts the diagnostics and keeps the first MaxErrors errors, with
// one more that counts the rest: those recovery did not report, and the
// builders' complaints about what it kept.
func (p *parser) finish() {
	p.diags.Sort()
	over := p.errorsOver
	var kept diag.List
	n := 0
	for _, d := range p.diags {
		if d.Severity == diag.Error {
			if n == MaxErrors {
				over++
				continue
			}
			n++
		}
		kept = append(kept, d)
	}
	p.diags = kept
	if over > 0 {
		at := p.point(len(p.src))
		if len(kept) > 0 {
			at = kept[len(kept)-1].Range
		}
		p.diags.Errorf(at, "%d more syntax errors are not shown; fix the ones above first", over)
	}
}

// junk lets a token that no statement (or declaration) begins with into
// the recoverable loop, so that q.tryStmt reports and skips it, rather
// than ending the loop where the closing } is expected. Outside recovery
// it never does.
func (q *quick) junk(closer string) bool {
	return q.recovering && q.kindAt(0) != tokEOF && q.textAt(0) != closer
}

// tryStmt parses a statement; in recovery mode, one that fails is reported
// and skipped, and ok is false.
func (q *quick) tryStmt() (ast.Stmt, bool) {
	if !q.recovering {
		return q.parseStmt(), true
	}
	return tryParse(q, q.parseStmt, false)
}

// tryDecl is tryStmt for a top-level declaration.
func (q *quick) tryDecl() (ast.Decl, bool) {
	if !q.recovering {
		return q.parseDecl(), true
	}
	return tryParse(q, q.parseDecl, true)
}

func tryParse[T any](q *quick, parse func() T, decl bool) (x T, ok bool) {
	start := q.i
	scratch := q.scratch // the lists gathered by frames the failure unwinds
	mark, droppedMark := len(q.diags), len(q.dropped)
	defer func() {
		r := recover()
		if r == nil {
			return
		}
		if _, mine := r.(errQuick); !mine {
			panic(r)
		}
		q.scratch = scratch
		q.keepNested(mark, droppedMark)
		q.drop(start, q.i, decl, droppedMark)
		ok = false
	}()
	x = parse()
	if !decl && q.unclaimed(mark, droppedMark) {
		// It parsed, but a builder refused a part of it (a keyword as a
		// name, a number called): keep the error, drop the statement, so
		// that the checker sees only well-formed statements.
		var zero T
		q.noteBroken(start, q.i)
		q.dropped = append(q.dropped, q.tokensRange(start, q.i))
		return zero, false
	}
	return x, true
}

// keepNested drops the diagnostics added since mark but those of the
// statements dropped since droppedMark: a builder's complaint about a part
// of a statement that is dropped whole would only repeat its syntax error,
// while a statement of its body that failed on its own is an error of its
// own.
func (q *quick) keepNested(mark, droppedMark int) {
	in := inAny(q.dropped[droppedMark:])
	kept := q.diags[:mark]
	for _, d := range q.diags[mark:] {
		if in(d.Range.Start.Offset) {
			kept = append(kept, d)
		}
	}
	q.diags = kept
}

// inAny returns whether an offset lies in one of the ranges. A statement
// holding many dropped ones (a block of broken lines) asks it of each of
// their errors: past a few ranges it searches them merged and sorted, so
// that the question stays O(log n) rather than making recovery quadratic.
func inAny(ranges []ast.Range) func(offset int) bool {
	if len(ranges) <= 8 {
		return func(offset int) bool {
			for _, r := range ranges {
				if r.Start.Offset <= offset && offset <= r.End.Offset {
					return true
				}
			}
			return false
		}
	}
	merged := mergeRanges(ranges)
	return func(offset int) bool {
		// The last span starting at or before offset is the only one
		// that can hold it.
		i := sort.Search(len(merged), func(i int) bool { return merged[i][0] > offset }) - 1
		return i >= 0 && offset <= merged[i][1]
	}
}

// mergeRanges is the union of non-empty ranges as [start, end] offset
// pairs, sorted and disjoint.
func mergeRanges(ranges []ast.Range) [][2]int {
	spans := make([][2]int, len(ranges))
	for i, r := range ranges {
		spans[i] = [2]int{r.Start.Offset, r.End.Offset}
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return cmp.Compare(a[0], b[0]) })
	merged := spans[:1]
	for _, s := range spans[1:] {
		if last := &merged[len(merged)-1]; s[0] <= last[1] {
			last[1] = max(last[1], s[1])
		} else {
			merged = append(merged, s)
		}
	}
	return merged
}

// unclaimed reports whether an error was added since diagnostic mark that
// no statement dropped since droppedMark accounts for.
func (q *quick) unclaimed(mark, droppedMark int) bool {
	var in func(int) bool
	for _, d := range q.diags[mark:] {
		if d.Severity != diag.Error {
			continue
		}
		if in == nil {
			in = inAny(q.dropped[droppedMark:])
		}
		if !in(d.Range.Start.Offset) {
			return true
		}
	}
	return false
}

// tokensRange is the source range of tokens [start, end).
func (p *parser) tokensRange(start, end int) ast.Range {
	from := int(p.tokens[start].Offset)
	to := max(from, int(p.tokens[max(end-1, start)].End))
	return ast.Range{Filename: p.filename, Start: p.pos(from), End: p.pos(to)}
}

// drop reports the failure at token failed of the statement (or
// declaration) beginning at token start, records what it leaves out, and
// moves on to the resynchronisation point.
func (q *quick) drop(start, failed int, decl bool, droppedMark int) {
	end, paren := q.resync(start, failed, decl)
	q.noteBroken(start, end)
	nested := q.dropped[droppedMark:len(q.dropped):len(q.dropped)] // its statements dropped already
	q.dropped = append(q.dropped, q.tokensRange(start, end))
	switch {
	case paren < 0 && q.alreadyReported(start, failed):
	case paren >= 0 && q.alreadyReported(start, end-1):
	case q.reportedErrors >= MaxErrors:
		q.errorsOver++
	case paren >= 0:
		// The failure lies past the end of the statement: its line left
		// a bracket open and the next statement was read as its part.
		q.reportedErrors++
		o := q.tokens[paren]
		q.diags.Errorf(q.tokRange(o), "this %s is not closed before the end of the line", q.val(o))
	default:
		q.reportedErrors++
		q.stmtStart, q.top = start, decl
		q.explain(start, end, decl, nested)
		q.stmtStart, q.top = -1, false
	}
	q.failure = nil
	q.bodyOfDropped(start, failed, end)
	q.i = end
}

// bodyOfDropped parses, for its errors only, the block a dropped statement
// opened after its failure (`if x then { … }`): its statements' own
// errors come out now rather than once the header is fixed. The block is
// not kept: the statement it belongs to is dropped.
func (q *quick) bodyOfDropped(start, failed, end int) {
	braces := 0
	for j := start; j < end; j++ {
		switch q.val(q.tokens[j]) {
		case "{":
			if braces == 0 && j >= failed {
				q.parseAside(j)
				return
			}
			braces++
		case "}":
			braces = max(braces-1, 0)
		}
	}
}

// parseAside parses the block at token j in recovery mode and throws the
// tree away, keeping the diagnostics.
func (q *quick) parseAside(j int) {
	scratch := q.scratch
	defer func() {
		if r := recover(); r != nil {
			if _, mine := r.(errQuick); !mine {
				panic(r)
			}
		}
		q.scratch = scratch
		q.failure = nil
	}()
	q.i = j
	q.parseBlock()
}

// resync is the index of the token where parsing goes on after a failure
// at token failed of the statement beginning at token start. Brace depth
// is counted from start, so that a block the failed statement opened is
// skipped whole; a line that begins inside unclosed parentheses continues
// the statement unless it is indented no deeper than the statement: then
// the statement ends there, even before the failure, and paren is the
// index of the bracket left open (else -1).
func (q *quick) resync(start, failed int, decl bool) (end, paren int) {
	braces := 0
	var parens []int // the open ( and [
	col := q.column(start)
	for j := start; j < len(q.tokens); j++ {
		tok := q.tokens[j]
		if tok.Kind() == tokEOF {
			return j, -1
		}
		v := q.val(tok)
		if j > start && !decl && braces == 0 && len(parens) > 0 && q.startsLine(j) && q.column(j) <= col {
			return j, parens[len(parens)-1]
		}
		if j > start && j >= failed {
			switch {
			case decl:
				if braces == 0 && (v == "task" || v == "skill") && q.startsLine(j) {
					return j, -1
				}
			case v == "}" && braces == 0:
				return j, -1 // the block's own }: it ends the block
			case braces == 0 && q.startsLine(j) && len(parens) == 0:
				return j, -1
			}
		}
		switch v {
		case "{":
			braces++
		case "}":
			braces = max(braces-1, 0)
		case "(", "[":
			if braces == 0 { // not in a block the statement opened
				parens = append(parens, j)
			}
		case ")", "]":
			if braces == 0 && len(parens) > 0 {
				parens = parens[:len(parens)-1]
			}
		}
	}
	return len(q.tokens) - 1, -1
}

// startsLine reports whether token j is the first of its line.
func (p *parser) startsLine(j int) bool {
	if j == 0 {
		return true
	}
	return strings.IndexByte(p.text[p.tokens[j-1].End:p.tokens[j].Offset], '\n') >= 0
}

// column is the byte column of token j.
func (p *parser) column(j int) int { return p.pos(int(p.tokens[j].Offset)).Column }

// alreadyReported says whether a token of the statement from start to
// failed, outside the blocks it opened, has a scan error (an unclosed
// bracket, a stray character): the failure is then that error seen again.
// One inside a block of the statement is that block's statement's.
func (p *parser) alreadyReported(start, failed int) bool {
	braces := 0
	for j := start; j <= failed && j < len(p.tokens); j++ {
		tok := p.tokens[j]
		if braces == 0 && p.scanErrors[int(tok.Offset)] {
			return true
		}
		switch p.val(tok) {
		case "{":
			braces++
		case "}":
			braces = max(braces-1, 0)
		}
	}
	return false
}

// explain writes the error of the dropped tokens [start, end).
func (q *quick) explain(start, end int, decl bool, nested []ast.Range) {
	f := q.failure
	err := q.participleChunk(start, end, decl, nested)
	var perr participle.Error
	if err == nil || !errors.As(err, &perr) || perr.Position().Offset >= q.chunkEnd(end) {
		// Participle accepts the dropped tokens alone, or fails only at
		// their end, where the file goes on: the fast path's failure is
		// the one to report.
		q.fastError(f)
		return
	}
	q.syntaxError(err) // participle's, unless the fast path got further
}

// chunkEnd is the offset the tokens after a dropped chunk are given: where
// the chunk ends in the file.
func (q *quick) chunkEnd(end int) int { return int(q.tokens[end].Offset) }

// participleChunk runs participle on tokens [start, end) alone: as a file
// for a declaration, inside `task _ { … }` for a statement. The tokens it
// adds lie at the chunk's end, so that an error there is recognised as
// the end of the chunk and not reported. The nested statements dropped
// already are left out, as the fast path left them: participle would only
// stop at their errors again, before the fast path's failure, after
// reading them once more for each statement around them (a try without
// fallback inside another, 64 deep, read a large body 64 times).
func (q *quick) participleChunk(start, end int, decl bool, nested []ast.Range) error {
	at := q.chunkEnd(end)
	virtual := func(typ lexer.TokenType, v string, off int) lexer.Token {
		return lexer.Token{Type: typ, Value: v, Pos: lexer.Position{Filename: q.filename, Offset: off}}
	}
	var toks []lexer.Token
	if !decl {
		from := int(q.tokens[start].Offset)
		toks = append(toks, virtual(tokIdent, "task", from), virtual(tokIdent, "_", from), virtual(tokOp, "{", from))
	}
	toks = append(toks, participleTokens(q.filename, q.text, q.without(q.tokens[start:end], nested))...)
	if !decl {
		toks = append(toks, virtual(tokOp, "}", at))
	}
	toks = append(toks, virtual(tokEOF, "", at))
	lex, err := lexer.Upgrade(&tokenList{tokens: toks})
	if err != nil {
		return err
	}
	_, err = cogParser.ParseFromLexer(lex)
	return err
}

// without is toks less those that begin in one of the ranges.
func (q *quick) without(toks []token, ranges []ast.Range) []token {
	if len(ranges) == 0 {
		return toks
	}
	spans := mergeRanges(ranges)
	var out []token
	k := 0
	for _, tok := range toks {
		off := int(tok.Offset)
		for k < len(spans) && spans[k][1] <= off {
			k++ // a range's end is its last token's end: no token begins there
		}
		if k < len(spans) && spans[k][0] <= off {
			continue
		}
		out = append(out, tok)
	}
	return out
}

// noteBroken records the names the dropped tokens [start, end) mention,
// and those they declare or seem to: a name before =, and the name after
// input, anchor, for, skill and task.
func (p *parser) noteBroken(start, end int) {
	for j := start; j < end; j++ {
		tok := p.tokens[j]
		if tok.Kind() != tokIdent {
			continue
		}
		v := p.val(tok)
		if !Keywords[v] {
			if p.mentioned == nil {
				p.mentioned = map[string]bool{}
			}
			p.mentioned[v] = true
		}
		name := ""
		switch {
		case v == "input" || v == "anchor" || v == "for" || v == "skill" || v == "task":
			if j+1 < end && p.tokens[j+1].Kind() == tokIdent {
				name = p.val(p.tokens[j+1])
			}
		case !Keywords[v] && j+1 < end && p.val(p.tokens[j+1]) == "=":
			name = v
		}
		if name != "" && !Keywords[name] {
			if p.broken == nil {
				p.broken = map[string]bool{}
			}
			p.broken[name] = true
		}
	}
}
