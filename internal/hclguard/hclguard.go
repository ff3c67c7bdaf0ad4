// Package hclguard checks an HCL file's size and nesting before the HCL
// parser sees it. hclsyntax descends recursively into brackets, templates
// and operators; 100,000 nested brackets overflow the goroutine stack,
// which is a fatal error no recover catches. So the configuration and
// knowledge-base readers call Check first and report a file:line:col
// error instead.
package hclguard

import (
	"fmt"
	"io"
	"os"

	"github.com/hashicorp/hcl/v2"
)

// MaxNesting is the deepest nesting of brackets, template interpolations
// and prefix operators a file may have. Real files nest a handful deep.
const MaxNesting = 100

// Check reports a file larger than maxBytes, or nested deeper than
// MaxNesting, as an error diagnostic at the place it goes too deep; nil
// when the parser may have it. what names the kind of file ("configuration
// file", "knowledge base").
func Check(src []byte, filename, what string, maxBytes int) hcl.Diagnostics {
	if len(src) > maxBytes {
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  what + " too large",
			Detail:   fmt.Sprintf("The file has %d bytes; a %s may have at most %d.", len(src), what, maxBytes),
			Subject:  &hcl.Range{Filename: filename, Start: hcl.InitialPos, End: hcl.InitialPos},
		}}
	}
	if off, ok := tooDeep(src); ok {
		p := posAt(src, off)
		return hcl.Diagnostics{{
			Severity: hcl.DiagError,
			Summary:  "Nesting too deep",
			Detail:   fmt.Sprintf("Brackets, interpolations and operators nest more than %d deep here; a %s never needs that.", MaxNesting, what),
			Subject:  &hcl.Range{Filename: filename, Start: p, End: p},
		}}
	}
	return nil
}

// Frame kinds of the scanner's stack.
const (
	bracket  = iota // ( [ {
	template        // ${ or %{ inside a string
	str             // a quoted string
)

// tooDeep scans src the way HCL's lexer splits it — quoted strings with
// their escapes and interpolations, comments, heredocs — and returns the
// offset where the nesting first exceeds MaxNesting. Brackets inside
// strings and comments do not count; runs of prefix operators (!!!x,
// - - -x) and the steps of a traversal (x.a.b[0]) count one level each,
// as the parser recurses on them too.
func tooDeep(src []byte) (int, bool) {
	var stack []int
	prefix := 0 // consecutive prefix operators
	chain := 0  // traversal steps of one expression
	for i := 0; i < len(src); i++ {
		c := src[i]
		inStr := len(stack) > 0 && stack[len(stack)-1] == str
		if inStr {
			switch {
			case c == '\\':
				i++
			case c == '"':
				stack = stack[:len(stack)-1]
			case (c == '$' || c == '%') && i+1 < len(src) && src[i+1] == '{':
				if i+2 < len(src) && src[i+2] == c {
					break // $${ is an escaped literal
				}
				i++
				stack = append(stack, template)
				chain = 0
			}
			if len(stack) > MaxNesting {
				return i, true
			}
			continue
		}
		switch {
		case c == '#' || (c == '/' && i+1 < len(src) && src[i+1] == '/'):
			for i < len(src) && src[i] != '\n' {
				i++
			}
			prefix = 0
		case c == '/' && i+1 < len(src) && src[i+1] == '*':
			i += 2
			for i+1 < len(src) && !(src[i] == '*' && src[i+1] == '/') {
				i++
			}
			i++
		case c == '<' && i+1 < len(src) && src[i+1] == '<':
			i = skipHeredoc(src, i)
		case c == '"':
			stack = append(stack, str)
			chain = 0
		case c == '(' || c == '[' || c == '{':
			stack = append(stack, bracket)
		case c == ')' || c == ']' || c == '}':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case c == '!' || c == '-':
			prefix++
			if prefix > MaxNesting {
				return i, true
			}
			continue
		case c == ' ' || c == '\t':
			continue
		}
		prefix = 0
		// A traversal (x.a.b[0][1]) is parsed recursively, step by step.
		switch c {
		case '.', '[':
			chain++
			if chain > MaxNesting {
				return i, true
			}
		case '*': // a product ends a traversal, a splat (x[*], x.*) does not
			if i == 0 || (src[i-1] != '[' && src[i-1] != '.') {
				chain = 0
			}
		case '\n', ',', '=', '+', '/', '%', '<', '>', '&', '|', '?', ':', ';', '(', '{':
			chain = 0
		}
		if len(stack) > MaxNesting {
			return i, true
		}
	}
	return 0, false
}

// skipHeredoc returns the offset of the last byte of the heredoc that
// starts at src[i] ("<<EOT" or "<<-EOT"), or i+1 when it is not one.
func skipHeredoc(src []byte, i int) int {
	j := i + 2
	if j < len(src) && src[j] == '-' {
		j++
	}
	start := j
	for j < len(src) && (isIdent(src[j])) {
		j++
	}
	if j == start || j >= len(src) || (src[j] != '\n' && src[j] != '\r') {
		return i + 1
	}
	marker := string(src[start:j])
	// The heredoc ends at a line that holds only the marker, spaces around.
	for line := j + 1; line < len(src); {
		end := line
		for end < len(src) && src[end] != '\n' {
			end++
		}
		if trimSpace(string(src[line:end])) == marker {
			return end
		}
		line = end + 1
	}
	return len(src)
}

func isIdent(c byte) bool {
	return c == '_' || c == '-' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
}

func trimSpace(s string) string {
	for len(s) > 0 && (s[0] == ' ' || s[0] == '\t') {
		s = s[1:]
	}
	for len(s) > 0 && (s[len(s)-1] == ' ' || s[len(s)-1] == '\t' || s[len(s)-1] == '\r') {
		s = s[:len(s)-1]
	}
	return s
}

// posAt is the HCL position of a byte offset: line, column in
// characters, byte.
func posAt(src []byte, off int) hcl.Pos {
	p := hcl.Pos{Line: 1, Column: 1, Byte: off}
	for i := 0; i < off && i < len(src); i++ {
		switch {
		case src[i] == '\n':
			p.Line++
			p.Column = 1
		case src[i]&0xC0 != 0x80: // not a UTF-8 continuation byte
			p.Column++
		}
	}
	return p
}

// ReadFile reads the file at path, at most maxBytes of it: a bigger file
// (or /dev/zero) is an error naming the limit, not an exhausted memory.
// Errors from opening the file wrap the fs errors (fs.ErrNotExist).
func ReadFile(path, what string, maxBytes int) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, int64(maxBytes)+1))
	if err != nil {
		return nil, err
	}
	if len(src) > maxBytes {
		return nil, fmt.Errorf("%s: a %s may have at most %d bytes", path, what, maxBytes)
	}
	return src, nil
}
