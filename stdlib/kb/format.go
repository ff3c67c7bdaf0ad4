package kb

import (
	"bytes"
	"fmt"
	"strconv"
	"strings"
	"unicode"

	"github.com/hashicorp/hcl/v2"
	"github.com/hashicorp/hcl/v2/hclsyntax"
)

// Format writes k as canonical HCL: the header comment, the version, the
// categories and their subcategories in slice order, then the rules, each
// block under its own comment. A
// subcategory's result is written only when it differs from its category's.
// Parsing the output gives back an equal KB, and formatting a file that is
// already canonical reproduces it byte for byte.
func (k *KB) Format() []byte {
	if k == nil {
		return nil
	}
	var b bytes.Buffer
	if len(k.Header) > 0 {
		writeComment(&b, "", k.Header)
		b.WriteString("\n")
	}
	b.WriteString("version = " + strconv.Itoa(k.Version) + "\n")
	formatIrreversible(&b, k.Irreversible)
	for _, c := range k.Categories {
		b.WriteString("\n")
		writeComment(&b, "", c.Comment)
		b.WriteString("category " + quote(c.Name) + " {\n")
		b.WriteString("  definition = " + quote(c.Definition) + "\n")
		b.WriteString("  result     = " + quote(c.Result) + "\n")
		for _, s := range c.Subcategories {
			formatSubcategory(&b, c, s)
		}
		b.WriteString("}\n")
	}
	for _, r := range k.Rules {
		b.WriteString("\n")
		writeComment(&b, "", r.Comment)
		b.WriteString("rule " + quote(r.ID) + " {\n")
		b.WriteString("  text = " + quote(r.Text) + "\n")
		b.WriteString("}\n")
	}
	return b.Bytes()
}

// formatSubcategory writes one subcategory block of category c. The "=" of
// the single-line arguments are aligned, as hclwrite and terraform fmt do.
func formatSubcategory(b *bytes.Buffer, c *Category, s *Subcategory) {
	b.WriteString("\n")
	writeComment(b, "  ", s.Comment)
	b.WriteString("  subcategory " + quote(s.Name) + " {\n")
	b.WriteString("    definition = " + quote(s.Definition) + "\n")
	if s.Result != "" && s.Result != c.Result {
		b.WriteString("    result     = " + quote(s.Result) + "\n")
	}
	b.WriteString("    examples = [\n")
	for _, ex := range s.Examples {
		b.WriteString("      " + quote(ex) + ",\n")
	}
	b.WriteString("    ]\n  }\n")
}

// writeComment writes comment lines with "#" markers at indent; an entry
// holding line breaks becomes several lines, so that no text escapes the
// comment.
func writeComment(b *bytes.Buffer, indent string, lines []string) {
	if len(lines) == 0 {
		return
	}
	for _, line := range strings.Split(strings.Join(lines, "\n"), "\n") {
		if line == "" {
			b.WriteString(indent + "#\n")
		} else {
			b.WriteString(indent + "# " + line + "\n")
		}
	}
}

// quote renders s as an HCL quoted string literal: quotes, backslashes and
// control characters are escaped, and "${" and "%{" are doubled so that they
// are not read as template sequences.
func quote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r == '\r':
			b.WriteString(`\r`)
		case r == '\t':
			b.WriteString(`\t`)
		case (r == '$' || r == '%') && strings.HasPrefix(s[i+1:], "{"):
			b.WriteRune(r)
			b.WriteRune(r)
		case !unicode.IsPrint(r) && r <= 0xFFFF:
			fmt.Fprintf(&b, `\u%04X`, r)
		case !unicode.IsPrint(r):
			fmt.Fprintf(&b, `\U%08X`, r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// headerComment returns the comment lines at the very top of src, before the
// first token that is not a comment, without their markers ("#", "//", "/*").
// Blank lines between leading comments are dropped.
func headerComment(src []byte, filename string) []string {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	var lines []string
	for _, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenNewline:
		case hclsyntax.TokenComment:
			lines = append(lines, commentLines(string(tok.Bytes))...)
		default:
			return lines
		}
	}
	return lines
}

// blockComments returns the full-line comments directly above each block
// (no blank line between), keyed by the byte offset of the block's type
// keyword, without their markers. The file's header comment is left out:
// it belongs to the file, not to the first block.
func blockComments(src []byte, filename string) map[int][]string {
	tokens, _ := hclsyntax.LexConfig(src, filename, hcl.InitialPos)
	out := map[int][]string{}
	var pending []string
	lineStart := true    // the next token starts a line
	first := true        // no significant token seen yet
	openComment := false // a /* */ comment began the line; its newline follows
	for _, tok := range tokens {
		switch tok.Type {
		case hclsyntax.TokenComment:
			ends := bytes.HasSuffix(tok.Bytes, []byte("\n"))
			if !lineStart { // a comment after code on the same line
				pending, lineStart = nil, ends
				continue
			}
			pending = append(pending, commentLines(string(tok.Bytes))...)
			lineStart, openComment = ends, !ends
		case hclsyntax.TokenNewline:
			if openComment {
				openComment, lineStart = false, true
				continue
			}
			if lineStart {
				pending = nil // a blank line detaches the comments above it
			}
			lineStart = true
		default:
			if lineStart && tok.Type == hclsyntax.TokenIdent && !first && len(pending) > 0 {
				out[tok.Range.Start.Byte] = pending
			}
			pending, lineStart, first, openComment = nil, false, false, false
		}
	}
	return out
}

// commentLines strips the markers from one comment token.
func commentLines(text string) []string {
	switch {
	case strings.HasPrefix(text, "/*"):
		text = strings.TrimSuffix(strings.TrimPrefix(text, "/*"), "*/")
	case strings.HasPrefix(text, "//"):
		text = strings.TrimPrefix(text, "//")
	default:
		text = strings.TrimPrefix(text, "#")
	}
	text = strings.TrimRight(text, "\r\n")
	var lines []string
	for _, line := range strings.Split(text, "\n") {
		line = strings.TrimRight(line, " \t\r")
		lines = append(lines, strings.TrimPrefix(line, " "))
	}
	return lines
}
