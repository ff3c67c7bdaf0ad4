package adbtest

import (
	"errors"
	"strings"
)

// The device's shell is mksh; the simulation understands the part of its
// syntax that adb clients send: words with '…', "…" and \ quoting,
// pipelines (|), lists (; && ||, & treated as ;), redirections (> >> 2>
// 2>&1 <) and # comments. There is no variable expansion or globbing: a
// client that quotes its arguments (adb.QuoteShell) sees the same words as
// on a device.

// A stage is one simple command of a pipeline.
type stage struct {
	args     []string
	stdout   string // file for > or >>, "" for the pipe or the connection
	appendTo bool   // >> rather than >
	stdin    string // file for <
	errNull  bool   // 2>/dev/null
	errOut   bool   // 2>&1 (a no-op: shell v1 merges stderr already)
}

// A pipeline is stages joined by |, and how it joins the next pipeline.
type pipeline struct {
	stages []*stage
	op     string // ";", "&&" or "||" after this pipeline; "" at the end
}

type token struct {
	text string
	op   bool // an unquoted operator rather than a word
}

var errUnmatchedQuote = errors.New("syntax error: unmatched quote")

// parseCommandLine splits line into pipelines.
func parseCommandLine(line string) ([]*pipeline, error) {
	toks, err := lex(line)
	if err != nil {
		return nil, err
	}
	var out []*pipeline
	p := &pipeline{}
	st := &stage{}
	for i := 0; i < len(toks); i++ {
		t := toks[i]
		if !t.op {
			st.args = append(st.args, t.text)
			continue
		}
		switch t.text {
		case "|", ";", "&&", "||", "&":
			if len(st.args) == 0 {
				return nil, errors.New("syntax error: unexpected '" + t.text + "'")
			}
			p.stages = append(p.stages, st)
			st = &stage{}
			if t.text != "|" {
				p.op = t.text
				if t.text == "&" {
					p.op = ";"
				}
				out = append(out, p)
				p = &pipeline{}
			}
		case "2>&1":
			st.errOut = true
		default: // > >> 2> <
			if i+1 >= len(toks) || toks[i+1].op {
				return nil, errors.New("syntax error: missing file after '" + t.text + "'")
			}
			i++
			applyRedirect(st, t.text, toks[i].text)
		}
	}
	if len(st.args) > 0 {
		p.stages = append(p.stages, st)
	} else if len(p.stages) > 0 {
		return nil, errors.New("syntax error: unexpected end of command")
	}
	if len(p.stages) > 0 {
		out = append(out, p)
	} else if n := len(out); n > 0 && (out[n-1].op == "&&" || out[n-1].op == "||") {
		return nil, errors.New("syntax error: unexpected end of command")
	}
	return out, nil
}

func applyRedirect(st *stage, op, file string) {
	switch op {
	case ">":
		st.stdout, st.appendTo = file, false
	case ">>":
		st.stdout, st.appendTo = file, true
	case "<":
		st.stdin = file
	case "2>":
		st.errNull = file == "/dev/null"
	}
}

// lex splits line into words and operators, removing quotes.
func lex(line string) ([]token, error) {
	var toks []token
	var word strings.Builder
	inWord := false
	flush := func() {
		if inWord {
			toks = append(toks, token{text: word.String()})
			word.Reset()
			inWord = false
		}
	}
	for i := 0; i < len(line); i++ {
		c := line[i]
		switch {
		case c == ' ' || c == '\t' || c == '\n':
			flush()
		case c == '#' && !inWord:
			return toks, nil
		case c == '\'':
			end := strings.IndexByte(line[i+1:], '\'')
			if end < 0 {
				return nil, errUnmatchedQuote
			}
			word.WriteString(line[i+1 : i+1+end])
			inWord = true
			i += end + 1
		case c == '"':
			n, err := lexDouble(line[i+1:], &word)
			if err != nil {
				return nil, err
			}
			inWord = true
			i += n + 1
		case c == '\\':
			if i+1 < len(line) {
				i++
				if line[i] != '\n' {
					word.WriteByte(line[i])
				}
			}
			inWord = true
		case c == '2' && !inWord && strings.HasPrefix(line[i:], "2>"):
			flush()
			op := "2>"
			if strings.HasPrefix(line[i:], "2>&1") {
				op = "2>&1"
			}
			toks = append(toks, token{text: op, op: true})
			i += len(op) - 1
		case strings.IndexByte("|;&<>", c) >= 0:
			flush()
			op := string(c)
			if i+1 < len(line) && (c == '|' || c == '&' || c == '>') && line[i+1] == c {
				op += string(c)
			}
			toks = append(toks, token{text: op, op: true})
			i += len(op) - 1
		default:
			word.WriteByte(c)
			inWord = true
		}
	}
	flush()
	return toks, nil
}

// lexDouble reads the inside of a "…" string from s (after the opening
// quote) into w and returns how many bytes it consumed, closing quote
// included. Inside, \ escapes only $ ` " \ and newline, as in sh.
func lexDouble(s string, w *strings.Builder) (int, error) {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			return i + 1, nil
		case '\\':
			if i+1 < len(s) && strings.IndexByte("$`\"\\\n", s[i+1]) >= 0 {
				i++
				if s[i] != '\n' {
					w.WriteByte(s[i])
				}
				continue
			}
		}
		w.WriteByte(s[i])
	}
	return 0, errUnmatchedQuote
}
